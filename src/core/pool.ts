/**
 * Runs `work` over `items`, at most `concurrency` at a time, in order of start. An abort stops starting new
 * items (the signal's reason is thrown); items already started finish. Used for bounded fan-out of requests.
 */
export async function pool<T>(
  items: readonly T[],
  concurrency: number,
  signal: AbortSignal | undefined,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) {
      signal?.throwIfAborted();
      await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}
