// Carrying out the picked items of a Q&A promote with the import's own requests (qaImport.ts): a new question is
// registered (registering an existing question updates it, so a retry or a resume never makes a second copy), a
// changed one is updated by id in the fields that differ. The source's values win: picking a changed item is
// asking for the target to become like the source, removals included. Q&As only in the target are deleted only
// when the person asks for it. New Q&As are read from the source a hundred at a time, just before they are sent.
import type { QaPromoteItem } from '../../core/promote/qaCompare';
import { rowOf } from '../../core/promote/qaCompare';
import type { ImportPlan } from '../../core/qaFile/importPlan';
import { pool } from '../../core/pool';
import type { ApiClient } from '../client';
import { existingLookup, importItems, runQaImport, type QaImportItem } from '../qaImport';
import { countOutcomes, deletesOf, settleItem, type ApplyItems, type ApplyOptions, type ItemOutcome } from './itemOutcomes';

export interface QaApplyOutcome {
  /** Per picked item, by its key (normalizeQuestion). */
  outcomes: Map<string, ItemOutcome>;
  created: number;
  updated: number;
  deleted: number;
  failed: number;
  cancelled: number;
}

const CHUNK = 100;

export const applyQaItems: ApplyItems<QaPromoteItem, QaApplyOutcome> = async (source, target, picked, options = {}) => {
  const { signal } = options;
  const copies = picked.filter((i) => (i.kind === 'new' && i.sourceId) || (i.kind === 'changed' && i.source && i.target && i.changes));
  const deletes = deletesOf(picked, options);
  const result: QaApplyOutcome = { outcomes: new Map(), created: 0, updated: 0, deleted: 0, failed: 0, cancelled: 0 };
  const total = copies.length + deletes.length;
  let done = 0;
  const tick = () => options.onProgress?.(++done, total);
  for (let at = 0; at < copies.length; at += CHUNK) {
    const chunk = copies.slice(at, at + CHUNK);
    if (signal?.aborted) {
      for (const item of chunk) result.outcomes.set(item.key, { status: 'cancelled' });
      continue;
    }
    await applyChunk(source, target, chunk, result, { ...options, onProgress: tick });
  }
  await pool(deletes, options.concurrency ?? 4, undefined, (item) =>
    settleItem(result.outcomes, item.key, signal, tick, async () => {
      await target.faq.delete(item.target!.id, { signal });
      result.deleted++;
    }),
  );
  countOutcomes(result);
  return result;
};

async function applyChunk(
  source: ApiClient,
  target: ApiClient,
  chunk: readonly QaPromoteItem[],
  result: QaApplyOutcome,
  options: ApplyOptions & { onProgress: () => void },
): Promise<void> {
  const { signal } = options;
  const unread = chunk.filter((i) => !i.source);
  let read: ReadonlyMap<string, QaPromoteItem['source'] & object> = new Map();
  try {
    read = await existingLookup(
      source,
      new Map(unread.map((i) => [i.key, i.sourceId!])),
      options.concurrency ?? 4,
    )(
      unread.map((i) => i.key),
      signal,
    );
  } catch (error) {
    if (!signal?.aborted) throw error;
  }
  const plan: ImportPlan = { create: [], update: [], unchanged: 0, removals: 0 };
  const keyOfRow = new Map<number, string>();
  for (const [n, item] of chunk.entries()) {
    const detail = item.source ?? read.get(item.key);
    if (!detail) {
      result.outcomes.set(item.key, signal?.aborted ? { status: 'cancelled' } : { status: 'failed', message: 'gone from the source' });
      continue;
    }
    const row = rowOf(detail, n);
    keyOfRow.set(row.row, item.key);
    if (item.kind === 'new') plan.create.push(row);
    else {
      const t = item.target!;
      const existing = {
        ...t,
        answer: t.answer ?? '',
        similarQuestions: t.similarQuestions ?? [],
        hashtags: t.hashtags ?? [],
        status: t.status ?? 'on',
      };
      plan.update.push({ row, existing, changes: item.changes!, removes: item.changes!.some((c) => c.removes) });
    }
  }
  const items = importItems(plan, 'remove');
  const keyOf = (item: QaImportItem) => keyOfRow.get(item.row.row)!;
  // An item whose every change is already there needs no request: it is done.
  const sent = new Set(items.map(keyOf));
  for (const key of keyOfRow.values()) if (!sent.has(key)) result.outcomes.set(key, { status: 'done' });
  const outcome = await runQaImport(target, items, {
    concurrency: options.concurrency ?? 4,
    signal,
    onProgress: () => options.onProgress(),
    onItem: (item, status, message) =>
      result.outcomes.set(keyOf(item), status === 'failed' ? { status, message: message ?? '' } : { status }),
  });
  result.created += outcome.created;
  result.updated += outcome.updated;
}
