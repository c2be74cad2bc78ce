import * as vscode from 'vscode';
import { Disposable } from './lifecycle';

/**
 * Text shown as read-only documents of one URI scheme: named after what they show, never "Untitled-1" with unsaved
 * changes that asks "Do you want to save…?" when it is closed. The text is kept while the document is open; opening
 * the same URI again shows the fresh text. Show Details reports, job result files and promote's diff use it.
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

  /** The document at `path`; `query` tells apart documents of one name. */
  uriOf(path: string, query: string): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, path, query });
  }

  /** Sets the text at `uri` without opening it (the diff editor opens both sides); an open document shows it at once. */
  set(uri: vscode.Uri, text: string): void {
    const key = uri.toString();
    const known = this.texts.has(key);
    this.texts.set(key, text);
    if (known) this.changed.fire(uri);
  }

  /** Opens `text` at `path` (`query` tells apart documents of one name) in `language`. */
  async open(path: string, query: string, text: string, language: string, options: { preview: boolean }): Promise<vscode.TextDocument> {
    const uri = this.uriOf(path, query);
    this.set(uri, text);
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
