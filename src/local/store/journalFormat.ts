// On-disk format of the journal: log lines, snapshot reading and writing, replay.
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { renameWithRetry, syncDir, writeAll } from './durableFs';
import { FILE_MODE } from './fileModes';

export const SNAPSHOT = 'snapshot.json';

/** One change: collection `c`, key `k`, new value `v` (absent: the key is deleted). */
export interface JournalRecord {
  c: string;
  k: string;
  v?: unknown;
}

export type State = Map<string, Map<string, unknown>>;
export interface Prepared {
  c: string;
  k: string;
  body: string;
  json: string | undefined;
}
export interface Captured {
  seq: number;
  gen: number;
  state: State;
}

export class JournalCorruptionError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    reason: string,
  ) {
    super(`Journal corrupted: ${file} line ${line}: ${reason}`);
    this.name = 'JournalCorruptionError';
  }
}

export function prepare(r: JournalRecord): Prepared {
  if (typeof r?.c !== 'string' || typeof r.k !== 'string') throw new TypeError('Journal record needs string "c" and "k"');
  const json = r.v === undefined ? undefined : JSON.stringify(r.v);
  if (r.v !== undefined && json === undefined) throw new TypeError(`Journal value for ${r.c}/${r.k} is not JSON`);
  const body = `"c":${JSON.stringify(r.c)},"k":${JSON.stringify(r.k)}${json === undefined ? '' : `,"v":${json}`}`;
  return { c: r.c, k: r.k, body, json };
}

export function apply(state: State, c: string, k: string, v: unknown): void {
  let map = state.get(c);
  if (v === undefined) return void map?.delete(k);
  if (!map) state.set(c, (map = new Map()));
  map.set(k, v);
}

/**
 * Reads snapshot.json line by line: a header `{"seq":N,"format":2}`, one `[collection, key, value]` per line, and
 * an end line `{"end":entries}`. Never one string for the whole state: V8 refuses strings over about 512 MB, and a
 * data folder whose snapshot grew past that could never start again. The older one-object format
 * (`{"seq":N,"collections":{…}}` on one line) is still read.
 */
export async function readSnapshot(path: string): Promise<{ seq: number; state: State }> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { seq: 0, state: new Map() };
    throw err;
  }
  const input = handle.createReadStream({ encoding: 'utf8' });
  try {
    return await readSnapshotLines(path, createInterface({ input, crlfDelay: Infinity }));
  } finally {
    input.destroy();
  }
}

async function readSnapshotLines(path: string, lines: AsyncIterable<string>): Promise<{ seq: number; state: State }> {
  const state: State = new Map();
  let header: { seq?: unknown; format?: unknown; collections?: Record<string, Record<string, unknown>> } | undefined;
  let lineNo = 0;
  let entries = 0;
  for await (const line of lines) {
    lineNo++;
    const value = parseSnapshotLine(path, lineNo, line);
    if (lineNo === 1) {
      header = value as typeof header;
      if (typeof header !== 'object' || header === null || !Number.isSafeInteger(header.seq)) break;
      if (header.format === undefined) break; // the older format: everything is on this line
      continue;
    }
    if (Array.isArray(value) && value.length === 3 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      apply(state, value[0], value[1], value[2]);
      entries++;
    } else if (typeof value === 'object' && value !== null && 'end' in value && value.end === entries) {
      return { seq: header!.seq as number, state };
    } else {
      throw new JournalCorruptionError(path, lineNo, 'snapshot line is not an entry');
    }
  }
  if (header?.format !== undefined) throw new JournalCorruptionError(path, lineNo, 'snapshot is cut short');
  if (!header || !Number.isSafeInteger(header.seq) || typeof header.collections !== 'object' || header.collections === null) {
    throw new JournalCorruptionError(path, 1, 'snapshot lacks seq or collections');
  }
  for (const [c, map] of Object.entries(header.collections)) state.set(c, new Map(Object.entries(map)));
  return { seq: header.seq as number, state };
}

function parseSnapshotLine(path: string, lineNo: number, line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new JournalCorruptionError(path, lineNo, 'snapshot is not valid JSON');
  }
}

/** Parses one log line into its records, or undefined when it is not a well-formed line. */
export function parseLine(text: string): { s: number; c: string; k: string; v?: unknown }[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const records = Array.isArray(value) ? value : [value];
  if (records.length === 0) return undefined;
  for (const [i, r] of records.entries()) {
    if (typeof r !== 'object' || r === null || !Number.isSafeInteger(r.s) || typeof r.c !== 'string' || typeof r.k !== 'string')
      return undefined;
    if (i > 0 && r.s !== records[i - 1].s + 1) return undefined;
  }
  return records;
}

export function replayLog(
  file: string,
  buf: Buffer,
  isActive: boolean,
  snap: { seq: number; state: State },
  replay: { seq: number; replayed: number; records: number },
): { goodBytes: number; truncatedBytes: number } {
  let pos = 0;
  let line = 0;
  replay.records = 0;
  while (pos < buf.length) {
    line++;
    const nl = buf.indexOf(0x0a, pos);
    const end = nl === -1 ? buf.length : nl;
    const records = nl === -1 ? undefined : parseLine(buf.toString('utf8', pos, end));
    if (!records) {
      // Only the very last line of the active log can be torn (its write was never acknowledged).
      if (isActive && (nl === -1 || nl + 1 === buf.length)) return { goodBytes: pos, truncatedBytes: buf.length - pos };
      throw new JournalCorruptionError(file, line, nl === -1 ? 'unterminated line' : 'invalid JSON record');
    }
    for (const r of records) {
      if (r.s <= snap.seq) continue;
      if (r.s !== replay.seq + 1) throw new JournalCorruptionError(file, line, `expected seq ${replay.seq + 1}, found ${r.s}`);
      apply(snap.state, r.c, r.k, r.v);
      replay.seq = r.s;
      replay.replayed++;
    }
    replay.records += records.length;
    pos = nl + 1;
  }
  return { goodBytes: pos, truncatedBytes: 0 };
}

// Streams the snapshot in chunks, one entry per line (see readSnapshot), so a large state never becomes one string
// when it is written or read.
export async function writeSnapshot(dir: string, captured: Captured): Promise<void> {
  const tmp = join(dir, `${SNAPSHOT}.tmp`);
  const handle = await open(tmp, 'w', FILE_MODE);
  try {
    let pos = 0;
    let chunk = `{"seq":${captured.seq},"format":2}\n`;
    const emit = async (force: boolean): Promise<void> => {
      if (!force && chunk.length < 1 << 18) return;
      const buf = Buffer.from(chunk, 'utf8');
      await writeAll(handle, buf, pos);
      pos += buf.length;
      chunk = '';
    };
    let entries = 0;
    for (const [c, map] of captured.state) {
      for (const [k, v] of map) {
        chunk += `${JSON.stringify([c, k, v])}\n`;
        entries++;
        await emit(false);
      }
    }
    chunk += `{"end":${entries}}\n`;
    await emit(true);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await renameWithRetry(tmp, join(dir, SNAPSHOT));
  await syncDir(dir);
}
