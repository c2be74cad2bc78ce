// One writer per data folder: `lock.json` names the owning process. A lock left by a dead
// process on this host is stale and taken over; the takeover is serialised per stale instance.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, mkdir, open, readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { renameWithRetry } from './durableFs';
import { DIR_MODE, FILE_MODE } from './fileModes';

export interface LockInfo {
  pid: number;
  hostname: string;
  startedAt: number;
  url?: string;
}

export interface DataLock {
  readonly info: LockInfo;
  update(info: { url?: string }): Promise<void>;
  /** Removes the lock file if it is still ours. */
  release(): Promise<void>;
}

export class DataFolderLockedError extends Error {
  constructor(
    readonly owner: LockInfo,
    dir: string,
  ) {
    super(`Data folder ${dir} is in use by process ${owner.pid} on ${owner.hostname}${owner.url ? ` (serving ${owner.url})` : ''}`);
    this.name = 'DataFolderLockedError';
  }
}

/** What the file holds: the public info plus a token (to recognise our own file) and the process start time. */
interface LockFile extends LockInfo {
  token: string;
  procStart?: string;
}

const LOCK = 'lock.json';
const MAX_ATTEMPTS = 200;
// An unparsable lock file younger than this may still be being written (non-link fallback).
const UNREADABLE_GRACE_MS = 2000;

export async function acquireLock(dir: string, info: { url?: string } = {}): Promise<DataLock> {
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  const mine: LockFile = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: Date.now(),
    ...(info.url ? { url: info.url } : {}),
    token: randomUUID(),
    ...procStartField(process.pid),
  };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (await createExclusive(join(dir, LOCK), JSON.stringify(mine))) return new FileDataLock(dir, mine);
    const seen = await readLock(dir);
    if (!seen) continue; // released between our attempts
    if (seen.file && isLive(seen.file)) throw new DataFolderLockedError(publicInfo(seen.file), dir);
    if (!seen.file && Date.now() - seen.mtimeMs < UNREADABLE_GRACE_MS) {
      await delay(20);
      continue;
    }
    await takeOver(dir, seen.raw);
  }
  throw new Error(`Could not acquire the lock of ${dir}: it keeps changing`);
}

/** The live owner of the folder, or undefined when the folder is free or its lock is stale. */
export async function readLockOwner(dir: string): Promise<LockInfo | undefined> {
  const seen = await readLock(dir);
  return seen?.file && isLive(seen.file) ? publicInfo(seen.file) : undefined;
}

class FileDataLock implements DataLock {
  private released = false;

  constructor(
    private readonly dir: string,
    private file: LockFile,
  ) {}

  get info(): LockInfo {
    return publicInfo(this.file);
  }

  async update(info: { url?: string }): Promise<void> {
    if (this.released || !(await this.isOurs())) throw new Error(`Lock of ${this.dir} is no longer held`);
    const { url: _old, ...rest } = this.file;
    const next: LockFile = { ...rest, ...(info.url ? { url: info.url } : {}) };
    const tmp = join(this.dir, `${LOCK}.${next.token}.tmp`);
    await writeFile(tmp, JSON.stringify(next), { mode: FILE_MODE });
    await renameWithRetry(tmp, join(this.dir, LOCK)); // atomic replace: readers never see a half-written file
    this.file = next;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (await this.isOurs()) await unlink(join(this.dir, LOCK)).catch(ignoreMissing);
  }

  private async isOurs(): Promise<boolean> {
    return (await readLock(this.dir))?.file?.token === this.file.token;
  }
}

// Only the holder of the marker named after this exact stale content may delete it, so two
// contenders cannot both delete "the stale lock" (the second would delete the first's fresh lock).
// A marker left by a dead contender leads to a next-level marker named after it.
async function takeOver(dir: string, staleRaw: string): Promise<void> {
  const lockPath = join(dir, LOCK);
  const claimed: string[] = [];
  let marker = join(dir, `${LOCK}.takeover-${digest(staleRaw)}`);
  const ours = JSON.stringify({
    pid: process.pid,
    hostname: hostname(),
    startedAt: Date.now(),
    token: randomUUID(),
    ...procStartField(process.pid),
  });
  for (let depth = 0; ; depth++) {
    if (depth > 8) return void (await delay(50));
    if (await createExclusive(marker, ours)) {
      claimed.push(marker);
      break;
    }
    const holderRaw = await readFile(marker, 'utf8').catch(() => undefined);
    if (holderRaw === undefined) return; // a winner just cleaned up: start over
    const holder = parseLockFile(holderRaw);
    if (!holder || isLive(holder)) return void (await delay(10 + Math.random() * 20));
    claimed.push(marker); // dead holder: its marker is cleaned up along with ours
    marker = `${marker}-${digest(holderRaw)}`;
  }
  const ourMarker = claimed.at(-1)!;
  try {
    const current = await readFile(lockPath, 'utf8').catch(() => undefined);
    if (current === staleRaw) await unlink(lockPath).catch(ignoreMissing);
  } finally {
    // Remove the whole chain only after the stale file is gone: a late contender that then claims
    // a fresh marker sees different content and backs off.
    for (const m of claimed) if (m !== ourMarker) await unlink(m).catch(ignoreMissing);
    await unlink(ourMarker).catch(ignoreMissing);
  }
}

/** Creates `path` with `content` only if it does not exist; readers never see it empty (hard link of a complete temp file). */
async function createExclusive(path: string, content: string): Promise<boolean> {
  const tmp = `${path}.${randomUUID()}.tmp`;
  await writeFile(tmp, content, { mode: FILE_MODE });
  try {
    await link(tmp, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EXDEV', 'EOPNOTSUPP'].includes(code ?? '')) throw err;
    return createWithExcl(path, content); // file system without hard links
  } finally {
    await unlink(tmp).catch(ignoreMissing);
  }
}

async function createWithExcl(path: string, content: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx', FILE_MODE);
    try {
      await handle.writeFile(content);
    } finally {
      await handle.close();
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

async function readLock(dir: string): Promise<{ raw: string; file?: LockFile; mtimeMs: number } | undefined> {
  let handle;
  try {
    handle = await open(join(dir, LOCK), 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const raw = await handle.readFile('utf8');
    const { mtimeMs } = await handle.stat();
    return { raw, file: parseLockFile(raw), mtimeMs };
  } finally {
    await handle.close();
  }
}

function parseLockFile(raw: string): LockFile | undefined {
  try {
    const v = JSON.parse(raw) as LockFile;
    return Number.isSafeInteger(v.pid) && typeof v.hostname === 'string' && typeof v.startedAt === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}

function isLive(owner: LockFile): boolean {
  if (owner.hostname !== hostname()) return true; // cannot check another machine's processes
  if (owner.pid === process.pid) return owner.procStart === undefined || owner.procStart === procStartField(process.pid).procStart;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by another user
  }
  // The pid is alive; on Linux also check it is the same process and not a reused pid (e.g. after a reboot).
  const now = procStartField(owner.pid).procStart;
  return owner.procStart === undefined || now === undefined || now === owner.procStart;
}

/** Linux: the process start time in clock ticks since boot (field 22 of /proc/<pid>/stat). */
function procStartField(pid: number): { procStart?: string } {
  if (process.platform !== 'linux') return {};
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return start ? { procStart: `${bootId}:${start}` } : {};
  } catch {
    return {};
  }
}

function publicInfo(file: LockFile): LockInfo {
  return { pid: file.pid, hostname: file.hostname, startedAt: file.startedAt, ...(file.url ? { url: file.url } : {}) };
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);
const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function ignoreMissing(err: unknown): void {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
}
