// The journal's files: opening them (the snapshot, then every log over it in generation order; a torn tail of
// the active log, from a crash mid-append, is cut off before anything is appended to it), starting a new log,
// and removing the logs a snapshot has folded in.
import { constants } from 'node:fs';
import { mkdir, readdir, readFile, rm, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { syncDir } from './durableFs';
import { readSnapshot, replayLog, SNAPSHOT, type State } from './journalFormat';
import { DIR_MODE } from './fileModes';
import { LogFile } from './journalLog';

export const LOG_NAME = /^log\.(\d+)\.jsonl$/;
export const logName = (gen: number): string => `log.${String(gen).padStart(8, '0')}.jsonl`;

export interface LoadedStats {
  snapshotSeq: number;
  replayed: number;
  truncatedBytes: number;
}

export interface Recovered {
  state: State;
  /** Sequence number of the last record read. */
  seq: number;
  /** The active log, open for appending at `logOffset`. */
  log: LogFile;
  gen: number;
  logOffset: number;
  /** Records in the logs (what a compaction would fold in). */
  logRecords: number;
  loaded: LoadedStats;
  /** Logs found; more than one means a compaction was interrupted. */
  logCount: number;
}

export async function recover(dir: string, fsync: boolean): Promise<Recovered> {
  const created = await mkdir(dir, { recursive: true, mode: DIR_MODE });
  if (created) await syncDir(dirname(created));
  await rm(join(dir, `${SNAPSHOT}.tmp`), { force: true });
  const snap = await readSnapshot(join(dir, SNAPSHOT));
  const gens = (await readdir(dir)).flatMap((n) => (LOG_NAME.test(n) ? [Number(LOG_NAME.exec(n)![1])] : []));
  gens.sort((a, b) => a - b);
  const replay = { seq: snap.seq, replayed: 0, records: 0 };
  let goodBytes = 0;
  let truncatedBytes = 0;
  for (const [i, gen] of gens.entries()) {
    const isActive = i === gens.length - 1;
    const r = replayLog(join(dir, logName(gen)), await readFile(join(dir, logName(gen))), isActive, snap, replay);
    if (isActive) ({ goodBytes, truncatedBytes } = r);
  }
  const gen = gens.at(-1) ?? 1;
  const log = await LogFile.open(join(dir, logName(gen)), constants.O_RDWR | constants.O_CREAT, fsync);
  // Cut the torn tail before anything is appended, or the next line would glue onto it.
  if (truncatedBytes > 0) await log.truncate(goodBytes);
  if (gens.length === 0) await syncDir(dir);
  return {
    state: snap.state,
    seq: replay.seq,
    log,
    gen,
    logOffset: goodBytes,
    logRecords: replay.records,
    loaded: { snapshotSeq: snap.seq, replayed: replay.replayed, truncatedBytes },
    logCount: gens.length,
  };
}

/** A new, empty log of generation `gen` (compaction starts one; the caller makes its name durable). */
export function createLog(dir: string, gen: number, fsync: boolean): Promise<LogFile> {
  return LogFile.open(join(dir, logName(gen)), constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC, fsync);
}

/** Deletes the logs a snapshot of generation `gen` has folded in (best effort: a leftover is replayed harmlessly). */
export async function removeLogsBefore(dir: string, gen: number): Promise<void> {
  for (const name of await readdir(dir)) {
    const m = LOG_NAME.exec(name);
    if (m && Number(m[1]) < gen) await unlink(join(dir, name)).catch(() => undefined);
  }
}
