// Named connections (issue 27): the list kept in application scope, without VS Code, so the store's
// rules and the migration from per-region keys are tested in plain Node.
import { z } from 'zod';
import { REGIONS, type Region } from './regions';

const identitySchema = z
  .object({ agentEmail: z.string().optional(), userEmail: z.string().optional(), ownUserId: z.string().optional() })
  .strict();

export const connectionTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('us') }).strict(),
  z.object({ kind: z.literal('ja') }).strict(),
  // No baseUrl: the migrated "Custom" connection, which keeps following knowledgeDesk.custom.* for one release.
  z.object({ kind: z.literal('custom'), baseUrl: z.string().optional(), nluUrl: z.string().optional() }).strict(),
  // 'default': the Local connection's project (the data folder it always had); another project is named by the
  // id of the connection that created it, which also names its data folder, so the pattern is a safe folder name.
  z.object({ kind: z.literal('local'), project: z.string().regex(/^[\w-]{1,64}$/) }).strict(),
]);
export type ConnectionTarget = z.infer<typeof connectionTargetSchema>;

/** The local project of the Local connection: the data folder the local service always had. */
export const DEFAULT_PROJECT = 'default';

export const connectionSchema = z
  .object({
    /** Names the connection's keys in SecretStorage (`knowledgeDesk.apiKey.<id>`); the migrated ones keep the region's id. */
    id: z.string().regex(/^[\w-]{1,64}$/),
    name: z.string().trim().min(1).max(80),
    target: connectionTargetSchema,
    /** Overrides the identity settings for this connection only. */
    identity: identitySchema.optional(),
  })
  .strict();
export type Connection = z.infer<typeof connectionSchema>;

export const connectionListSchema = z.object({ version: z.literal(1), connections: z.array(connectionSchema) }).strict();
export type ConnectionList = z.infer<typeof connectionListSchema>;

/** The default connections: one per region, with the region's id so the keys stored per region are theirs as they are. */
export const DEFAULT_NAMES: Record<Region, string> = { us: 'US', ja: 'JA', custom: 'Custom', local: 'Local' };

export function defaultConnection(region: Region): Connection {
  const target: ConnectionTarget = region === 'local' ? { kind: 'local', project: DEFAULT_PROJECT } : { kind: region };
  return { id: region, name: DEFAULT_NAMES[region], target };
}

export function defaultConnections(): Connection[] {
  return (['us', 'ja', 'custom', 'local'] as const).map(defaultConnection);
}

export function sameName(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
}

export function findByName(list: readonly Connection[], name: string): Connection | undefined {
  return list.find((c) => sameName(c.name, name));
}

/** Why a name cannot be used (English reason code; the UI words it), or undefined. */
export function nameProblem(list: readonly Connection[], name: string, exceptId?: string): 'empty' | 'tooLong' | 'duplicate' | undefined {
  const text = name.trim();
  if (!text) return 'empty';
  if (text.length > 80) return 'tooLong';
  return list.some((c) => c.id !== exceptId && sameName(c.name, text)) ? 'duplicate' : undefined;
}

export interface ReadResult {
  connections: Connection[];
  /** Set when what was stored was not a valid list: the defaults were rebuilt (keys stay under their ids). */
  problem?: string;
  /** True when nothing was stored yet (first start after the upgrade): the caller migrates. */
  fresh: boolean;
}

/**
 * Reads the stored list. Nonsense (a hand edit, a newer format) never throws: the valid entries are kept,
 * the defaults are added back, and `problem` says what was wrong. Duplicate ids or names keep the first.
 */
export function readConnections(raw: unknown): ReadResult {
  if (raw === undefined) return { connections: defaultConnections(), fresh: true };
  const parsed = connectionListSchema.safeParse(raw);
  if (parsed.success) {
    const { kept, dropped } = dedupe(parsed.data.connections);
    // A list the user emptied by hand would leave nothing to switch to: the defaults come back.
    const connections = kept.length ? kept : withDefaults([]);
    return { connections, fresh: false, ...(dropped ? { problem: `${dropped} entries repeat an id or a name and were dropped` } : {}) };
  }
  const entries =
    typeof raw === 'object' && raw && Array.isArray((raw as { connections?: unknown }).connections)
      ? (raw as { connections: unknown[] }).connections
      : [];
  const valid = entries.flatMap((e) => {
    const one = connectionSchema.safeParse(e);
    return one.success ? [one.data] : [];
  });
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'the list';
  return {
    connections: withDefaults(dedupe(valid).kept),
    fresh: false,
    problem: `${where}: ${issue?.message ?? 'not a connection list'} (${entries.length - valid.length} of ${entries.length} entries dropped)`,
  };
}

function dedupe(list: readonly Connection[]): { kept: Connection[]; dropped: number } {
  const kept: Connection[] = [];
  for (const c of list) if (!kept.some((k) => k.id === c.id || sameName(k.name, c.name))) kept.push(c);
  return { kept, dropped: list.length - kept.length };
}

/** After nonsense, the default connections come back (their keys are the per-region keys, never deleted by a bad read). */
export function withDefaults(list: Connection[]): Connection[] {
  const out = [...list];
  for (const d of defaultConnections()) {
    if (out.some((c) => c.id === d.id)) continue;
    // A user connection took the default's name: the default comes back under a name of its own.
    let name = d.name;
    for (let n = 2; findByName(out, name); n++) name = `${d.name} (${n})`;
    out.push({ ...d, name });
  }
  return out;
}

export function isDefaultId(id: string): id is Region {
  return (REGIONS as readonly string[]).includes(id);
}

/** The region a target goes to (the client, the MCP server and the local-only limits are per region). */
export function regionOf(target: ConnectionTarget): Region {
  return target.kind;
}

export function serialize(list: readonly Connection[]): ConnectionList {
  return { version: 1, connections: list.map((c) => connectionSchema.parse(c)) };
}
