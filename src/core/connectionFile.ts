// The connection file (issue 27): the connections VS Code knows, written by the extension for
// `dist/mcp.js --connection NAME` and `knowledge-desk test --connection NAME`. Where each one goes, never a key:
// keys come from the environment or a key file, as for --region and --base-url.
import { z } from 'zod';
import { sameName } from './connections';

export const CONNECTION_FILE_NAME = 'connections.json';

const name = z.string().trim().min(1).max(80);
// strict(): a key added by hand is refused, not silently carried along.
export const connectionFileEntrySchema = z.discriminatedUnion('kind', [
  z.object({ name, kind: z.literal('local'), dataDir: z.string().min(1) }).strict(),
  /** baseUrl absent: a Custom connection whose URL is not set yet. */
  z.object({ name, kind: z.literal('remote'), baseUrl: z.string().min(1).optional(), nluUrl: z.string().min(1).optional() }).strict(),
]);
export type ConnectionFileEntry = z.infer<typeof connectionFileEntrySchema>;

export const connectionFileSchema = z.object({ version: z.literal(1), connections: z.array(connectionFileEntrySchema) }).strict();
export type ConnectionFile = z.infer<typeof connectionFileSchema>;

/** The entry named `wanted` (names compare as the connection list compares them), or why there is none (English). */
export function findInConnectionFile(
  text: string,
  wanted: string,
  file: string,
): { entry: ConnectionFileEntry; problem?: undefined } | { entry?: undefined; problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { problem: `The connection file ${file} is not valid JSON (${(error as Error).message}).${REWRITE}` };
  }
  const parsed = connectionFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the file';
    return { problem: `The connection file ${file} is not a connection list (${where}: ${issue?.message ?? 'invalid'}).${REWRITE}` };
  }
  const entry = parsed.data.connections.find((c) => sameName(c.name, wanted));
  if (entry) return { entry };
  const known = parsed.data.connections.map((c) => `"${c.name}"`).join(', ') || 'none';
  return { problem: `No connection named "${wanted}" in ${file}. Its connections: ${known}.` };
}

const REWRITE = ' VS Code writes it again when a connection is added, renamed or removed, or when Knowledge Desk starts.';
