// Importing a Q&A file through the API: the existing Q&As it names (for the dry run's field-by-field plan),
// then the plan carried out: new questions registered, existing Q&As changed with "update", which changes
// only the fields it is given (docs/api.md#update-a-qa). "Register" is not used for existing questions: it
// sends every field, so a missing value would be sent as an empty list and erase what the Q&A has.
import type { QaUpdateFields } from '../core/qaFields';
import type { ExistingLookup } from '../core/qaFile/dryRun';
import { updateFields, type ExistingQa, type ImportPlan, type RemovalChoice } from '../core/qaFile/importPlan';
import { normalizeQuestion } from '../core/qaFile/text';
import type { QaRow } from '../core/qaFile/types';
import type { QaCsvRow } from '../core/qaFile/exportCsv';
import type { ApiClient } from './client';
import { pool } from '../core/pool';
import type { FaqDetail, FaqListItem } from './schemas/faq';
import { faqStatus } from './values';

/** One request of an import: a new Q&A, or the changed fields of an existing one. */
export type QaImportItem = { op: 'create'; row: QaRow } | { op: 'update'; row: QaRow; id: string; fields: QaUpdateFields };

export interface QaImportOutcome {
  total: number;
  imported: number;
  created: number;
  updated: number;
  failed: Array<{ item: QaImportItem; message: string }>;
  cancelled: number;
}

/** Every existing question, keyed as the dry run compares them (normalizeQuestion), with its id (pages of 1000). */
export async function existingQuestionIds(client: ApiClient, signal?: AbortSignal): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (let offset = 0; ; offset += 1000) {
    const page = await client.faq.list({ offset, limit: 1000, format: 'text' }, { signal });
    for (const r of page.results) ids.set(normalizeQuestion(r.question), r.id);
    if (page.results.length < 1000) return ids;
  }
}

/** The dry run's lookup: single lookups (answers as stored) of the Q&As the file names, `concurrency` at a time. */
export function existingLookup(client: ApiClient, ids: ReadonlyMap<string, string>, concurrency = 8, onRead?: () => void): ExistingLookup {
  return async (keys, signal) => {
    const out = new Map<string, ExistingQa>();
    await pool(keys, concurrency, signal, async (key) => {
      const id = ids.get(key);
      if (!id) return;
      out.set(key, { id, ...qaFields(await client.faq.get(id, { format: 'html' }, { signal })) });
      onRead?.();
    });
    return out;
  };
}

/** A single lookup's fields as the import compares and the export writes them (answers as stored). */
function qaFields(d: FaqDetail): Omit<ExistingQa, 'id'> {
  return {
    question: d.question,
    answer: d.answer,
    similarQuestions: d.similar_questions,
    hashtags: d.hashtags,
    status: faqStatus(d),
    folder: d.folder ?? null,
  };
}

/** What Export Q&As writes (qaCsv): every Q&A with the fields of its single lookup, answers as stored. */
export async function exportQaRows(
  client: ApiClient,
  options: { signal?: AbortSignal; onListed?: (n: number) => void; onRead?: (done: number, total: number) => void } = {},
): Promise<QaCsvRow[]> {
  const { signal } = options;
  const items: FaqListItem[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await client.faq.list({ offset, limit: 1000, format: 'html' }, { signal });
    items.push(...page.results);
    options.onListed?.(items.length);
    if (page.results.length < 1000) break;
  }
  // Similar questions, status and folder come only from single lookups.
  const out = new Array<QaCsvRow>(items.length);
  let done = 0;
  await pool(
    items.map((item, i) => [item, i] as const),
    8,
    signal,
    async ([item, i]) => {
      const { folder, ...fields } = qaFields(await client.faq.get(item.id, { format: 'html' }, { signal }));
      out[i] = { ...fields, folder: folder ?? undefined };
      options.onRead?.(++done, items.length);
    },
  );
  return out;
}

/** The requests that carry out a plan; an update whose only changes are kept removals sends nothing. */
export function importItems(plan: ImportPlan, choice: RemovalChoice): QaImportItem[] {
  const items: QaImportItem[] = plan.create.map((row) => ({ op: 'create', row }));
  for (const u of plan.update) {
    const fields = updateFields(u, choice);
    if (fields) items.push({ op: 'update', row: u.row, id: u.existing.id, fields });
  }
  return items;
}

/** Sends the items `concurrency` at a time; an abort stops sending (the rest count as cancelled). */
export async function runQaImport(
  client: ApiClient,
  items: readonly QaImportItem[],
  options: {
    concurrency: number;
    signal?: AbortSignal;
    onProgress?: (done: number, outcome: QaImportOutcome) => void;
    /** Each item's end, for callers that report per item (a promote). */
    onItem?: (item: QaImportItem, result: 'done' | 'failed' | 'cancelled', message?: string) => void;
  },
): Promise<QaImportOutcome> {
  const outcome: QaImportOutcome = { total: items.length, imported: 0, created: 0, updated: 0, failed: [], cancelled: 0 };
  const { signal } = options;
  let done = 0;
  await pool(items, options.concurrency, undefined, async (item) => {
    if (signal?.aborted) {
      outcome.cancelled++;
      options.onItem?.(item, 'cancelled');
      return;
    }
    try {
      if (item.op === 'update') {
        await client.faq.update({ id: item.id, ...item.fields }, { signal });
        outcome.updated++;
      } else {
        const r = item.row;
        const res = await client.faq.register(
          {
            question: r.question,
            answer: r.answer,
            status: r.status,
            similarQuestions: r.similarQuestions,
            hashtags: r.hashtags,
            folder: r.folder,
            memo: r.memo,
          },
          { signal },
        );
        // Another writer may have created the question since the dry run: the service then updated it.
        if (res.status === 'updated') outcome.updated++;
        else outcome.created++;
      }
      outcome.imported++;
      options.onItem?.(item, 'done');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (signal?.aborted) outcome.cancelled++;
      else outcome.failed.push({ item, message });
      options.onItem?.(item, signal?.aborted ? 'cancelled' : 'failed', message);
    }
    options.onProgress?.(++done, outcome);
  });
  return outcome;
}
