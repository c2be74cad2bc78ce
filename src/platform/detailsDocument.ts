import * as vscode from 'vscode';
import { Disposable } from './lifecycle';

export const DETAILS_SCHEME = 'knowledge-desk-details';

/**
 * "Show Details" reports (an import's rows, an upload's files) as read-only Markdown documents named after
 * the report. An untitled document would be an editable draft that asks "Do you want to save…?" when it is
 * closed; a report is not something to save. The text is kept while the document is open.
 */
export class DetailsDocuments extends Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  private opened = 0;

  constructor() {
    super();
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, {
        onDidChange: this.changed.event,
        provideTextDocumentContent: (uri) => this.texts.get(uri.toString()) ?? '',
      }),
    );
    this._register(
      vscode.workspace.onDidCloseTextDocument((doc) => doc.uri.scheme === DETAILS_SCHEME && this.texts.delete(doc.uri.toString())),
    );
  }

  /** Shows `markdown` in a read-only tab titled `title`; each report gets a document of its own. */
  async show(title: string, markdown: string): Promise<vscode.TextDocument> {
    const safe = title.replace(/[\\/:*?"<>|]+/g, '-');
    const uri = vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${safe}.md`, query: String(++this.opened) });
    this.texts.set(uri.toString(), markdown);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'markdown') doc = await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  }
}
