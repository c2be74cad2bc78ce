// THE ONE PLACE for what the journeys assume about UI that fixes on other branches introduce (written before those
// fixes were merged). Labels are the English l10n keys, shown through vscode.l10n.t as the display language shows
// them (l10n/bundle.l10n.ja.json); adjust them here after merging when a fix chose other words.
import * as vscode from 'vscode';

export const PendingUi = {
  /**
   * Upload summary after a cancel: the files never sent are offered as "Upload the Rest" (not "Retry Failed"), a
   * button of the summary's notification (the journey presses it in the workbench).
   */
  uploadTheRest: (): string => vscode.l10n.t('Upload the Rest'),

  /**
   * Q&A import: when the file leaves empty a field the service has a value for, the import asks whether to remove
   * those values ("Remove them") or keep them ("Keep what is there").
   */
  importRemoveThem: (): string => vscode.l10n.t('Remove them'),
  importKeepWhatIsThere: (): string => vscode.l10n.t('Keep what is there'),
  /** The dry run's button that imports (today's key "Import {0} Rows", with the rows that can be imported). */
  importRows: (n: number): string => vscode.l10n.t('Import {0} Rows', n),
  /** Rows the dry run says can be imported ("{2} can be imported"), for the Import button's label. */
  importableRows(message: string): number | undefined {
    const m = /(\d+) can be imported/.exec(message) ?? /(\d+) 行をインポートできます/.exec(message);
    return m ? Number(m[1]) : undefined;
  },
  /**
   * The dry run lists what an import would change, field by field: the question of every changed row appears in what
   * it shows (its summary or a question it asks).
   */
  dryRunListsChange: (messages: string[], question: string): boolean => messages.some((m) => m.includes(question)),
  /** Is this prompt the dry run's summary (today's key "Dry run of {0} rows …")? */
  isDryRunSummary: (message: string): boolean => /Dry run of|ドライラン/.test(message),
  /**
   * New and updated rows the dry run counts ("{3} new, {4} update existing Q&As"): with the field-by-field diff a row
   * identical to its Q&A is no update. Undefined when the message does not say.
   */
  dryRunCounts(message: string): { created: number; updated: number } | undefined {
    const m = /(\d+) new, (\d+) update/.exec(message) ?? /新規 (\d+) 行、既存の Q&A の更新 (\d+) 行/.exec(message);
    return m ? { created: Number(m[1]), updated: Number(m[2]) } : undefined;
  },
} as const;
