// The data folder holds a project's documents and the service's keys: only its owner may read it
// (docs/local-service.md#file-modes). Folders are created 0700 and files 0600; a folder made by an older version
// is tightened at start. Windows has no such modes: there the calls change nothing.
import { chmod, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { LocalLogger } from '../logger';

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/**
 * chmod of `dir` and everything below it (symlinks are left alone, never followed). Best effort: a file that
 * cannot be changed (another owner, a read-only disk) is reported once and the start goes on.
 * A data folder that is already 0700 was made (or tightened) by this version, whose files are created 0600: it
 * is not walked again, so a folder of 20,000 documents does not pay 40,000 chmods at every start. The folder
 * itself is changed last, so a walk cut short is done again at the next start.
 */
export async function tightenModes(dir: string, logger: LocalLogger): Promise<void> {
  if (process.platform === 'win32') return;
  const mode = await stat(dir).then(
    (s) => s.mode & 0o777,
    () => undefined,
  );
  if (mode === DIR_MODE) return;
  let failures = 0;
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) await chmod(full, FILE_MODE).catch(() => failures++);
    }
    await chmod(folder, DIR_MODE).catch(() => failures++);
  };
  await walk(dir);
  if (failures) logger.warn(`could not restrict the permissions of ${failures} entries in ${dir} to its owner`);
}
