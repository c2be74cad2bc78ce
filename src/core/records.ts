// Plain-object helpers shared by the client, the local service and the Draft.js renderer.

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `counts` with `prefix` before every key, to merge several counters into one flat table. */
export function prefixed(prefix: string, counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).map(([k, v]) => [prefix + k, v]));
}
