// file:// uploads open once, then check the opened file (issue 23): a folder swapped for a symlink to the outside
// between the check and the read can no longer make the service read a file outside the allowed folders.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BadRequestError } from '../../../src/api/errors';
import { checkOpened, openForCheck } from '../../../src/local/kb/openedFile';
import { startTestService, type TestService } from '../support/localService';

const unix = process.platform !== 'win32';

describe('Local service: file:// uploads open the file, then check what was opened', () => {
  let base: string;
  let root: string;
  let outside: string;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'kd-open-')));
    root = path.join(base, 'allowed');
    outside = path.join(base, 'outside');
    await mkdir(path.join(root, 'dir'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(root, 'dir', 'file.txt'), 'inside');
    await writeFile(path.join(outside, 'file.txt'), 'SECRET');
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  /** Replaces allowed/dir with a symlink to the outside folder, as the racing attacker does. */
  const swapDirForSymlink = async (): Promise<void> => {
    await rename(path.join(root, 'dir'), path.join(root, 'dir.old'));
    await symlink(outside, path.join(root, 'dir'));
  };

  for (const procFs of unix && process.platform === 'linux' ? [true, false] : [false]) {
    it(`a path swapped after the open reads the opened file or is refused, never the outside one (${procFs ? '/proc/self/fd' : 'same inode'})`, async () => {
      const file = path.join(root, 'dir', 'file.txt');
      const handle = await openForCheck(file);
      try {
        await swapDirForSymlink();
        assert.equal(await readFile(file, 'utf8'), 'SECRET', 'the path now leads outside');
        const check = await checkOpened(handle, file, [root], { procFs });
        if (check.ok) {
          assert.equal(check.real, path.join(root, 'dir.old', 'file.txt'));
          assert.equal(await handle.readFile('utf8'), 'inside');
        } else {
          assert.equal(check.problem, 'outside');
        }
      } finally {
        await handle.close();
      }
    });
  }

  it('refuses an opened file outside the roots, and anything that is not a regular file', async () => {
    await swapDirForSymlink();
    const handle = await openForCheck(path.join(root, 'dir', 'file.txt'));
    try {
      assert.deepEqual(await checkOpened(handle, path.join(root, 'dir', 'file.txt'), [root]), { ok: false, problem: 'outside' });
    } finally {
      await handle.close();
    }
    const dirHandle = await openForCheck(root);
    try {
      assert.deepEqual(await checkOpened(dirHandle, root, [root]), { ok: false, problem: 'notFile' });
    } finally {
      await dirHandle.close();
    }
  });

  describe('through the service', () => {
    let t: TestService;
    beforeEach(async () => (t = await startTestService({ allowedRoots: [root] })));
    afterEach(() => t.stop());
    const upload = (file: string) =>
      t.client().kbNodes.uploadFromCloudStore({ bucketObjectPath: pathToFileURL(file).toString(), fileName: 'x.txt' });

    it('reads a file (or a symlink) inside the folder, refuses a symlinked folder leading outside and a FIFO', async () => {
      await symlink(path.join(root, 'dir', 'file.txt'), path.join(root, 'link.txt'));
      assert.equal((await upload(path.join(root, 'link.txt'))).name, 'x.txt');
      await swapDirForSymlink();
      const error = await upload(path.join(root, 'dir', 'file.txt')).catch((e: unknown) => e);
      assert.ok(error instanceof BadRequestError, String(error));
      assert.match(error.message, /outside the folders the local service may read/);
      if (unix) {
        execFileSync('mkfifo', [path.join(root, 'pipe')]);
        // Opened without blocking (nobody writes to it), then refused.
        const fifo = await upload(path.join(root, 'pipe')).catch((e: unknown) => e);
        assert.ok(fifo instanceof BadRequestError && /is not a file/.test(fifo.message), String(fifo));
      }
    });
  });
});
