// API keys of the local service: generated once per data folder, kept in keys.json (mode 0600).
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { chmod, link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { renameWithRetry, syncDir } from './durableFs';
import { DIR_MODE, FILE_MODE } from './fileModes';

export interface LocalKeys {
  apiKey: string;
  nluApiKey: string;
}

const FILE = 'keys.json';
const newKey = (prefix: string): string => prefix + randomBytes(32).toString('base64url');

export async function loadOrCreateKeys(dir: string): Promise<LocalKeys> {
  const path = join(dir, FILE);
  const existing = await readKeys(path);
  if (existing) return existing;
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  const keys: LocalKeys = { apiKey: newKey('kd_local_'), nluApiKey: newKey('kd_nlu_') };
  const tmp = join(dir, `${FILE}.${randomUUID()}.tmp`);
  const handle = await open(tmp, 'wx', FILE_MODE);
  try {
    await handle.writeFile(`${JSON.stringify(keys, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    // link() instead of rename(): if another process created keys.json meanwhile, keep and use its keys.
    await link(tmp, path).catch(async (err: NodeJS.ErrnoException) => {
      if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP'].includes(err.code ?? '')) throw err;
      await renameWithRetry(tmp, path); // file system without hard links
    });
    await syncDir(dir);
    return keys;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const winner = await readKeys(path);
    if (!winner) throw new Error(`${path} exists but holds no valid keys`);
    return winner;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
/** Digests of the expected keys (a service has two), so each request hashes only the key it brings. */
const expectedDigests = new Map<string, Buffer>();

/** Constant-time comparison; hashing first means neither content nor length leaks through timing. */
export function keysMatch(expected: string, given: string | undefined): boolean {
  if (typeof given !== 'string' || expected.length === 0) return false;
  let a = expectedDigests.get(expected);
  if (!a) {
    if (expectedDigests.size >= 16) expectedDigests.clear();
    expectedDigests.set(expected, (a = sha256(expected)));
  }
  return timingSafeEqual(a, sha256(given));
}

async function readKeys(path: string): Promise<LocalKeys | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let parsed: Partial<LocalKeys>;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not valid JSON; delete it to generate new keys`);
  }
  if (typeof parsed.apiKey !== 'string' || typeof parsed.nluApiKey !== 'string' || !parsed.apiKey || !parsed.nluApiKey) {
    throw new Error(`${path} lacks apiKey or nluApiKey; delete it to generate new keys`);
  }
  // Someone may have loosened the mode (copy, restore from backup): tighten it again.
  if (process.platform !== 'win32') await chmod(path, 0o600).catch(() => undefined);
  return { apiKey: parsed.apiKey, nluApiKey: parsed.nluApiKey };
}
