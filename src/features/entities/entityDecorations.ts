// The recognised entities of each document and their decorations: one decoration type per tag, applied
// to every visible editor of the document (again when it becomes visible: VS Code forgets decorations
// of an editor it re-creates). Any edit of the document clears them — offsets describe the text that
// was sent — and so does closing its last tab or the document.
import * as vscode from 'vscode';
import { Disposable } from '../../platform/lifecycle';
import { createTagDecoration, tagMeaning, tagSwatch } from './tagStyles';

export interface DecoratedEntity {
  tag: string;
  token: string;
  range: vscode.Range;
}

interface DocumentEntities {
  document: vscode.TextDocument;
  entities: DecoratedEntity[];
}

export class EntityDecorations extends Disposable {
  private readonly docs = new Map<string, DocumentEntities>();
  private readonly types = new Map<string, vscode.TextEditorDecorationType>();
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  /** Fires with the document whose entities were set or cleared. */
  readonly onDidChange = this.changed.event;

  constructor() {
    super();
    this._register(vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length > 0 && this.clear(e.document.uri)));
    this._register(vscode.workspace.onDidCloseTextDocument((d) => this.clear(d.uri)));
    this._register(
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) {
          const uri = tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
          if (uri && !isOpenInTab(uri)) this.clear(uri);
        }
      }),
    );
    this._register(
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.docs.has(key(e.document.uri)) && this.apply(e))),
    );
    this._register({ dispose: () => this.types.forEach((t) => t.dispose()) });
  }

  /** Entities of `document` (replacing earlier ones unless `append`), decorated in its visible editors. */
  set(document: vscode.TextDocument, entities: DecoratedEntity[], append = false): void {
    const current = append ? (this.docs.get(key(document.uri))?.entities ?? []) : [];
    const all = [...current, ...entities].sort((a, b) => a.range.start.compareTo(b.range.start));
    this.docs.set(key(document.uri), { document, entities: all });
    for (const e of all) this.typeFor(e.tag);
    this.applyTo(document.uri);
    this.changed.fire(document.uri);
  }

  entities(uri: vscode.Uri): readonly DecoratedEntity[] {
    return this.docs.get(key(uri))?.entities ?? [];
  }

  /** Tags seen in any decorated document (built-in or taught). */
  tags(): string[] {
    return [...this.types.keys()];
  }

  clear(uri: vscode.Uri): void {
    if (!this.docs.delete(key(uri))) return;
    this.applyTo(uri);
    this.changed.fire(uri);
  }

  clearAll(): void {
    for (const { document } of [...this.docs.values()]) this.clear(document.uri);
  }

  private applyTo(uri: vscode.Uri): void {
    for (const editor of vscode.window.visibleTextEditors) if (key(editor.document.uri) === key(uri)) this.apply(editor);
  }

  private apply(editor: vscode.TextEditor): void {
    const entities = this.docs.get(key(editor.document.uri))?.entities ?? [];
    for (const [tag, type] of this.types) {
      editor.setDecorations(
        type,
        entities.filter((e) => e.tag === tag).map((e) => ({ range: e.range, hoverMessage: hover(e) })),
      );
    }
  }

  private typeFor(tag: string): vscode.TextEditorDecorationType {
    let type = this.types.get(tag);
    if (!type) this.types.set(tag, (type = createTagDecoration(tag)));
    return type;
  }
}

function hover(e: DecoratedEntity): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.supportHtml = true;
  md.appendMarkdown(`${tagSwatch(e.tag)} **${escapeMarkdown(e.tag)}** · `);
  md.appendText(e.token.length > 80 ? `${e.token.slice(0, 80)}…` : e.token);
  md.appendMarkdown('\n\n');
  md.appendText(vscode.l10n.t('This colour marks {0}.', tagMeaning(e.tag)));
  md.appendMarkdown(`\n\n_${vscode.l10n.t('Entity recognition — Knowledge Desk')}_`);
  return md;
}

const key = (uri: vscode.Uri): string => uri.toString();
// Tags can be taught by anyone: never let one carry Markdown or HTML into the hover.
const escapeMarkdown = (text: string): string => text.replace(/[\\`*_{}[\]()#+\-.!|<>&~]/g, '\\$&');

function isOpenInTab(uri: vscode.Uri): boolean {
  return vscode.window.tabGroups.all.some((g) =>
    g.tabs.some((t) => t.input instanceof vscode.TabInputText && key(t.input.uri) === key(uri)),
  );
}
