// One promote between the active connection and another, as the preview and the apply see it: items of one
// kind (Q&As or documents) with a key, a label, a detail and an outcome after applying. Q&As and documents each
// give their own (qnaSession / docsSession in promoteSessions.ts).
import type { ItemOutcome } from '../../api/promote/itemOutcomes';
import type { PromoteKind } from '../../core/promote/qaCompare';

export interface PromoteRow {
  kind: PromoteKind;
  key: string;
  label: string;
  /** For changed items: the fields that differ, in the import dry run's words. */
  detail?: string;
}

export interface PromoteSession {
  /** "Q&As" or "documents", for titles. */
  readonly what: string;
  /** The same at the start of a sentence or a title: "Q&As", "Documents". */
  readonly heading: string;
  readonly sourceName: string;
  readonly targetName: string;
  compare(signal: AbortSignal, report: (message: string) => void): Promise<PromoteRow[]>;
  apply(
    keys: ReadonlySet<string>,
    options: { deleteOnlyInTarget: boolean; signal: AbortSignal; onProgress: (done: number, total: number) => void },
  ): Promise<Map<string, ItemOutcome>>;
  /** Both projects' Q&As as CSV for the diff editor (Q&As only). */
  csv?(signal: AbortSignal): Promise<{ source: string; target: string }>;
}
