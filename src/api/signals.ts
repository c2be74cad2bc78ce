/**
 * Calls `onAbort` when `source` aborts (at once if it already has). Returns an unlink function, so
 * long-lived signals do not collect listeners from every request made under them.
 */
export function linkSignals(source: AbortSignal | undefined, onAbort: (reason: unknown) => void): () => void {
  if (!source) return () => undefined;
  if (source.aborted) {
    onAbort(source.reason);
    return () => undefined;
  }
  const listener = (): void => onAbort(source.reason);
  source.addEventListener('abort', listener, { once: true });
  return () => source.removeEventListener('abort', listener);
}
