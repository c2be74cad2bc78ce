// Teach Phrase…: the selection becomes a tagged entity of a phrase sent to add_phrase. A selection inside
// one line is sent with its line as context (the phrase is the line, the entity the selection); a
// selection over several lines is sent alone, as one entity. Train teaches it, test stores it only.
import * as vscode from 'vscode';
import { NLU_MAX_CHARS } from '../../api/values';
import { BUILTIN_TAGS } from '../../core/entityTags';
import type { Container } from '../../container';
import { formatNumber } from '../../platform/l10n';
import { Disposable } from '../../platform/lifecycle';

const TAUGHT_TAGS_KEY = 'knowledgeDesk.entities.taughtTags';
const TAG_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export interface Phrase {
  text: string;
  startIndex: number;
  endIndex: number;
}

export interface TaughtPhrase extends Phrase {
  tag: string;
  dataType: 'train' | 'test';
  response: unknown;
}

/** The phrase and entity span for a selection (whitespace around the selection is left out). */
export function phraseFor(document: vscode.TextDocument, selection: vscode.Selection): Phrase {
  let text: string;
  let start: number;
  let end: number;
  if (selection.isSingleLine) {
    const line = document.lineAt(selection.start.line).text;
    // A line longer than one request: a window of it that still holds the whole selection.
    const from = Math.max(0, Math.min(selection.start.character, selection.end.character - NLU_MAX_CHARS));
    text = line.slice(from, from + NLU_MAX_CHARS);
    start = selection.start.character - from;
    end = Math.min(selection.end.character - from, text.length);
  } else {
    text = document.getText(selection);
    start = 0;
    end = text.length;
  }
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  if (start === end) throw new Error(vscode.l10n.t('Select the words to teach first (the selection holds only whitespace).'));
  if (end - start > NLU_MAX_CHARS || end > NLU_MAX_CHARS)
    throw new Error(
      vscode.l10n.t('The selection is longer than the {0} characters entity recognition reads.', formatNumber(NLU_MAX_CHARS)),
    );
  return { text, startIndex: start, endIndex: end };
}

export class TeachPhraseFlow extends Disposable {
  private readonly taughtEmitter = this._register(new vscode.EventEmitter<TaughtPhrase>());
  /** A phrase was sent, with the service's answer. */
  readonly onDidTeach = this.taughtEmitter.event;

  constructor(
    private readonly c: Container,
    private readonly seenTags: () => string[],
  ) {
    super();
  }

  /** Tags offered: the eight built-in ones, then the ones taught or seen here, in first-seen order. */
  tags(): string[] {
    return [...new Set<string>([...BUILTIN_TAGS, ...this.c.context.globalState.get<string[]>(TAUGHT_TAGS_KEY, []), ...this.seenTags()])];
  }

  async teach(): Promise<TaughtPhrase | undefined> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) throw new Error(vscode.l10n.t('Select the words to teach in an editor first.'));
    const phrase = phraseFor(editor.document, editor.selection);
    const token = phrase.text.slice(phrase.startIndex, phrase.endIndex);
    const shown = token.length > 40 ? `${token.slice(0, 40)}…` : token;
    const tag = await this.pickTag(shown);
    const kind = await this.c.ui.showQuickPick(
      [
        { label: vscode.l10n.t('Train'), description: vscode.l10n.t('learn it: recognised from now on'), dataType: 'train' as const },
        {
          label: vscode.l10n.t('Test'),
          description: vscode.l10n.t('store it to evaluate recognition; not learned'),
          dataType: 'test' as const,
        },
      ],
      { title: vscode.l10n.t('Teach “{0}” as {1}', shown, tag), placeHolder: vscode.l10n.t('Train or test phrase?') },
    );
    if (!kind) throw new vscode.CancellationError();
    const client = await this.c.connection.getClient();
    const response = await client.nlu.addPhrase(phrase.text, [{ ...phrase, tag, token }], kind.dataType);
    const taught: TaughtPhrase = { ...phrase, tag, dataType: kind.dataType, response };
    this.taughtEmitter.fire(taught);
    if (!(BUILTIN_TAGS as readonly string[]).includes(tag)) await this.remember(tag);
    this.c.log('entities').info(`${kind.dataType} phrase: ${tag} (${token.length} characters) in a ${phrase.text.length}-character phrase`);
    void vscode.window.showInformationMessage(
      kind.dataType === 'train'
        ? vscode.l10n.t('Taught “{0}” as {1}: it is recognised from now on.', shown, tag)
        : vscode.l10n.t('Stored “{0}” as a {1} test phrase (for evaluation; not learned).', shown, tag),
    );
    return taught;
  }

  private async pickTag(shown: string): Promise<string> {
    const newTag = `$(add) ${vscode.l10n.t('New tag…')}`;
    const items: vscode.QuickPickItem[] = [
      ...this.tags().map((tag) => ({
        label: tag,
        description: (BUILTIN_TAGS as readonly string[]).includes(tag) ? vscode.l10n.t('built-in') : vscode.l10n.t('taught'),
      })),
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: newTag, description: vscode.l10n.t('a tag of your own, e.g. {0}', 'PRODUCT') },
    ];
    const picked = await this.c.ui.showQuickPick(items, {
      title: vscode.l10n.t('Teach “{0}”', shown),
      placeHolder: vscode.l10n.t('Tag of the selected words'),
    });
    if (!picked) throw new vscode.CancellationError();
    if (picked.label !== newTag) return picked.label;
    const typed = await this.c.ui.showInputBox({
      title: vscode.l10n.t('Teach “{0}”: new tag', shown),
      prompt: vscode.l10n.t('Letters, digits, _ or -, starting with a letter (stored in upper case)'),
      placeHolder: 'PRODUCT',
      validateInput: (v) =>
        TAG_PATTERN.test(v.trim()) ? undefined : vscode.l10n.t('Use letters, digits, _ or - (up to 64), starting with a letter.'),
    });
    if (typed === undefined) throw new vscode.CancellationError();
    return typed.trim().toUpperCase();
  }

  private async remember(tag: string): Promise<void> {
    const known = this.c.context.globalState.get<string[]>(TAUGHT_TAGS_KEY, []);
    if (!known.includes(tag)) await this.c.context.globalState.update(TAUGHT_TAGS_KEY, [...known, tag].slice(-50));
  }
}
