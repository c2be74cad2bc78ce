// The UI's check of a knowledge-base node name before it is sent (New Folder…, Rename…), the same rules the
// local service applies (docs/api.md#folders): not empty, no path separator, not "." or "..", no control
// characters, at most 255 bytes in UTF-8. The service has the last word; this only saves a round trip.

export const MAX_NODE_NAME_BYTES = 255;

/** Why `name` cannot name a node, or undefined when it can. `kind` names it in the message. */
export function nodeNameProblem(name: string, kind: 'folder' | 'document' = 'folder'): string | undefined {
  const what = `A ${kind} name`;
  const trimmed = name.trim();
  if (!trimmed) return `${what} cannot be empty.`;
  if (/[\\/]/.test(name)) return `${what} cannot contain "/" or "\\".`;
  if (trimmed === '.' || trimmed === '..') return `${what} cannot be "." or "..".`;
  // eslint-disable-next-line no-control-regex -- control characters are what this rejects
  if (/[\u0000-\u001f\u007f]/.test(name)) return `${what} cannot contain control characters (tabs, line breaks).`;
  const bytes = new TextEncoder().encode(trimmed).length;
  if (bytes > MAX_NODE_NAME_BYTES) return `${what} is ${bytes} bytes long in UTF-8; the limit is ${MAX_NODE_NAME_BYTES}.`;
  return undefined;
}
