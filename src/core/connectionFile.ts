// The connection file (issue 27): the connections VS Code knows, written by the extension for
// `dist/mcp.js --connection NAME` and `knowledge-desk test --connection NAME`. Where each one goes, never a key:
// keys come from the environment or a key file, as for --region and --base-url.
import type * as Zod from 'zod';
import type { z } from 'zod';
import { sameName } from './connections';

export const CONNECTION_FILE_NAME = 'connections.json';

// Built on first need: the extension writes the file at activation (connectionFileSync.ts) and reads none, so
// it loads no zod for it; the MCP server and the CLI read it.
function buildSchemas({ z }: typeof Zod) {
  const name = z.string().trim().min(1).max(80);
  // strict(): a key added by hand is refused, not silently carried along.
  const entry = z.discriminatedUnion('kind', [
    z.object({ name, kind: z.literal('local'), dataDir: z.string().min(1) }).strict(),
    /** baseUrl absent: a Custom connection whose URL is not set yet. */
    z.object({ name, kind: z.literal('remote'), baseUrl: z.string().min(1).optional(), nluUrl: z.string().min(1).optional() }).strict(),
  ]);
  const file = z.object({ version: z.literal(1), connections: z.array(entry) }).strict();
  return { entry, file };
}

type Schemas = ReturnType<typeof buildSchemas>;
let built: Schemas | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first need, not at activation
const schemas = (): Schemas => (built ??= buildSchemas(require('zod') as typeof Zod));

export type ConnectionFileEntry = z.infer<Schemas['entry']>;
export type ConnectionFile = z.infer<Schemas['file']>;

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
  const parsed = schemas().file.safeParse(raw);
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
