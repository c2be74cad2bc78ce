// The retrieval index follows the record a document's processing commits (docs/local-service-storage.md):
// a commit is visible to readers the moment it is made, so the index must change in that same synchronous
// span — never after the write's fdatasync, when a reader could see the document completed and not find it.
// And when that write fails, the journal undoes the completion and the index drops the text again.
import assert from 'node:assert/strict';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultAssetsDir } from '../../../../src/local/extract/extractorPool';
import { extractFile } from '../../../../src/local/extract/extractFile';
import { KbStore } from '../../../../src/local/kb/kbStore';
import type { NodeRecord } from '../../../../src/local/kb/nodeRecord';
import { ProcessingQueue } from '../../../../src/local/kb/processing';
import { silentLogger } from '../../../../src/local/logger';
import { Retrieval } from '../../../../src/local/search/retrieval';
import { BlobStore } from '../../../../src/local/store/blobs';
import { Journal } from '../../../../src/local/store/journal';

describe('Retrieval index: follows the processing commit in the same span', () => {
  let dir: string;
  let journal: Journal;
  let kb: KbStore;
  let retrieval: Retrieval;
  let processing: ProcessingQueue;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kd-retrieval-follows-'));
    journal = await Journal.open({ dir: join(dir, 'db') });
    const blobs = await BlobStore.open(join(dir, 'blobs'));
    kb = new KbStore(journal);
    retrieval = new Retrieval(kb, blobs, silentLogger);
    const extractor = { extract: (file: string, name: string) => extractFile(file, name, { assetsDir: defaultAssetsDir() }) };
    processing = new ProcessingQueue(kb, blobs, extractor, silentLogger);
    processing.onProcessed((node, extraction) => retrieval.onProcessed(node, extraction));
    const { hash, size } = await blobs.putBuffer('Document zzfollow. Lorem ipsum dolor sit amet.\n');
    const now = Date.now();
    const node: NodeRecord = {
      id: 'n1',
      name: 'a.txt',
      nodeType: 'file',
      parentId: null,
      createdAt: now,
      updatedAt: now,
      createdBy: null,
      agentPermission: { accessAgents: null, accessPermissionGroups: null, viewAccessToAgent: true },
      userPermission: { ownUserIds: null, customerGroups: null, viewAccessToUser: true },
      sourceType: null,
      size,
      processState: 'initializing',
      blob: hash,
      mimeType: 'text/plain',
    };
    await kb.write([node]);
  });

  afterEach(async () => {
    processing.close();
    retrieval.close();
    await journal.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('holds a completed document before anything else runs (no reader sees it completed and unindexed)', async () => {
    const seen: string[] = [];
    // A microtask queued by the commit runs before the write is durable and before any other request.
    kb.onChange((id, node) =>
      queueMicrotask(() => {
        if (node?.processState === 'completed') seen.push(retrieval.index.doc(id)?.textBlob === node.textBlob ? 'indexed' : 'not indexed');
      }),
    );
    processing.enqueue('n1');
    await processing.idle();
    assert.deepEqual(seen, ['indexed']);
    assert.equal(kb.get('n1')?.processState, 'completed');
    const hits = await retrieval.searchPassages('zzfollow', { bm25: 9, text: 1, title: 0 }, {});
    assert.deepEqual([...new Set(hits.map((h) => h.node.id))], ['n1']);
  });

  it('drops the text again when the completing write fails and is undone', async () => {
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<unknown> };
    await probe.close();
    const original = proto.write;
    let failed = false;
    // Fail the flush that carries the completion (memory already shows it while it is written).
    proto.write = function (this: unknown, ...args: unknown[]) {
      if (!failed && kb.get('n1')?.processState === 'completed') {
        failed = true;
        assert.ok(retrieval.index.doc('n1'), 'indexed while its write is in flight');
        return Promise.reject(Object.assign(new Error('EIO: simulated'), { code: 'EIO' }));
      }
      return original.apply(this, args);
    };
    try {
      processing.enqueue('n1');
      await processing.idle();
    } finally {
      proto.write = original;
    }
    assert.ok(failed, 'the completing write was failed');
    assert.equal(kb.get('n1')?.processState, 'parsing', 'the completion was undone');
    assert.equal(retrieval.index.doc('n1'), undefined, 'the undone text left the index');
    assert.equal(retrieval.index.documentCount, 0);
  });
});
