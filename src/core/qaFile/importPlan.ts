// What importing a Q&A file does to each Q&A that already exists, field by field, and the update that
// carries it out. Rules (README "Importing Q&As: what a file changes"):
// - A column the file does not have never changes a field.
// - An empty cell in a column the file has means "none" (no similar questions, no hashtags, no folder);
//   for an existing Q&A an empty status cell keeps its status. Taking something away (a similar question,
//   a hashtag, the folder, on → off) is a removal: it is counted apart and applied only when the person
//   chooses to remove; keeping is the default.
// - A row that changes nothing is not sent: importing an unchanged export changes nothing.
// Texts through @vscode/l10n (see rowValidator.ts).
import * as l10n from '@vscode/l10n';
import type { QaUpdateFields } from '../qaFields';
import { normalizeNewlines, normalizeQuestion } from './text';
import type { ColumnMapping, QaRow, RowProblem } from './types';
import type { QaContent } from '../faqWire';

/** An existing Q&A as a single lookup returns it (answer as stored, i.e. the `html` format). */
export interface ExistingQa extends QaContent {
  folder?: string | null;
}

export type ChangedField = 'answer' | 'similarQuestions' | 'hashtags' | 'folder' | 'status';

export interface FieldChange {
  field: ChangedField;
  /** True when the change takes something away (asked apart; keeping is the default). */
  removes: boolean;
  /** Shown to the person: "similar questions 2 → 0", "hashtags #debian #network → #debian #apt". */
  text: string;
}

export interface QaUpdatePlan {
  row: QaRow;
  existing: ExistingQa;
  changes: FieldChange[];
  /** Some change removes something. */
  removes: boolean;
}

export interface ImportPlan {
  create: QaRow[];
  /** Existing Q&As the file changes, those with removals first. */
  update: QaUpdatePlan[];
  /** Existing Q&As the file leaves as they are (not sent). */
  unchanged: number;
  /** update entries with a removal. */
  removals: number;
}

/** What to do with removals: apply the file as it is, or keep what the Q&A has and only add. */
export type RemovalChoice = 'remove' | 'keep';

/** Compares each valid row with the existing Q&A of its question (`existing` keyed by normalizeQuestion). */
export function planQaImport(rows: readonly QaRow[], mapping: ColumnMapping, existing: ReadonlyMap<string, ExistingQa>): ImportPlan {
  const create: QaRow[] = [];
  const update: QaUpdatePlan[] = [];
  let unchanged = 0;
  for (const row of rows) {
    const qa = existing.get(normalizeQuestion(row.question));
    if (!qa) {
      create.push(row);
      continue;
    }
    const changes = compare(row, mapping, qa);
    if (!changes.length) unchanged++;
    else update.push({ row, existing: qa, changes, removes: changes.some((c) => c.removes) });
  }
  update.sort((a, b) => Number(b.removes) - Number(a.removes) || a.row.row - b.row.row);
  return { create, update, unchanged, removals: update.filter((u) => u.removes).length };
}

/** The list fields: a change says how each differs, and keeping adds the file's new items after the current ones. */
const LIST_FIELDS = ['similarQuestions', 'hashtags'] as const;
type ListField = (typeof LIST_FIELDS)[number];
const LIST_CHANGE_TEXT: Record<ListField, (before: readonly string[], after: readonly string[]) => string> = {
  similarQuestions: (before, after) => l10n.t('similar questions {0} → {1}', before.length, after.length),
  hashtags: (before, after) => l10n.t('hashtags {0} → {1}', tagsText(before), tagsText(after)),
};
const LIST_BODY_FIELD: Record<ListField, 'similar_questions' | 'hashtags'> = {
  similarQuestions: 'similar_questions',
  hashtags: 'hashtags',
};

function compare(row: QaRow, mapping: ColumnMapping, qa: ExistingQa): FieldChange[] {
  const out: FieldChange[] = [];
  if (normalizeNewlines(qa.answer).trim() !== row.answer) out.push({ field: 'answer', removes: false, text: l10n.t('answer changed') });
  for (const field of LIST_FIELDS) {
    if (mapping[field] === undefined) continue;
    const d = listDiff(qa[field], row[field]);
    if (d) out.push({ field, removes: d.removes, text: LIST_CHANGE_TEXT[field](qa[field], row[field]) });
  }
  if (mapping.folder !== undefined) {
    const before = qa.folder?.trim() || '';
    const after = row.folder ?? '';
    if (before !== after)
      out.push({ field: 'folder', removes: after === '', text: l10n.t('folder {0} → {1}', folderText(before), folderText(after)) });
  }
  if (mapping.status !== undefined && !row.statusBlank && row.status !== qa.status)
    out.push({ field: 'status', removes: row.status === 'off', text: row.status === 'off' ? l10n.t('on → off') : l10n.t('off → on') });
  return out;
}

/**
 * The body of "update" for a planned change, or undefined when nothing is left to send. `keep` sends only
 * what adds: new similar questions and hashtags after the current ones, a folder that is not cleared,
 * off → on; `remove` sends the file's values.
 */
export function updateFields(plan: QaUpdatePlan, choice: RemovalChoice): QaUpdateFields | undefined {
  const { row, existing: qa } = plan;
  const body: QaUpdateFields = {};
  for (const c of plan.changes) {
    if (c.removes && choice === 'keep') {
      if (c.field === 'similarQuestions' || c.field === 'hashtags') {
        const merged = union(qa[c.field], row[c.field]);
        if (merged.length > qa[c.field].length) body[LIST_BODY_FIELD[c.field]] = merged;
      }
      continue; // a cleared folder and on → off are kept as they are
    }
    if (c.field === 'answer') body.answer = row.answer;
    else if (c.field === 'similarQuestions') body.similar_questions = row.similarQuestions;
    else if (c.field === 'hashtags') body.hashtags = row.hashtags;
    else if (c.field === 'folder') body.folder = row.folder ?? '';
    else body.status = row.status;
  }
  return Object.keys(body).length ? body : undefined;
}

/** The dry run's line for an existing Q&A the file changes (a warning on its row), removals first. */
export function updateProblem(plan: QaUpdatePlan): RowProblem {
  const removals = plan.changes.filter((c) => c.removes).map((c) => c.text);
  const others = plan.changes.filter((c) => !c.removes).map((c) => c.text);
  const message = !removals.length
    ? l10n.t('Updates the existing Q&A: {0}.', others.join('; '))
    : others.length
      ? l10n.t('Removes from the existing Q&A (asked before importing): {0}. Also updates: {1}.', removals.join('; '), others.join('; '))
      : l10n.t('Removes from the existing Q&A (asked before importing): {0}.', removals.join('; '));
  return {
    row: plan.row.row,
    column: plan.changes[0].field,
    severity: 'warning',
    code: plan.removes ? 'removes' : 'updates',
    message,
    question: plan.row.question,
  };
}

/** Keys compared as the service compares questions (NFKC, case): a difference of case alone is a change, not a removal. */
function listDiff(before: readonly string[], after: readonly string[]): { removes: boolean } | undefined {
  const afterKeys = new Set(after.map(normalizeQuestion));
  const removes = before.some((b) => !afterKeys.has(normalizeQuestion(b)));
  if (removes) return { removes };
  const exact = new Set(before);
  const same = before.length === after.length && after.every((a) => exact.has(a));
  return same ? undefined : { removes: false };
}

function union(before: readonly string[], after: readonly string[]): string[] {
  const keys = new Set(before.map(normalizeQuestion));
  const out = [...before];
  for (const a of after) {
    const k = normalizeQuestion(a);
    if (!keys.has(k)) {
      keys.add(k);
      out.push(a);
    }
  }
  return out;
}

function tagsText(tags: readonly string[]): string {
  return tags.length ? tags.map((t) => `#${t}`).join(' ') : l10n.t('(none)');
}

function folderText(folder: string): string {
  return folder ? `"${folder}"` : l10n.t('(none)');
}
