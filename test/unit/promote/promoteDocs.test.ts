// Promote documents between two projects (two local services): a folder with a subfolder, copied to the same
// place in the target (folders created on the way), hashtags and on/off carried; content compared by hash.
import assert from 'node:assert/strict';
import { applyDocItems } from '../../../src/api/promote/applyDocs';
import { PromoteRefusedError } from '../../../src/api/promote/promoteErrors';
import { compareProjectDocs, rootOf } from '../../../src/api/promote/readDocs';
import { ApiClient } from '../../../src/api/client';
import { OfferMemory } from '../../../src/api/offers';
import { closeCannedServers, startCannedServer } from '../support/cannedServer';
import { startTestService, type TestService } from '../support/localService';

describe('Promote documents between two projects (two local services)', () => {
  let a: TestService;
  let b: TestService;
  let source: ApiClient;
  let target: ApiClient;
  beforeEach(async () => {
    [a, b] = await Promise.all([startTestService({ fsync: false }), startTestService({ fsync: false })]);
    [source, target] = [a.client(), b.client()];
  });
  afterEach(async () => {
    await Promise.all([a.stop(), b.stop()]);
    await closeCannedServers();
  });

  const upload = async (client: ApiClient, name: string, text: string, folderId?: string, hashtags: string[] = []) =>
    (
      await client.kbNodes.upload({
        file: { data: text },
        fileName: name,
        hashtags,
        isOverwrite: true,
        ...(folderId ? { targetFolderId: folderId } : {}),
      })
    )[0];

  it('copies a folder to the same place, creating folders; same after; a changed file by content; only-in-target deleted only when asked', async () => {
    const top = await source.folders.create({ name: 'Policies' });
    const hr = await source.folders.create({ name: 'HR', parentFolderId: top.id });
    const leave = await upload(source, 'leave.txt', 'Twenty days of leave.', hr.id, ['hr']);
    await upload(source, 'travel.txt', 'Economy class.', top.id);
    await source.kbNodes.toggle([leave.id], 'off');
    const targetTop = await target.folders.create({ name: 'Policies' });
    await upload(target, 'old.txt', 'Only here.', targetTop.id);

    const roots = [rootOf(await source.kbNodes.get(top.id))];
    const cmp = await compareProjectDocs(source, target, roots);
    assert.deepEqual(cmp.map((i) => [i.kind, i.path]).sort(), [
      ['new', 'Policies/HR/leave.txt'],
      ['new', 'Policies/travel.txt'],
      ['onlyInTarget', 'Policies/old.txt'],
    ]);
    const out = await applyDocItems(source, target, cmp);
    assert.deepEqual([out.copied, out.deleted, out.failed], [2, 0, 0], 'nothing deleted unless asked');

    const hrThere = (await target.kbNodes.listAll({ parentFolderIds: [targetTop.id] })).find((n) => n.name === 'HR')!;
    const copied = (await target.kbNodes.listAll({ parentFolderIds: [hrThere.id] }))[0];
    assert.ok(copied && copied.nodeType === 'file');
    assert.deepEqual([copied.name, copied.hashtags, copied.status], ['leave.txt', ['hr'], 'off'], 'hashtags and on/off carried');

    const again = await compareProjectDocs(source, target, roots);
    assert.deepEqual(again.map((i) => i.kind).sort(), ['onlyInTarget', 'same', 'same']);

    // Same size, other content, changed in the source after the copy: the content hash tells.
    await upload(source, 'travel.txt', 'Business class', top.id);
    const changed = await compareProjectDocs(source, target, roots);
    assert.deepEqual(changed.find((i) => i.path === 'Policies/travel.txt')?.changes, ['content']);
    const second = await applyDocItems(source, target, changed, { deleteOnlyInTarget: true });
    assert.deepEqual([second.copied, second.deleted, second.failed], [1, 1, 0]);
    assert.deepEqual(
      (await compareProjectDocs(source, target, roots)).map((i) => i.kind),
      ['same', 'same'],
    );
    assert.equal((await target.kbNodes.listAll({ parentFolderIds: [targetTop.id] })).length, 2, 'HR and travel.txt: no copy with a suffix');
  });

  it('a target that cannot create folders (405) fails the items with a message naming the target', async () => {
    const top = await source.folders.create({ name: 'New folder' });
    await upload(source, 'a.txt', 'A', top.id);
    const canned = await startCannedServer((req) =>
      req.url.startsWith('/webapi/v2/knowledge_base_nodes/search')
        ? { body: { result: { nodes: [], total: 0 } } }
        : { status: 405, body: { errors: 'Method Not Allowed' } },
    );
    const missing = new ApiClient({ baseUrl: canned.url, apiKey: 'k', retry: { maxRetries: 0 }, offerMemory: new OfferMemory() });
    const cmp = await compareProjectDocs(source, missing, [rootOf(await source.kbNodes.get(top.id))]);
    const out = await applyDocItems(source, missing, cmp);
    const outcome = out.outcomes.get('New folder/a.txt');
    assert.ok(outcome?.status === 'failed');
    assert.match(outcome.message, /^The target project does not offer POST \/webapi\/v2\/folders/);
    await assert.rejects(compareProjectDocs(source, a.client(), []), PromoteRefusedError, 'the same project is refused');
  });
});
