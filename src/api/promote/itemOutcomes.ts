// What became of each picked item of a promote, Q&As and documents alike, and the totals a summary shows; the
// options and the steps both kinds of apply share (applyQas.ts, applyDocs.ts).
import type { ApiClient } from '../client';

export type ItemOutcome = { status: 'done' } | { status: 'failed'; message: string } | { status: 'cancelled' };

/** An item whose request threw: cancelled when the run was (the error is then the abort), otherwise failed. */
export function outcomeOfError(error: unknown, signal: AbortSignal | undefined): ItemOutcome {
  if (signal?.aborted) return { status: 'cancelled' };
  return { status: 'failed', message: error instanceof Error ? error.message : String(error) };
}

/** Adds the failed and cancelled outcomes to the run's totals, once every item has one. */
export function countOutcomes(result: { outcomes: ReadonlyMap<string, ItemOutcome>; failed: number; cancelled: number }): void {
  for (const o of result.outcomes.values())
    if (o.status === 'failed') result.failed++;
    else if (o.status === 'cancelled') result.cancelled++;
}

export interface ApplyOptions {
  /** Delete the picked onlyInTarget items (off unless the person opts in). */
  deleteOnlyInTarget?: boolean;
  signal?: AbortSignal;
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Carrying out the picked items of one kind from `source` to `target`. */
export type ApplyItems<Item, Outcome extends { outcomes: Map<string, ItemOutcome> }> = (
  source: ApiClient,
  target: ApiClient,
  picked: readonly Item[],
  options?: ApplyOptions,
) => Promise<Outcome>;

/** The picked items only in the target, when the person asked to delete them; otherwise none. */
export function deletesOf<T extends { kind: string; target?: unknown }>(picked: readonly T[], options: ApplyOptions): T[] {
  return options.deleteOnlyInTarget ? picked.filter((i) => i.kind === 'onlyInTarget' && i.target) : [];
}

/**
 * Runs one item's `step` and records its outcome under `key`: cancelled without running once the signal fired,
 * else done or (outcomeOfError) failed, then `ran` is called.
 */
export async function settleItem(
  outcomes: Map<string, ItemOutcome>,
  key: string,
  signal: AbortSignal | undefined,
  ran: () => void,
  step: () => Promise<void>,
): Promise<void> {
  if (signal?.aborted) return void outcomes.set(key, { status: 'cancelled' });
  try {
    await step();
    outcomes.set(key, { status: 'done' });
  } catch (error) {
    outcomes.set(key, outcomeOfError(error, signal));
  }
  ran();
}
