import * as vscode from 'vscode';
import { Disposable } from './lifecycle';

/**
 * Text shown as read-only documents of one URI scheme: named after what they show, never "Untitled-1" with unsaved
 * changes that asks "Do you want to save…?" when it is closed. The text is kept while the document is open; opening
 * the same URI again shows the fresh text. Show Details reports and job result files both use it.
 */
export class ReadOnlyDocuments extends Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());

  constructor(private readonly scheme: string) {
    super();
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(scheme, {
        onDidChange: this.changed.event,
        provideTextDocumentContent: (uri) => this.texts.get(uri.toString()) ?? '',
      }),
    );
    this._register(vscode.workspace.onDidCloseTextDocument((doc) => doc.uri.scheme === scheme && this.texts.delete(doc.uri.toString())));
  }

  /** Opens `text` at `path` (`query` tells apart documents of one name) in `language`. */
  async open(path: string, query: string, text: string, language: string, options: { preview: boolean }): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.from({ scheme: this.scheme, path, query });
    const key = uri.toString();
    const reopened = this.texts.has(key);
    this.texts.set(key, text);
    if (reopened) this.changed.fire(uri);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== language) doc = await vscode.languages.setTextDocumentLanguage(doc, language);
    await vscode.window.showTextDocument(doc, { preview: options.preview });
    return doc;
  }
}

/** A name that is safe as the last part of a document's path (the tab shows it). */
export function safeDocumentName(name: string): string {
  return name.replace(/[\\/:*?"<>|]+/g, '-');
}
