/**
 * Polls `probe` until it returns a truthy value; fails naming `what` and the last value seen. For conditions
 * another process or the event loop brings about (a server noticing a closed connection), never fixed sleeps.
 * The default limit is a hang guard below mocha's 60 s, not a speed limit: a busy 2-core CI machine took more
 * than 10 s (the old default) to process a sample PDF.
 */
export async function waitFor<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 45_000, intervalMs = 10): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
