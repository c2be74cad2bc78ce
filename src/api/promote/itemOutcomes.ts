// What became of each picked item of a promote, Q&As and documents alike, and the totals a summary shows.

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
