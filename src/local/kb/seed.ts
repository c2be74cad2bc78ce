import { createHash } from 'node:crypto';
import { copyFile, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from '../store/blobs';
import { fileNameProblem } from './fileNames';
import type { KbService } from './kbService';
import type { Creator } from './nodeRecord';
import { uploadOptionsSchema } from './uploadOptions';

const SEED_CREATOR: Creator = { id: 'local-seed', email: 'samples@knowledge-desk.local', firstName: 'Sample', lastName: 'Documents' };

/**
 * Imports a directory into an empty knowledge base, keeping its folders, through the same path as
 * uploads (so every document is really processed). Returns how many files were imported.
 */
export async function seedFromDir(dir: string, kb: KbService, blobs: BlobStore): Promise<number> {
  if (kb.store.size > 0) return 0;
  let count = 0;
  async function walk(current: string, parentId: string | null): Promise<void> {
    const entries = (await readdir(current, { withFileTypes: true }))
      .filter((e) => !e.name.startsWith('.'))
      .sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (fileNameProblem(entry.name)) continue;
      if (entry.isDirectory()) {
        const folder = await kb.createFolder(entry.name.normalize('NFC'), parentId, SEED_CREATOR, 'seed');
        await walk(full, folder.id);
      } else if (entry.isFile()) {
        const tempPath = blobs.tempPath();
        await copyFile(full, tempPath);
        const data = await readFile(tempPath);
        const options = uploadOptionsSchema.parse({ fileName: entry.name, targetFolderId: parentId ?? undefined, hashtags: ['sample'] });
        await kb.upload({
          tempPath,
          sha256: createHash('sha256').update(data).digest('hex'),
          size: data.length,
          options,
          creator: SEED_CREATOR,
          sourceType: 'seed',
        });
        count++;
      }
    }
  }
  await walk(dir, null);
  return count;
}
