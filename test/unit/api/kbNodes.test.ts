import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../../../src/api/errors';
import type { FileNode, KbNode } from '../../../src/api/schemas/kbNodes';
import { isFileNode } from '../../../src/api/values';
import { startTestService, type TestService } from '../support/localService';
import { zipOf } from '../support/zip';

const text = (s: string) => ({ data: s, contentType: 'text/plain' });

describe('Knowledge base operations against the local service', () => {
  let t: TestService;
  let dir: string;
  let keihiId = '';
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kd-kb-'));
    t = await startTestService({ maxUploadBytes: 64 * 1024, allowedRoots: [dir] });
  });
  after(async () => {
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const client = () => t.client({ identity: { agentEmail: 'hanako.sato@example.co.jp' } });
  const file = async (name: string, parent?: string): Promise<FileNode> => {
    const page = await client().kbNodes.search({ parentFolderIds: [parent ?? null], limit: 100 });
    const node = page.nodes.find((n) => n.name === name);
    assert.ok(node && isFileNode(node), `${name} not found`);
    return node as FileNode;
  };

  it('creates a document with every optional field, then processes it to completed', async () => {
    const [node] = await client().kbNodes.upload({
      file: text('Paid leave: new employees get 10 days in their first year.'),
      fileName: 'leave policy.txt',
      hashtags: ['hr', '#policy'],
      properties: [{ key: 'owner', value: 'HR' }],
      accessAgents: [{ agentId: 'agent-1', accessType: 'order_1_editor' }],
      accessPermissionGroups: [{ permissionGroupId: 'grp-1', accessType: 'order_2_reader' }],
      accessUserFilters: [{ variableName: 'CUSTOMER_GROUP', value: 'staff' }],
      viewAccessToAgent: true,
      viewAccessToUser: true,
      notificationHooks: ['email_on_ingestion_complete'],
      useOcr: false,
    });
    assert.ok(isFileNode(node));
    assert.equal(node.action, 'created');
    assert.equal(node.processState, 'initializing');
    assert.deepEqual(node.hashtags, ['hr', 'policy']);
    assert.deepEqual(node.properties, [{ key: 'owner', value: 'HR' }]);
    assert.deepEqual(node.agentPermission.accessAgents, [{ agentId: 'agent-1', accessType: 'order_1_editor' }]);
    assert.equal(node.agentPermission.accessPermissionGroups?.[0].permissionGroupId, 'grp-1');
    assert.deepEqual(node.userPermission.customerGroups, ['staff']);
    assert.equal(node.userPermission.viewAccessToUser, true);
    assert.equal(node.createdBy?.email, 'hanako.sato@example.co.jp');
    assert.equal(node.size, Buffer.byteLength('Paid leave: new employees get 10 days in their first year.'));
    assert.deepEqual(node.breadcrumbs, []);
    assert.equal(node.parentFolder, undefined);
    await t.service.processingIdle();
    const after = await file('leave policy.txt');
    assert.equal(after.processState, 'completed');
    assert.equal(after.action, undefined, 'action is set only on upload responses');
  });

  it('answers an identical file with skipped, a changed one with suffix_added or overwritten', async () => {
    const original = await file('leave policy.txt');
    const [skipped] = await client().kbNodes.upload({
      file: text('Paid leave: new employees get 10 days in their first year.'),
      fileName: 'leave policy.txt',
      isOverwrite: true,
    });
    assert.equal(skipped.id, original.id);
    assert.equal((skipped as FileNode).action, 'skipped');
    const [copy] = await client().kbNodes.upload({ file: text('Paid leave: 12 days.'), fileName: 'leave policy.txt' });
    assert.equal((copy as FileNode).action, 'suffix_added');
    assert.equal(copy.name, 'leave policy (1).txt');
    assert.notEqual(copy.id, original.id);
    const [over] = await client().kbNodes.upload({ file: text('Paid leave: 15 days.'), fileName: 'leave policy.txt', isOverwrite: true });
    assert.equal((over as FileNode).action, 'overwritten');
    assert.equal(over.id, original.id);
    assert.equal((over as FileNode).size, Buffer.byteLength('Paid leave: 15 days.'));
    assert.deepEqual((over as FileNode).hashtags, ['hr', 'policy'], 'overwrite without hashtags keeps them');
  });

  it('turns a ZIP into a new folder holding its entries, nested folders kept', async () => {
    const data = await zipOf({
      'guide/intro.md': '# Intro\nHello',
      'guide/部署/経費.txt': '経費は14日以内に申請します。',
      'top.txt': 'top level',
    });
    const nodes = await client().kbNodes.upload({ file: { data }, fileName: 'handbook.zip', hashtags: ['zip'] });
    const folder = nodes[0];
    assert.equal(folder.nodeType, 'folder');
    assert.equal(folder.name, 'handbook');
    assert.deepEqual(
      nodes
        .slice(1)
        .map((n) => n.name)
        .sort(),
      ['intro.md', 'top.txt', '経費.txt'],
    );
    const deep = nodes.find((n) => n.name === '経費.txt')!;
    keihiId = deep.id;
    assert.deepEqual(
      deep.breadcrumbs.map((b) => b.name),
      ['handbook', 'guide', '部署'],
    );
    assert.equal(deep.parentFolder?.name, '部署');
    assert.ok(nodes.slice(1).every((n) => (n as FileNode).action === 'created' && (n as FileNode).hashtags.includes('zip')));
    const again = await client().kbNodes.upload({ file: { data }, fileName: 'handbook.zip' });
    assert.equal(again[0].name, 'handbook (1)', 'a ZIP always creates a fresh folder');
  });

  it('replaces a file keeping hashtags, permissions and properties, and processes it again', async () => {
    const before = await file('leave policy.txt');
    const replaced = (await client().kbNodes.replace(
      before.id,
      { data: 'Completely new content about leave.', fileName: 'new.txt' },
      { resetClueFeedbacks: true },
    )) as FileNode;
    assert.equal(replaced.id, before.id);
    assert.equal(replaced.name, 'leave policy.txt');
    assert.deepEqual(replaced.hashtags, before.hashtags);
    assert.deepEqual(replaced.properties, before.properties);
    assert.deepEqual(replaced.agentPermission, before.agentPermission);
    assert.equal(replaced.size, Buffer.byteLength('Completely new content about leave.'));
    assert.equal(replaced.processState, 'initializing');
    await t.service.processingIdle();
    assert.equal((await file('leave policy.txt')).processState, 'completed');
    const missing = await client()
      .kbNodes.replace('no-such-node', { data: 'x', fileName: 'x.txt' })
      .catch((e) => e);
    assert.ok(missing instanceof NotFoundError, inspect(missing));
  });

  it('moves nodes in bulk, reporting unknown ids and a folder moved into its own subtree', async () => {
    const handbook = (await client().kbNodes.search()).nodes.find((n) => n.name === 'handbook')!;
    const guide = (await client().kbNodes.search({ parentFolderIds: [handbook.id] })).nodes.find((n) => n.name === 'guide')!;
    const doc = await file('leave policy (1).txt');
    const result = await client().kbNodes.moveBulk({
      targetFolderId: guide.id,
      nodeIds: [doc.id, 'nope', handbook.id],
      keepCurrentPermission: true,
    });
    assert.deepEqual(result.moved_kb_node_ids, [doc.id]);
    assert.deepEqual(result.failed_kb_node_ids.sort(), [handbook.id, 'nope'].sort());
    const moved = await file('leave policy (1).txt', guide.id);
    assert.deepEqual(
      moved.breadcrumbs.map((b) => b.name),
      ['handbook', 'guide'],
    );
    assert.equal(moved.parentFolder?.id, guide.id);
    const back = await client().kbNodes.moveBulk({ targetFolderId: null, nodeIds: [guide.id], keepCurrentPermission: false });
    assert.deepEqual(back.moved_kb_node_ids, [guide.id]);
    const deep = await client().kbNodes.search({ parentFolderIds: [null], searchTerm: '経費' });
    assert.deepEqual(
      deep.nodes.find((n) => n.id === keihiId)?.breadcrumbs.map((b) => b.name),
      ['guide', '部署'],
      'breadcrumbs follow a moved ancestor',
    );
    const badTarget = await client()
      .kbNodes.moveBulk({ targetFolderId: 'nope', nodeIds: [doc.id], keepCurrentPermission: true })
      .catch((e) => e);
    assert.ok(badTarget instanceof BadRequestError && badTarget.field === 'targetFolderId', inspect(badTarget));
  });

  it('searches names across folders, filters hashtags with and/or and node type, pages with total', async () => {
    const zipTagged = await client().kbNodes.search({ searchTerm: '.txt', hashtags: ['zip'] });
    assert.deepEqual(zipTagged.nodes.map((n) => n.name).sort(), ['top.txt', '経費.txt', '経費.txt'].slice(0, zipTagged.total).sort());
    const both = await client().kbNodes.search({ hashtags: ['hr', 'policy'], hashtagsOperator: 'and' });
    assert.ok(both.nodes.every((n) => (n as FileNode).hashtags.includes('hr') && (n as FileNode).hashtags.includes('policy')));
    assert.ok(both.total! >= 1);
    const folders = await client().kbNodes.search({ nodeType: ['folder'] });
    assert.ok(folders.nodes.length > 0 && folders.nodes.every((n) => n.nodeType === 'folder'));
    const page1 = await client().kbNodes.search({ limit: 2, offset: 0, order: 'name_asc' });
    const page2 = await client().kbNodes.search({ limit: 2, offset: 2, order: 'name_asc' });
    assert.equal(page1.total, page2.total);
    assert.equal(page1.nodes.length, 2);
    assert.ok(!page2.nodes.some((n) => page1.nodes.some((m) => m.id === n.id)), 'pages overlap');
    const missing = await client()
      .kbNodes.search({ parentFolderIds: ['no-such-folder'] })
      .catch((e) => e);
    assert.ok(missing instanceof NotFoundError, inspect(missing));
  });

  it('refuses bad names with 400 and over-limit files with 413, leaving nothing behind', async () => {
    for (const name of ['a/b.txt', '..', 'tab\there.txt', `${'長'.repeat(90)}.txt`, ' ']) {
      const error = await client()
        .kbNodes.upload({ file: text('x'), fileName: name })
        .catch((e) => e);
      assert.ok(error instanceof BadRequestError, `${name}: ${inspect(error)}`);
      assert.equal(error.field, 'fileName');
    }
    const before = (await client().kbNodes.search({ searchTerm: 'big' })).total;
    const big = await client()
      .kbNodes.upload({ file: { data: Buffer.alloc(70 * 1024, 1) }, fileName: 'big.bin' })
      .catch((e) => e);
    assert.ok(big instanceof PayloadTooLargeError, inspect(big));
    assert.match(big.message, /upload limit of 64 KB/);
    assert.equal((await client().kbNodes.search({ searchTerm: 'big' })).total, before);
    assert.deepEqual(await readdir(path.join(t.dir, 'blobs', 'tmp')), [], 'a temp file was left behind');
  });

  it('keeps names with Japanese, #, %, spaces exactly', async () => {
    for (const name of ['議事録 2026#3 100%.md', 'a%20b.txt', '#hash.txt']) {
      const [node] = await client().kbNodes.upload({ file: text(`content of ${name}`), fileName: name });
      assert.equal(node.name, name);
    }
  });

  it('uploads from a file:// URL inside the allowed folders and refuses anything else clearly', async () => {
    const source = path.join(dir, 'cloud doc.md');
    await writeFile(source, '# From the cloud\nStored on disk.');
    const node = await client().kbNodes.uploadFromCloudStore({
      bucketObjectPath: pathToFileURL(source).toString(),
      fileName: 'cloud doc.md',
      hashtags: ['cloud'],
    });
    assert.equal(node.name, 'cloud doc.md');
    assert.deepEqual((node as FileNode).hashtags, ['cloud']);
    const s3 = await client()
      .kbNodes.uploadFromCloudStore({ bucketObjectPath: 's3://bucket/key.pdf', fileName: 'key.pdf' })
      .catch((e) => e);
    assert.ok(s3 instanceof BadRequestError, inspect(s3));
    assert.equal(s3.field, 'bucketObjectPath');
    assert.match(s3.message, /cannot reach cloud stores/);
    const outside = await client()
      .kbNodes.uploadFromCloudStore({ bucketObjectPath: pathToFileURL('/etc/hostname').toString(), fileName: 'h' })
      .catch((e) => e);
    assert.ok(outside instanceof BadRequestError);
    assert.match(outside.message, /outside the folders/);
    const blob = await client().kbNodes.uploadFromBlobStorage({
      containerBlobPath: pathToFileURL(source).toString(),
      cloudBlobConnectionString: 'UseDevelopmentStorage=true',
      fileName: 'blob copy.md',
    });
    assert.equal(blob.name, 'blob copy.md');
    const blobS3 = await client()
      .kbNodes.uploadFromBlobStorage({
        containerBlobPath: 'https://acct.blob.core.windows.net/c/x',
        cloudBlobConnectionString: 'x',
        fileName: 'x',
      })
      .catch((e) => e);
    assert.equal(blobS3.field, 'containerBlobPath');
  });

  it('deletes a document and a folder with its contents; an unknown id is not found', async () => {
    const node = await file('a%20b.txt');
    await client().kbNodes.delete(node.id);
    assert.equal((await client().kbNodes.search({ searchTerm: 'a%20b' })).total, 0);
    const folder = (await client().kbNodes.search()).nodes.find((n) => n.name === 'handbook (1)')!;
    await client().kbNodes.delete(folder.id);
    const left = await client().kbNodes.search({ searchTerm: 'intro' });
    assert.ok(left.nodes.every((n: KbNode) => !n.breadcrumbs.some((b) => b.id === folder.id)));
    const missing = await client()
      .kbNodes.delete('no-such-node')
      .catch((e) => e);
    assert.ok(missing instanceof NotFoundError, inspect(missing));
  });
});
