// Named connections (issue 27): the list kept in application scope, without VS Code, so the store's
// rules and the migration from per-region keys are tested in plain Node.
import type * as Zod from 'zod';
import type { z } from 'zod';
import { REGIONS, type Region } from './regions';

// The schemas are built on first need: every window reads the stored list at activation, and a list as
// Knowledge Desk writes it is taken by exactConnection() below without loading zod (docs/architecture.md#startup).
function buildSchemas({ z }: typeof Zod) {
  const identity = z
    .object({ agentEmail: z.string().optional(), userEmail: z.string().optional(), ownUserId: z.string().optional() })
    .strict();
  const target = z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('us') }).strict(),
    z.object({ kind: z.literal('ja') }).strict(),
    // No baseUrl: the migrated "Custom" connection, which keeps following knowledgeDesk.custom.* for one release.
    z.object({ kind: z.literal('custom'), baseUrl: z.string().optional(), nluUrl: z.string().optional() }).strict(),
    // 'default': the Local connection's project (the data folder it always had); another project is named by the
    // id of the connection that created it, which also names its data folder, so the pattern is a safe folder name.
    z.object({ kind: z.literal('local'), project: z.string().regex(ID_PATTERN) }).strict(),
  ]);
  const connection = z
    .object({
      /** Names the connection's keys in SecretStorage (`knowledgeDesk.apiKey.<id>`); the migrated ones keep the region's id. */
      id: z.string().regex(ID_PATTERN),
      name: z.string().trim().min(1).max(NAME_MAX),
      target,
      /** Overrides the identity settings for this connection only. */
      identity: identity.optional(),
    })
    .strict();
  const list = z.object({ version: z.literal(1), connections: z.array(connection) }).strict();
  return { target, connection, list };
}

type Schemas = ReturnType<typeof buildSchemas>;
let built: Schemas | undefined;
/** The zod schemas of a connection and of the stored list (built once, on first need). */
export function connectionSchemas(): Schemas {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first need, not at activation
  return (built ??= buildSchemas(require('zod') as typeof Zod));
}

const ID_PATTERN = /^[\w-]{1,64}$/;
const NAME_MAX = 80;

export type ConnectionTarget = z.infer<Schemas['target']>;
export type Connection = z.infer<Schemas['connection']>;
export type ConnectionList = z.infer<Schemas['list']>;

/** The local project of the Local connection: the data folder the local service always had. */
export const DEFAULT_PROJECT = 'default';

const TARGET_KEYS: Record<ConnectionTarget['kind'], readonly string[]> = {
  us: ['kind'],
  ja: ['kind'],
  custom: ['kind', 'baseUrl', 'nluUrl'],
  local: ['kind', 'project'],
};
const CONNECTION_KEYS = ['id', 'name', 'target', 'identity'];
const IDENTITY_KEYS = ['agentEmail', 'userEmail', 'ownUserId'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Only `keys`, each absent or a string when listed in `strings` (zod's optional strings: undefined counts as absent). */
const onlyStrings = (v: Record<string, unknown>, keys: readonly string[], strings: readonly string[]) =>
  Object.keys(v).every((k) => keys.includes(k) && (!strings.includes(k) || v[k] === undefined || typeof v[k] === 'string'));

/**
 * A copy of `raw` when the connection schema takes it as it is (nothing to trim, no key too many), else undefined:
 * then the schema decides (it trims a name, and says what is wrong). A unit test holds the two to the same answers.
 */
export function exactConnection(raw: unknown): Connection | undefined {
  if (!isObject(raw) || !onlyStrings(raw, CONNECTION_KEYS, ['id', 'name'])) return undefined;
  const { id, name, target, identity } = raw;
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) return undefined;
  if (typeof name !== 'string' || name !== name.trim() || !name || name.length > NAME_MAX) return undefined;
  if (!isObject(target) || typeof target.kind !== 'string' || !Object.hasOwn(TARGET_KEYS, target.kind)) return undefined;
  const kind = target.kind as ConnectionTarget['kind'];
  if (!onlyStrings(target, TARGET_KEYS[kind], ['baseUrl', 'nluUrl', 'project'])) return undefined;
  if (kind === 'local' && !(typeof target.project === 'string' && ID_PATTERN.test(target.project))) return undefined;
  if (identity !== undefined && !(isObject(identity) && onlyStrings(identity, IDENTITY_KEYS, IDENTITY_KEYS))) return undefined;
  const copy = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
  return {
    id,
    name,
    target: copy(target) as ConnectionTarget,
    ...(identity !== undefined ? { identity: copy(identity as Record<string, unknown>) } : {}),
  };
}

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
  if (text.length > NAME_MAX) return 'tooLong';
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
  const exact =
    isObject(raw) && onlyStrings(raw, ['version', 'connections'], []) && raw.version === 1 && Array.isArray(raw.connections)
      ? raw.connections.map(exactConnection)
      : undefined;
  if (exact?.every((c) => c !== undefined)) return listRead(exact as Connection[]);
  const { list, connection } = connectionSchemas();
  const parsed = list.safeParse(raw);
  if (parsed.success) return listRead(parsed.data.connections);
  const entries =
    typeof raw === 'object' && raw && Array.isArray((raw as { connections?: unknown }).connections)
      ? (raw as { connections: unknown[] }).connections
      : [];
  const valid = entries.flatMap((e) => {
    const one = connection.safeParse(e);
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

function listRead(list: Connection[]): ReadResult {
  const { kept, dropped } = dedupe(list);
  // A list the user emptied by hand would leave nothing to switch to: the defaults come back.
  const connections = kept.length ? kept : withDefaults([]);
  return { connections, fresh: false, ...(dropped ? { problem: `${dropped} entries repeat an id or a name and were dropped` } : {}) };
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
  return { version: 1, connections: list.map((c) => exactConnection(c) ?? connectionSchemas().connection.parse(c)) };
}
