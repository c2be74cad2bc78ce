// Open Original's cache against the real local service: keyed by id and update time, size-limited, and a
// download cut mid-way or over the limit leaves nothing in the cache.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { nodeNameProblem } from '../../../src/features/knowledgeBase/nodeNameMessages';
import { OriginalCache, OriginalTooLargeError, safeFileName } from '../../../src/features/knowledgeBase/originalCache';
import { startTestService, type TestService } from '../support/localService';

describe('Open Original cache (against the local service)', () => {
  let t: TestService;
  let dir: string;
  before(async () => (t = await startTestService()));
  after(() => t.stop());
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'kd-originals-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const client = () => t.client();
  const upload = async (name: string, data: string) =>
    (await client().kbNodes.upload({ file: { data, contentType: 'text/plain' }, fileName: name }))[0];

  it('downloads once per id and update time, then serves the cached file', async () => {
    const node = await upload('notes.md', '# Notes\n\nkept');
    const cache = new OriginalCache(dir, () => 1024 * 1024);
    const first = await cache.get(client().kbNodes, node);
    assert.equal(first.fromCache, false);
    assert.equal(readFileSync(first.path, 'utf8'), '# Notes\n\nkept');
    assert.equal(path.basename(first.path), 'notes.md');
    assert.ok(first.path.includes(`${node.id}@${node.updatedAt}`));
    const again = await cache.get(client().kbNodes, node);
    assert.equal(again.fromCache, true);
    assert.equal(again.path, first.path);
    const newer = await cache.get(client().kbNodes, { ...node, updatedAt: node.updatedAt + 1 });
    assert.equal(newer.fromCache, false, 'another update time is another entry');
  });

  it('refuses a document larger than the limit and keeps nothing of it', async () => {
    const node = await upload('big.txt', 'x'.repeat(300_000));
    const cache = new OriginalCache(dir, () => 100_000);
    await assert.rejects(cache.get(client().kbNodes, node), (e: unknown) => {
      assert.ok(e instanceof OriginalTooLargeError);
      assert.match(e.message, /"big\.txt" is 0\.3 MB; documents opened from the knowledge base are limited to 0\.1 MB/);
      return true;
    });
    assert.deepEqual(await cache.list(), []);
  });

  it('a download cut mid-way (aborted after the first chunk) leaves nothing half-written', async () => {
    const node = await upload('long.txt', 'y'.repeat(3_000_000));
    const cache = new OriginalCache(dir, () => 10 * 1024 * 1024);
    const controller = new AbortController();
    const source = {
      download: async (id: string, options?: { signal?: AbortSignal }) => {
        const d = await client().kbNodes.download(id, options);
        const body = (async function* () {
          for await (const chunk of d.body) {
            yield chunk;
            controller.abort(); // the connection is cut after the first chunk arrived
          }
        })();
        return { ...d, body };
      },
    };
    await assert.rejects(cache.get(source, node, controller.signal));
    assert.deepEqual(await cache.list(), [], 'no entry and no partial directory');
    const whole = await cache.get(client().kbNodes, node);
    assert.equal(whole.size, 3_000_000, 'a later complete download works');
  });

  it('evicts the least recently used entries to stay under the limit', async () => {
    const a = await upload('a.txt', 'a'.repeat(60_000));
    const b = await upload('b.txt', 'b'.repeat(60_000));
    const cache = new OriginalCache(dir, () => 100_000);
    await cache.get(client().kbNodes, a);
    await cache.get(client().kbNodes, b);
    assert.equal(await cache.size(), 60_000, 'a was evicted to make room for b');
    assert.deepEqual(await cache.list(), [`${b.id}@${b.updatedAt}`]);
  });

  it('makes file names safe and checks node names as the service does', () => {
    assert.equal(safeFileName('../etc/passwd'), '_etc_passwd');
    assert.equal(safeFileName('a:b*c?.pdf'), 'a_b_c_.pdf');
    assert.equal(safeFileName(''), 'document');
    assert.equal(nodeNameProblem('Policies'), undefined);
    assert.equal(nodeNameProblem('経費 2026'), undefined);
    assert.match(nodeNameProblem('')!, /cannot be empty/);
    assert.match(nodeNameProblem('a/b')!, /"\/"/);
    assert.match(nodeNameProblem('a\\b')!, /"\/"/);
    assert.match(nodeNameProblem('..')!, /"\." or "\.\."/);
    assert.match(nodeNameProblem('x\u0007')!, /control characters/);
    assert.match(nodeNameProblem('あ'.repeat(86), 'document')!, /^A document name is 258 bytes long in UTF-8; the limit is 255\.$/);
    assert.equal(nodeNameProblem('あ'.repeat(85)), undefined, '255 bytes is allowed');
  });
});
