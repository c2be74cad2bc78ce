import * as vscode from 'vscode';
import { Disposable } from '../../platform/lifecycle';

export const RESULT_SCHEME = 'knowledge-desk-result';

/**
 * Result CSVs shown as read-only documents named after the result (not "Untitled-1" with unsaved
 * changes that asks to be saved on close). The text is kept while the document is open.
 */
export class ResultDocuments extends Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());

  constructor() {
    super();
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, {
        onDidChange: this.changed.event,
        provideTextDocumentContent: (uri) => this.texts.get(uri.toString()) ?? '',
      }),
    );
    this._register(
      vscode.workspace.onDidCloseTextDocument((doc) => doc.uri.scheme === RESULT_SCHEME && this.texts.delete(doc.uri.toString())),
    );
  }

  /** Opens `text` as `<kind>/<fileName>`; opening the same result again shows the fresh text. */
  async open(kind: 'rare' | 'bulk', id: string, fileName: string, text: string): Promise<vscode.TextDocument> {
    const safe = fileName.replace(/[\\/:*?"<>|]+/g, '-');
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${kind}/${safe}`, query: `id=${encodeURIComponent(id)}` });
    const key = uri.toString();
    const reopened = this.texts.has(key);
    this.texts.set(key, text);
    if (reopened) this.changed.fire(uri);
    let doc = await vscode.workspace.openTextDocument(uri);
    const language = (await vscode.languages.getLanguages()).includes('csv') ? 'csv' : 'plaintext';
    if (doc.languageId !== language) doc = await vscode.languages.setTextDocumentLanguage(doc, language);
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc;
  }
}
