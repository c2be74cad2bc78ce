// One hashtag picker for every place that asks for hashtags (Edit Hashtags…, the tree's hashtag filter,
// uploads): the hashtags in use with their counts (`GET /webapi/hashtags`), the current ones ticked, and
// "Other hashtags…" to type ones nobody uses yet. A deployment without the hashtag list (or a failure to
// read it) falls back to typing them, so the picker never blocks the command.
// @vscode/l10n, not vscode: pickers run in plain Node in unit tests (src/platform/l10n.ts hands it the bundle).
import * as l10n from '@vscode/l10n';
import type { InputBoxValidationMessage } from 'vscode';
import { hashtagConcern, parseHashtags } from '../../core/hashtags';
import type { HashtagCount } from '../../api/schemas/kbOps';
import type { UserInput } from '../userInput';

export interface HashtagListSource {
  hashtags: { inUse(): Promise<HashtagCount[]> };
}

export interface HashtagPickOptions {
  title: string;
  /** Ticked at the start (without `#`). */
  current?: readonly string[];
  /** Said under the input box when the hashtags are typed. */
  prompt?: string;
  log?: { debug(message: string): void };
}

export const OTHER_HASHTAGS_LABEL = (): string => l10n.t('Other hashtags…');

type Item = { label: string; description?: string; picked?: boolean; tag?: string; other?: boolean; alwaysShow?: boolean };

/** The chosen hashtags (without `#`, in the order shown), [] for none, undefined when the user cancelled. */
export async function pickHashtags(ui: UserInput, client: HashtagListSource, options: HashtagPickOptions): Promise<string[] | undefined> {
  const current = [...(options.current ?? [])];
  let inUse: HashtagCount[] = [];
  try {
    inUse = await client.hashtags.inUse();
  } catch (error) {
    // Not offered (404/405, remembered) or failing: typing still works.
    options.log?.debug(`hashtag list unavailable: ${String(error)}`);
  }
  const known = new Set(inUse.map((h) => h.tag));
  const items: Item[] = [
    ...inUse.map((h) => ({
      label: `#${h.tag}`,
      description: h.count === 1 ? l10n.t('used once') : l10n.t('used {0} times', h.count),
      picked: current.includes(h.tag),
      tag: h.tag,
    })),
    ...current
      .filter((t) => !known.has(t))
      .map((t) => ({ label: `#${t}`, description: l10n.t('not in use elsewhere'), picked: true, tag: t })),
    { label: `$(edit) ${OTHER_HASHTAGS_LABEL()}`, description: l10n.t('type hashtags that are not listed'), other: true, alwaysShow: true },
  ];
  const picked = await ui.showQuickPickMany(items, {
    title: options.title,
    placeHolder:
      inUse.length || current.length
        ? l10n.t('Tick the hashtags (most used first); none ticked = no hashtags')
        : l10n.t('No hashtags are in use yet: choose "{0}" to type some', OTHER_HASHTAGS_LABEL()),
    matchOnDescription: false,
  });
  if (!picked) return undefined;
  const tags = picked.filter((i) => i.tag).map((i) => i.tag!);
  if (!picked.some((i) => i.other)) return tags;
  return typeHashtags(ui, options, tags);
}

async function typeHashtags(ui: UserInput, options: HashtagPickOptions, already: string[]): Promise<string[] | undefined> {
  const value = await ui.showInputBox({
    title: options.title,
    prompt:
      options.prompt ??
      l10n.t('Hashtags separated by commas, semicolons or line breaks (# optional), e.g. "#hr #policy" or "hr; policy". Empty for none.'),
    validateInput: spacedHashtagWarning,
  });
  if (value === undefined) return undefined;
  return [...new Set([...already, ...parseHashtags(value)])];
}

/**
 * A view's hashtag filter: the picker, then "Any of them" / "All of them" when more than one is ticked.
 * `matchTitle` names what the filter keeps ("Documents with {0}"). Undefined when the user cancelled.
 */
export async function pickHashtagFilter(
  ui: UserInput,
  client: HashtagListSource,
  options: HashtagPickOptions & { matchTitle(tags: string): string },
): Promise<{ tags: string[]; operator: 'and' | 'or' } | undefined> {
  const tags = await pickHashtags(ui, client, {
    prompt: l10n.t('Hashtags separated by commas, semicolons or line breaks (# optional), e.g. "{0}". Empty clears.', '#hr #policy'),
    ...options,
  });
  if (tags === undefined) return undefined;
  if (tags.length < 2) return { tags, operator: 'or' };
  const pick = await ui.showQuickPick(
    [
      { label: l10n.t('Any of them'), op: 'or' as const },
      { label: l10n.t('All of them'), op: 'and' as const },
    ],
    { title: options.matchTitle(tags.map((t) => `#${t}`).join(' ')) },
  );
  return pick && { tags, operator: pick.op };
}

/** InputBoxValidationSeverity.Warning: says it without refusing the text (this module runs without vscode in unit tests). */
const WARNING = 2;

/** A typed hashtag with a space ("#docs onboarding" is one hashtag): said while typing, as the file import's dry run says it. */
export function spacedHashtagWarning(value: string): InputBoxValidationMessage | undefined {
  const spaced = parseHashtags(value).find((t) => hashtagConcern(t)?.kind === 'space');
  if (spaced === undefined) return undefined;
  return {
    message: l10n.t('"{0}" is one hashtag with a space; separate hashtags with commas, semicolons or #.', spaced),
    severity: WARNING as InputBoxValidationMessage['severity'],
  };
}
