import * as vscode from 'vscode';
import { Disposable } from '../../platform/lifecycle';
import { ReadOnlyDocuments, safeDocumentName } from '../../platform/readOnlyDocuments';

export const RESULT_SCHEME = 'knowledge-desk-result';

/** Result CSVs shown as read-only documents named after the result (platform/readOnlyDocuments). */
export class ResultDocuments extends Disposable {
  private readonly documents = this._register(new ReadOnlyDocuments(RESULT_SCHEME));

  /** Opens `text` as `<kind>/<fileName>`; opening the same result again shows the fresh text. */
  async open(kind: 'rare' | 'bulk', id: string, fileName: string, text: string): Promise<vscode.TextDocument> {
    const language = (await vscode.languages.getLanguages()).includes('csv') ? 'csv' : 'plaintext';
    return this.documents.open(`/${kind}/${safeDocumentName(fileName)}`, `id=${encodeURIComponent(id)}`, text, language, {
      preview: false,
    });
  }
}
