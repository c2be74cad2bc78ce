import type * as vscode from 'vscode';
import { Disposable } from './lifecycle';
import { ReadOnlyDocuments, safeDocumentName } from './readOnlyDocuments';

export const DETAILS_SCHEME = 'knowledge-desk-details';

/**
 * "Show Details" reports (an import's rows, an upload's files) as read-only Markdown documents named after
 * the report. An untitled document would be an editable draft that asks "Do you want to save…?" when it is
 * closed; a report is not something to save.
 */
export class DetailsDocuments extends Disposable {
  private readonly documents = this._register(new ReadOnlyDocuments(DETAILS_SCHEME));
  private opened = 0;

  /** Shows `markdown` in a read-only tab titled `title`; each report gets a document of its own. */
  show(title: string, markdown: string): Promise<vscode.TextDocument> {
    return this.documents.open(`/${safeDocumentName(title)}.md`, String(++this.opened), markdown, 'markdown', { preview: true });
  }
}
