// Client methods of the operations beyond documents 1 and 2, against the real local service (docs/api.md#folders …).
import assert from 'node:assert/strict';
import { ApiError, BadRequestError, ConflictError, NotFoundError } from '../../../src/api/errors';
import type { FileNode, KbNode } from '../../../src/api/schemas/kbNodes';
import { ingestionFinished, isFileNode } from '../../../src/api/values';
import { startTestService, type TestService } from '../support/localService';

const text = (s: string) => ({ data: s, contentType: 'text/plain' });

async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

describe('Folders, node updates, on/off, download, text and processing steps (client against the local service)', () => {
  let t: TestService;
  before(async () => (t = await startTestService()));
  after(() => t.stop());
  const client = () => t.client({ identity: { agentEmail: 'taro.yamada@example.co.jp' } });
  const upload = async (name: string, content: string, targetFolderId?: string): Promise<FileNode> => {
    const [node] = await client().kbNodes.upload({ file: text(content), fileName: name, targetFolderId, hashtags: ['hr'] });
    assert.ok(isFileNode(node));
    return node;
  };

  it('creates folders at the top level and inside a folder, as real folder nodes', async () => {
    const top = await client().folders.create({ name: 'Policies' });
    assert.equal(top.nodeType, 'folder');
    assert.equal(top.name, 'Policies');
    assert.deepEqual(top.breadcrumbs, []);
    assert.deepEqual(top.unknownFields, []);
    assert.equal(top.createdBy?.email, 'taro.yamada@example.co.jp');
    const inner = await client().folders.create({ name: '経費', parentFolderId: top.id });
    assert.deepEqual(inner.breadcrumbs, [{ id: top.id, name: 'Policies' }]);
    assert.equal(inner.parentFolder?.id, top.id);
    const listed = await client().kbNodes.listAll({ parentFolderIds: [top.id] });
    assert.deepEqual(
      listed.map((n) => [n.id, n.nodeType]),
      [[inner.id, 'folder']],
    );
    assert.deepEqual(
      await client()
        .kbNodes.get(inner.id)
        .then((n) => n.name),
      '経費',
    );
  });

  it('rejects bad folder names and places with the error bodies of docs/api.md', async () => {
    const parent = await client().folders.create({ name: 'Names' });
    const cases: Array<[string, RegExp, number, string]> = [
      ['', /^The folder name is empty\.$/, 400, 'name'],
      ['  ', /^The folder name is empty\.$/, 400, 'name'],
      ['a/b', /contains a path separator/, 400, 'name'],
      ['a\\b', /contains a path separator/, 400, 'name'],
      ['..', /must not be "\." or "\.\."/, 400, 'name'],
      ['tab\there', /contains control characters/, 400, 'name'],
      ['bell\u0007', /contains control characters/, 400, 'name'],
      ['あ'.repeat(86), /is 258 bytes long in UTF-8; the limit is 255/, 400, 'name'],
    ];
    for (const [name, message, status, field] of cases) {
      const error = await client()
        .folders.create({ name, parentFolderId: parent.id })
        .then(
          () => assert.fail(`accepted ${JSON.stringify(name)}`),
          (e: unknown) => e as ApiError,
        );
      assert.ok(error instanceof BadRequestError, `${JSON.stringify(name)}: ${error}`);
      assert.equal(error.status, status);
      assert.equal(error.field, field);
      assert.match(String((error.body as { errors: string }).errors), message);
      assert.deepEqual(Object.keys(error.body as object).sort(), ['code', 'errors', 'field']);
    }
    assert.ok(
      'あ'.repeat(85).length && (await client().folders.create({ name: 'あ'.repeat(85), parentFolderId: parent.id })),
      '255 bytes is fine',
    );
    // Same name twice in one folder: 409; unknown parent: 404 naming it; a document as parent: 400.
    await client().folders.create({ name: 'Twice', parentFolderId: parent.id });
    await assert.rejects(
      client().folders.create({ name: 'Twice', parentFolderId: parent.id }),
      (e: unknown) =>
        e instanceof ConflictError && e.field === 'name' && /A folder named "Twice" already exists in the folder "Names"/.test(e.message),
    );
    await assert.rejects(
      client().folders.create({ name: 'x', parentFolderId: 'no-such-folder' }),
      (e: unknown) => e instanceof NotFoundError && e.field === 'parentFolderId' && /Folder not found: no-such-folder/.test(e.message),
    );
    const doc = await upload('parent-doc.txt', 'A document is not a folder.', parent.id);
    await assert.rejects(
      client().folders.create({ name: 'x', parentFolderId: doc.id }),
      (e: unknown) => e instanceof BadRequestError && /is a document, not a folder/.test(e.message),
    );
    assert.equal(client().offers.isOffered('folders.create'), true, 'bad input never marks an operation as not offered');
  });

  it('renames a folder keeping ids; breadcrumbs of everything below follow', async () => {
    const a = await client().folders.create({ name: 'Old name' });
    const b = await client().folders.create({ name: 'Sub', parentFolderId: a.id });
    const doc = await upload('deep.txt', 'Deep inside the renamed folder.', b.id);
    const renamed = await client().folders.rename(a.id, 'New name');
    assert.equal(renamed.id, a.id);
    assert.equal(renamed.name, 'New name');
    const after = await client().kbNodes.get(doc.id);
    assert.equal(after.id, doc.id);
    assert.deepEqual(
      after.breadcrumbs.map((c) => c.name),
      ['New name', 'Sub'],
    );
    // A document through the node update; the same name again is a no-op rename, a sibling's name a 409.
    const doc2 = await upload('other.txt', 'Another one.', b.id);
    const r = await client().kbNodes.update(doc.id, { name: 'deep renamed.txt' });
    assert.equal(r.name, 'deep renamed.txt');
    assert.equal((await client().kbNodes.update(doc.id, { name: 'deep renamed.txt' })).name, 'deep renamed.txt');
    await assert.rejects(client().kbNodes.update(doc2.id, { name: 'deep renamed.txt' }), ConflictError);
    await assert.rejects(client().folders.rename(a.id, 'bad/name'), (e: unknown) => e instanceof BadRequestError && e.field === 'name');
    // The folders route is for folders: a document id is "folder not found".
    await assert.rejects(client().folders.rename(doc.id, 'x'), (e: unknown) => e instanceof NotFoundError && e.message.includes(doc.id));
    await assert.rejects(
      client().folders.rename('gone-id', 'x'),
      (e: unknown) => e instanceof NotFoundError && e.message.includes('gone-id'),
    );
  });

  it('updates hashtags and properties (only the fields given), and lists hashtags in use with counts', async () => {
    const doc = await upload('tags.txt', 'Tagged text.');
    const updated = (await client().kbNodes.setHashtags(doc.id, ['#経費', '＃policy', 'policy', ' hr '])) as FileNode;
    assert.deepEqual(updated.hashtags, ['経費', 'policy', 'hr']);
    assert.equal(updated.name, 'tags.txt', 'the name stays');
    const withProps = (await client().kbNodes.update(doc.id, { properties: [{ key: 'owner', value: 'HR' }] })) as FileNode;
    assert.deepEqual(withProps.hashtags, ['経費', 'policy', 'hr'], 'hashtags stay');
    assert.deepEqual(withProps.properties, [{ key: 'owner', value: 'HR' }]);
    await client().faq.register({ question: 'How do I claim 経費?', answer: 'Use the form.', status: 'on', hashtags: ['経費'] });
    const tags = await client().hashtags.inUse();
    const count = (tag: string) => tags.find((t) => t.tag === tag)?.count;
    assert.equal(count('経費'), 2, 'one document and one Q&A');
    assert.equal(count('policy'), 1);
    assert.ok(
      tags.every((t, i) => i === 0 || tags[i - 1].count >= t.count),
      'most used first',
    );
    await assert.rejects(
      client().kbNodes.update(doc.id, {}),
      (e: unknown) => e instanceof BadRequestError && /at least one of name, hashtags, properties/.test(e.message),
    );
    await assert.rejects(
      client().kbNodes.setHashtags(doc.id, ['x'.repeat(201)]),
      (e: unknown) => e instanceof BadRequestError && e.field === 'hashtags.0',
    );
    const folder = await client().folders.create({ name: 'No tags here' });
    await assert.rejects(
      client().kbNodes.setHashtags(folder.id, ['a']),
      (e: unknown) => e instanceof BadRequestError && e.field === 'hashtags',
    );
    await assert.rejects(
      client().kbNodes.setHashtags('missing-node', ['a']),
      (e: unknown) => e instanceof NotFoundError && e.message.includes('missing-node'),
    );
  });

  it('deletes a folder with its documents, saying how many; a node deleted meanwhile is a 404 naming it', async () => {
    const f = await client().folders.create({ name: 'To delete' });
    const sub = await client().folders.create({ name: 'Inner', parentFolderId: f.id });
    await upload('one.txt', 'one', f.id);
    await upload('two.txt', 'two', sub.id);
    await upload('three.txt', 'three', sub.id);
    assert.deepEqual(await client().folders.contents(f.id), { documents: 3, folders: 1, complete: true });
    const result = await client().folders.delete(f.id);
    assert.equal(result.deletedDocuments, 3);
    assert.equal(result.deletedFolders, 2);
    assert.deepEqual(await client().kbNodes.listAll({ searchTerm: 'three' }), []);
    await assert.rejects(client().folders.delete(f.id), (e: unknown) => e instanceof NotFoundError && e.message.includes(f.id));
    await assert.rejects(client().kbNodes.get(sub.id), (e: unknown) => e instanceof NotFoundError && e.message.includes(sub.id));
    await assert.rejects(client().folders.rename(f.id, 'x'), NotFoundError);
    assert.equal(client().offers.isOffered('folders.delete'), true);
  });

  it('turns documents off and on: an off document keeps its place and is not used in retrieval or answers', async () => {
    const doc = await upload('zephyr.txt', 'The Zephyr expense form is due on the fifth business day of each month.');
    const other = await upload('kestrel.txt', 'Kestrel travel requests need approval two weeks ahead.');
    await t.service.processingIdle();
    const ask = async () =>
      (await client().answers.retrieve({ question: 'Zephyr expense form due', maxDocumentClues: 5 })).map((r) => r.kb_id);
    assert.ok((await ask()).includes(doc.id), 'found while on');
    const off = await client().kbNodes.toggle([doc.id, other.id, doc.id], 'off');
    assert.deepEqual(off.updated, [doc.id, other.id]);
    assert.ok(!(await ask()).includes(doc.id), 'not retrieved while off');
    const answer = await client().answers.generate({ query: 'When is the Zephyr expense form due?' });
    assert.ok(!answer.clues.some((c) => c.knowledgeBaseId === doc.id) && answer.documentId !== doc.id, 'not used in answers while off');
    const listed = (await client().kbNodes.get(doc.id)) as FileNode;
    assert.equal(listed.status, 'off', 'keeps its place, marked off');
    await client().kbNodes.toggle([doc.id], 'on');
    assert.ok((await ask()).includes(doc.id), 'found again once on');
    // All or nothing: an unknown id is a 404 naming it, a folder a 400, and nothing changes.
    const folder = await client().folders.create({ name: 'Not a document' });
    await assert.rejects(
      client().kbNodes.toggle([other.id, 'ghost'], 'on'),
      (e: unknown) => e instanceof NotFoundError && e.message.includes('ghost'),
    );
    await assert.rejects(
      client().kbNodes.toggle([other.id, folder.id], 'on'),
      (e: unknown) => e instanceof BadRequestError && e.field === 'ids.1',
    );
    assert.equal(((await client().kbNodes.get(other.id)) as FileNode).status, 'off');
    await assert.rejects(client().kbNodes.toggle([], 'on'), BadRequestError);
    await assert.rejects(
      client().kbNodes.toggle([other.id], 'maybe' as 'on'),
      (e: unknown) => e instanceof BadRequestError && e.field === 'status',
    );
  });

  it('downloads the original, streamed, with its type and name; aborting stops it', async () => {
    const content = 'Ünïcode original ' + 'x'.repeat(200_000);
    const doc = await upload('原本 file.txt', content);
    const d = await client().kbNodes.download(doc.id);
    assert.match(d.contentType, /^text\/plain/);
    assert.equal(d.fileName, '原本 file.txt');
    assert.equal(d.size, Buffer.byteLength(content));
    assert.equal((await readAll(d.body)).toString('utf8'), content);
    const controller = new AbortController();
    const partial = await client().kbNodes.download(doc.id, { signal: controller.signal });
    let got = 0;
    await assert.rejects(
      (async () => {
        for await (const chunk of partial.body) {
          got += chunk.length;
          controller.abort();
        }
      })(),
      (e: unknown) => (e as Error).name === 'ApiAbortError',
    );
    assert.ok(got > 0 && got < Buffer.byteLength(content), `read ${got} bytes before the abort`);
    await assert.rejects(client().kbNodes.download('nope'), (e: unknown) => e instanceof NotFoundError && e.message.includes('nope'));
    const folder = await client().folders.create({ name: 'Cannot download' });
    await assert.rejects(client().kbNodes.download(folder.id), NotFoundError);
  });

  it('gives the parsed text per page once processed, and the processing steps', async () => {
    const doc = await upload('pages.txt', 'First page text about leave.');
    const status0 = await client().kbNodes.ingestionStatus(doc.id);
    assert.equal(status0.steps[0].name, 'upload');
    assert.equal(status0.steps[0].status, 'completed');
    await t.service.processingIdle();
    const pages = await client().kbNodes.text(doc.id);
    assert.deepEqual(pages, [{ pageNo: 1, text: 'First page text about leave.' }]);
    const status = await client().kbNodes.ingestionStatus(doc.id);
    assert.equal(status.status, 'completed');
    assert.equal(ingestionFinished(status.status), true, 'Show Details stops following the steps');
    assert.deepEqual(
      status.steps.map((s) => [s.name, s.status]),
      [
        ['upload', 'completed'],
        ['parsing', 'completed'],
        ['indexing', 'completed'],
      ],
    );
    assert.ok(status.startedAt! <= status.endedAt!, 'times are epoch ms, in order');
    assert.ok(status.elapsed! >= 0);
    await assert.rejects(client().kbNodes.text('nope'), (e: unknown) => e instanceof NotFoundError && e.message.includes('nope'));
    await assert.rejects(
      client().kbNodes.ingestionStatus('nope'),
      (e: unknown) => e instanceof NotFoundError && e.message.includes('nope'),
    );
    const broken = await upload('broken.pdf', 'not a pdf at all');
    await t.service.processingIdle();
    await assert.rejects(client().kbNodes.text(broken.id), (e: unknown) => e instanceof ApiError && e.status === 409);
    const failed = await client().kbNodes.ingestionStatus(broken.id);
    assert.equal(failed.status, 'parsing_fail');
    assert.equal(ingestionFinished(failed.status), true);
    // The cloud's words, known second-hand, in any case; a state on the way is not an end.
    for (const s of ['POST_COMPLETED', 'Failed', 'done', 'success']) assert.equal(ingestionFinished(s), true, s);
    for (const s of ['initializing', 'parsing', 'post_parsing', 'retrying', 'unknown']) assert.equal(ingestionFinished(s), false, s);
    assert.equal(failed.steps[1].status, 'failed');
  });

  it('checks a key with the project call; a bad key is an AuthenticationError', async () => {
    assert.equal(await client().projects.checkKey({ maxRetries: 0 }), 'projects.current');
    await assert.rejects(
      t.client({ apiKey: 'wrong' }).projects.checkKey({ maxRetries: 0 }),
      (e: unknown) => e instanceof ApiError && e.status === 401,
    );
  });

  it('moving a folder into itself fails for that folder only', async () => {
    const a = await client().folders.create({ name: 'Loop A' });
    const b = await client().folders.create({ name: 'Loop B', parentFolderId: a.id });
    const res = await client().kbNodes.moveBulk({ targetFolderId: b.id, nodeIds: [a.id], keepCurrentPermission: true });
    assert.deepEqual(res, { moved_kb_node_ids: [], failed_kb_node_ids: [a.id] });
    const self = await client().kbNodes.moveBulk({ targetFolderId: a.id, nodeIds: [a.id], keepCurrentPermission: true });
    assert.deepEqual(self.failed_kb_node_ids, [a.id]);
    const nodes: KbNode[] = await client().kbNodes.listAll({ parentFolderIds: [a.id] });
    assert.deepEqual(
      nodes.map((n) => n.id),
      [b.id],
    );
  });
});
