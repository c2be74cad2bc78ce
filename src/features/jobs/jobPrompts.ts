import type * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import type { BulkType, RareBuildParams, RareGenerateParams } from '../../api/resources/jobs';
import type { UserInput } from '../../platform/userInput';
import { listFolders } from '../../platform/folderPicker';
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
      { id: 'defaults', label: '$(check) Use defaults', detail: describeParams(defaults) },
      { id: 'custom', label: '$(settings-gear) Customize…', detail: 'Choose each setting; every prompt shows its default and range.' },
    ],
    { title, placeHolder: placeHolder ?? 'Start with the default settings, or choose them one by one' },
  );
  return orCancel(pick).id === 'defaults';
}

async function askNumber(ui: UserInput, p: NumberParam<string>, title: string): Promise<number> {
  const text = orCancel(
    await ui.showInputBox({
      title,
      prompt: `${p.label}: ${p.help}. ${rangeText(p)[0].toUpperCase()}${rangeText(p).slice(1)}; default ${p.default}.`,
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
    { title, placeHolder: 'Language of the generated content' },
  );
  return orCancel(pick).id;
}

/** Start Build…: "Use defaults", or folders (none = all), language and the four numbers. */
export async function promptBuildParams(ui: UserInput, client: ApiClient): Promise<RareBuildParams> {
  const defaults = defaultBuildParams();
  if (await useDefaults(ui, 'Start Build (answer generation)', { folders: 'all', language: 'auto', ...defaults })) return defaults;
  const steps = 2 + BUILD_NUMBER_PARAMS.length;
  const folders = listFolders(client).then((list) =>
    list.map((f) => ({ label: `$(folder) ${f.name}`, description: f.breadcrumbs.map((b) => b.name).join(' › '), id: f.id })),
  );
  const chosen = orCancel(
    await ui.showQuickPickMany(await folders, {
      title: `Build: folders to include (1/${steps})`,
      placeHolder: 'Choose none to include every folder',
      matchOnDescription: true,
    }),
  );
  const params: RareBuildParams = { ...defaults };
  if (chosen.length) params.folder_ids = chosen.map((c) => (c as vscode.QuickPickItem & { id: string }).id);
  const language = languageParam(await askLanguage(ui, `Build: language (2/${steps})`));
  if (language) params.language = language;
  let i = 3;
  for (const p of BUILD_NUMBER_PARAMS) params[p.key] = await askNumber(ui, p, `Build: ${p.label.toLowerCase()} (${i++}/${steps})`);
  return params;
}

/** Start Generate…: "Use defaults", or the four numbers, language and an optional custom prompt. */
export async function promptGenerateParams(ui: UserInput, buildCompleted: boolean | undefined): Promise<RareGenerateParams> {
  const defaults = defaultGenerateParams();
  const warning = buildCompleted === false ? 'The build has not completed: the service will refuse to generate until it has.' : undefined;
  if (await useDefaults(ui, 'Start Generate (answer generation)', { ...defaults, language: 'auto' }, warning)) return defaults;
  const steps = GENERATE_NUMBER_PARAMS.length + 2;
  const params: RareGenerateParams = { ...defaults };
  let i = 1;
  for (const p of GENERATE_NUMBER_PARAMS) params[p.key] = await askNumber(ui, p, `Generate: ${p.label.toLowerCase()} (${i++}/${steps})`);
  const language = languageParam(await askLanguage(ui, `Generate: language (${i++}/${steps})`));
  if (language) params.language = language;
  const prompt = orCancel(
    await ui.showInputBox({
      title: `Generate: custom prompt (${i}/${steps})`,
      prompt: 'Optional instructions for the generation (rare_user_prompt). Leave empty for none.',
      placeHolder: 'e.g. Write questions a new employee would ask',
    }),
  );
  if (prompt.trim()) params.rare_user_prompt = prompt.trim();
  return params;
}

export async function promptBulkType(ui: UserInput, fileName: string): Promise<BulkType> {
  const pick = await ui.showQuickPick(
    BULK_TYPES.map((t) => ({ label: t.label, detail: t.detail, id: t.id })),
    { title: `Run bulk processing on ${fileName}`, placeHolder: 'How should each question be answered?' },
  );
  return orCancel(pick).id;
}
