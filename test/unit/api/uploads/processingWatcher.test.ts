import assert from 'node:assert/strict';
import { ProcessingWatcher } from '../../../../src/api/uploads/processingWatcher';
import type { FileNode } from '../../../../src/api/schemas/kbNodes';
import { startTestService, type TestService } from '../../support/localService';
import { zipOf } from '../../support/zip';

describe('ProcessingWatcher against the local service', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t.stop());

  it('keeps following other documents when a watched document’s folder was deleted meanwhile', async function () {
    this.timeout(30_000);
    const client = t.client();
    const [folder, inFolder] = await client.kbNodes.upload({ file: { data: await zipOf({ 'a.txt': 'Alpha' }) }, fileName: 'gone.zip' });
    const [top] = await client.kbNodes.upload({ file: { data: 'Top level text', contentType: 'text/plain' }, fileName: 'top.txt' });
    await client.kbNodes.delete(folder.id);
    const updates: FileNode[] = [];
    const gone: string[] = [];
    let watcher: ProcessingWatcher | undefined;
    const done = new Promise<void>((resolve) => {
      const check = (): void => {
        if (gone.includes(inFolder.id) && updates.some((u) => u.id === top.id && u.processState === 'completed')) resolve();
      };
      watcher = new ProcessingWatcher({
        client: async () => client,
        onUpdate: (n) => (updates.push(n), check()),
        onGone: (id) => (gone.push(id), check()),
        initialDelayMs: 10,
        maxDelayMs: 50,
      });
      // The deleted folder's document first: its parent's listing fails (404) in every round.
      watcher.watch([
        { id: inFolder.id, parentId: folder.id, name: 'a.txt' },
        { id: top.id, parentId: null, name: 'top.txt' },
      ]);
    });
    try {
      await done;
    } finally {
      watcher!.dispose();
    }
    assert.equal(watcher!.watching, 0);
    assert.deepEqual(gone, [inFolder.id]);
    assert.equal(updates.at(-1)?.id, top.id);
    assert.equal(updates.at(-1)?.processState, 'completed');
  });
});
