// Promote between connections (issue 27): what copying Q&As from one project to another would do, item by item.
// The field-by-field diff is the Q&A import's (importPlan.ts): the source's Q&As are read as rows of a file
// with every column, so "changed" here says exactly what a dry run of an export of the source would say.
import { planQaImport, type ExistingQa, type FieldChange } from '../qaFile/importPlan';
import { normalizeNewlines } from '../qaFile/text';
import type { ColumnMapping, QaRow } from '../qaFile/types';

/** A Q&A as a single lookup gives it (answer as stored), in either project. */
export type QaSnapshot = ExistingQa;

/** Every column present: an empty list or folder in the source is a value to carry, not a missing column. */
const ALL_COLUMNS: ColumnMapping = { question: 0, answer: 1, similarQuestions: 2, hashtags: 3, status: 4, folder: 5 };

export type PromoteKind = 'new' | 'changed' | 'same' | 'onlyInTarget';

/** A Q&A as a listing gives it: enough to know which questions each project has. */
export interface QaIndexEntry {
  id: string;
  question: string;
}

export interface QaPromoteItem {
  kind: PromoteKind;
  /** normalizeQuestion of the question: how both projects are matched, as the import matches a file. */
  key: string;
  question: string;
  /** The source's id (absent for onlyInTarget). */
  sourceId?: string;
  /** The source's single lookup: read for changed and same; for new, read when it is copied. */
  source?: QaSnapshot;
  /** The target's Q&A of the same question (changed, same); for onlyInTarget only id and question. */
  target?: QaIndexEntry & Partial<QaSnapshot>;
  /** changed: what copying changes, field by field, in the import dry run's words. */
  changes?: FieldChange[];
}

export interface QaComparison {
  items: QaPromoteItem[];
  counts: Record<PromoteKind, number>;
}

/** The row a source Q&A becomes: what the import would read back from an export of it. */
export function rowOf(qa: QaSnapshot, index: number): QaRow {
  return {
    row: index + 2,
    question: qa.question,
    answer: normalizeNewlines(qa.answer).trim(),
    similarQuestions: qa.similarQuestions,
    hashtags: qa.hashtags,
    status: qa.status,
    ...(qa.folder?.trim() ? { folder: qa.folder.trim() } : {}),
  };
}

/**
 * Compares the source's Q&As (`source`, keyed by normalizeQuestion, in listing order) with the target's. A question
 * the target lacks is new without more reading; for the others both single lookups are given (`sourceDetails`,
 * `targetDetails`) and compared field by field. `targetAll`, when given, is every target question: those the source
 * lacks are listed as onlyInTarget (only when the whole source was compared).
 */
export function compareQas(
  source: ReadonlyMap<string, QaIndexEntry>,
  sourceDetails: ReadonlyMap<string, QaSnapshot>,
  targetDetails: ReadonlyMap<string, QaSnapshot>,
  targetAll?: ReadonlyMap<string, QaIndexEntry>,
): QaComparison {
  const items: QaPromoteItem[] = [];
  const matched: Array<[string, QaSnapshot]> = [];
  for (const [key, entry] of source) {
    const detail = sourceDetails.get(key);
    if (targetDetails.has(key) && detail) matched.push([key, detail]);
    else items.push({ kind: 'new', key, question: entry.question, sourceId: entry.id, ...(detail ? { source: detail } : {}) });
  }
  const rows = matched.map(([, d], i) => rowOf(d, i));
  const plan = planQaImport(rows, ALL_COLUMNS, targetDetails);
  const changed = new Map(plan.update.map((u) => [u.row.row, u.changes]));
  for (const [i, [key, detail]] of matched.entries()) {
    const changes = changed.get(rows[i].row);
    const base = { key, question: detail.question, sourceId: detail.id, source: detail, target: targetDetails.get(key) };
    items.push(changes ? { kind: 'changed', ...base, changes } : { kind: 'same', ...base });
  }
  if (targetAll)
    for (const [key, t] of targetAll) if (!source.has(key)) items.push({ kind: 'onlyInTarget', key, question: t.question, target: t });
  return { items, counts: countKinds(items) };
}

export function countKinds(items: readonly { kind: PromoteKind }[]): Record<PromoteKind, number> {
  const counts: Record<PromoteKind, number> = { new: 0, changed: 0, same: 0, onlyInTarget: 0 };
  for (const i of items) counts[i.kind]++;
  return counts;
}
