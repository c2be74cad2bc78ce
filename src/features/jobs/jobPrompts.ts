// @vscode/l10n, not vscode: the prompts are unit-tested in plain Node (src/platform/l10n.ts hands it the bundle).
import * as l10n from '@vscode/l10n';
import type * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import type { BulkType, RareBuildParams, RareGenerateParams } from '../../api/resources/jobs';
import type { UserInput } from '../../platform/userInput';
import { listFolders } from '../../platform/pickers/folderPicker';
import {
  BUILD_NUMBER_PARAMS,
  BULK_TYPES,
  GENERATE_NUMBER_PARAMS,
  LANGUAGES,
  defaultBuildParams,
  defaultGenerateParams,
  describeParams,
  languageParam,
  parseNumber,
  rangeText,
  validateNumber,
  type LanguageChoice,
  type NumberParam,
} from './jobParams';

/** Thrown when the user dismisses a prompt: the command wrapper stays silent. */
export class PromptCancelled extends Error {
  override readonly name = 'Canceled';
  constructor() {
    super('Canceled');
  }
}

const orCancel = <T>(value: T | undefined): T => {
  if (value === undefined) throw new PromptCancelled();
  return value;
};

async function useDefaults(ui: UserInput, title: string, defaults: object, placeHolder?: string): Promise<boolean> {
  const pick = await ui.showQuickPick(
    [
      { id: 'defaults', label: `$(check) ${l10n.t('Use defaults')}`, detail: describeParams(defaults) },
      {
        id: 'custom',
        label: `$(settings-gear) ${l10n.t('Customize…')}`,
        detail: l10n.t('Choose each setting; every prompt shows its default and range.'),
      },
    ],
    { title, placeHolder: placeHolder ?? l10n.t('Start with the default settings, or choose them one by one') },
  );
  return orCancel(pick).id === 'defaults';
}

async function askNumber(ui: UserInput, p: NumberParam<string>, title: string): Promise<number> {
  const text = orCancel(
    await ui.showInputBox({
      title,
      prompt: l10n.t('{0}: {1}. {2}; default {3}.', p.label, p.help, rangeText(p, true), p.default),
      value: String(p.default),
      placeHolder: String(p.default),
      validateInput: (v) => validateNumber(p, v),
    }),
  );
  return parseNumber(p, text);
}

async function askLanguage(ui: UserInput, title: string): Promise<LanguageChoice> {
  const pick = await ui.showQuickPick(
    LANGUAGES.map((l) => ({ label: l.label, detail: l.detail, id: l.id })),
    { title, placeHolder: l10n.t('Language of the generated content') },
  );
  return orCancel(pick).id;
}

/** Start Build…: "Use defaults", or folders (none = all), language and the four numbers. */
export async function promptBuildParams(ui: UserInput, client: ApiClient): Promise<RareBuildParams> {
  const defaults = defaultBuildParams();
  if (await useDefaults(ui, l10n.t('Start Build (answer generation)'), { folders: 'all', language: 'auto', ...defaults })) return defaults;
  const steps = 2 + BUILD_NUMBER_PARAMS.length;
  const folders = listFolders(client).then((list) =>
    list.map((f) => ({ label: `$(folder) ${f.name}`, description: f.breadcrumbs.map((b) => b.name).join(' › '), id: f.id })),
  );
  const chosen = orCancel(
    await ui.showQuickPickMany(await folders, {
      title: l10n.t('Build: folders to include ({0}/{1})', 1, steps),
      placeHolder: l10n.t('Choose none to include every folder'),
      matchOnDescription: true,
    }),
  );
  const params: RareBuildParams = { ...defaults };
  if (chosen.length) params.folder_ids = chosen.map((c) => (c as vscode.QuickPickItem & { id: string }).id);
  const language = languageParam(await askLanguage(ui, l10n.t('Build: language ({0}/{1})', 2, steps)));
  if (language) params.language = language;
  let i = 3;
  for (const p of BUILD_NUMBER_PARAMS)
    params[p.key] = await askNumber(ui, p, l10n.t('Build: {0} ({1}/{2})', p.label.toLowerCase(), i++, steps));
  return params;
}

/** Start Generate…: "Use defaults", or the four numbers, language and an optional custom prompt. */
export async function promptGenerateParams(ui: UserInput, buildCompleted: boolean | undefined): Promise<RareGenerateParams> {
  const defaults = defaultGenerateParams();
  const warning =
    buildCompleted === false ? l10n.t('The build has not completed: the service will refuse to generate until it has.') : undefined;
  if (await useDefaults(ui, l10n.t('Start Generate (answer generation)'), { ...defaults, language: 'auto' }, warning)) return defaults;
  const steps = GENERATE_NUMBER_PARAMS.length + 2;
  const params: RareGenerateParams = { ...defaults };
  let i = 1;
  for (const p of GENERATE_NUMBER_PARAMS)
    params[p.key] = await askNumber(ui, p, l10n.t('Generate: {0} ({1}/{2})', p.label.toLowerCase(), i++, steps));
  const language = languageParam(await askLanguage(ui, l10n.t('Generate: language ({0}/{1})', i++, steps)));
  if (language) params.language = language;
  const prompt = orCancel(
    await ui.showInputBox({
      title: l10n.t('Generate: custom prompt ({0}/{1})', i, steps),
      prompt: l10n.t('Optional instructions for the generation ({0}). Leave empty for none.', 'rare_user_prompt'),
      placeHolder: l10n.t('e.g. Write questions a new employee would ask'),
    }),
  );
  if (prompt.trim()) params.rare_user_prompt = prompt.trim();
  return params;
}

export async function promptBulkType(ui: UserInput, fileName: string): Promise<BulkType> {
  const pick = await ui.showQuickPick(
    BULK_TYPES.map((t) => ({ label: t.label, detail: t.detail, id: t.id })),
    { title: l10n.t('Run bulk processing on {0}', fileName), placeHolder: l10n.t('How should each question be answered?') },
  );
  return orCancel(pick).id;
}
