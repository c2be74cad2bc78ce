// The UI's check of a knowledge-base node name before it is sent (New Folder…, Rename…), the same rules the
// local service applies (docs/api.md#folders): not empty, no path separator, not "." or "..", no control
// characters, at most 255 bytes in UTF-8. The service has the last word; this only saves a round trip.
// It says what is wrong as a code: the knowledge-base feature turns it into the display language's text.

export const MAX_NODE_NAME_BYTES = 255;

export type NodeNameIssue =
  { code: 'empty' } | { code: 'separator' } | { code: 'dots' } | { code: 'control' } | { code: 'tooLong'; bytes: number; limit: number };

/** What is wrong with `name` as a node name, or undefined when it can name a node. */
export function nodeNameIssue(name: string): NodeNameIssue | undefined {
  const trimmed = name.trim();
  if (!trimmed) return { code: 'empty' };
  if (/[\\/]/.test(name)) return { code: 'separator' };
  if (trimmed === '.' || trimmed === '..') return { code: 'dots' };
  // eslint-disable-next-line no-control-regex -- control characters are what this rejects
  if (/[\u0000-\u001f\u007f]/.test(name)) return { code: 'control' };
  const bytes = new TextEncoder().encode(trimmed).length;
  if (bytes > MAX_NODE_NAME_BYTES) return { code: 'tooLong', bytes, limit: MAX_NODE_NAME_BYTES };
  return undefined;
}
