// Promote between connections (issue 27) in the real host: the active Local connection and a second local project
// added as a connection. Copy Q&As and a folder of documents, preview, apply; a second run finds them the same
// (nothing copied twice).
import * as assert from 'node:assert/strict';
import type { ApiClient } from '../../src/api/client';
import type { PromoteResult } from '../../src/features/promote/promoteFlow';
import { faqStatus } from '../../src/api/values';
import { CommandIds } from '../../src/platform/commandIds';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import { getApi, resetWorkbench, runCommand, useService } from './support/host';
import { startSecondProject, type SecondProject } from './support/secondProject';

describe('Promote between connections (real host, two local projects)', function () {
  this.timeout(240_000);
  let api: KnowledgeDeskTestApi;
  let local: ApiClient;
  let second: SecondProject;
  let secondClient: ApiClient;
  let connectionName: string;

  before(async () => {
    api = await getApi();
    local = await useService(api);
    second = await startSecondProject(api, 'kd-promote-second-');
    secondClient = second.client;
    connectionName = `Second promote ${Date.now().toString(36)}`;
    const added = await api.connection.store.add(connectionName, { kind: 'custom', baseUrl: second.url, nluUrl: second.url });
    await api.secrets.store('apiKey', added.id, second.apiKey);
  });

  after(async () => {
    const store = api.connection.store;
    for (const c of [...store.connections]) if (c.name.startsWith('Second promote')) await store.remove(c.id);
    await second.dispose();
    await resetWorkbench(api);
  });

  it('copies picked Q&As with hashtags, status and folder; a second run finds them the same, with no duplicate', async () => {
    const tag = `pr${Date.now().toString(36)}`;
    const q = (n: number) => `Promote ${tag} question ${n}?`;
    const one = await local.faq.register({ question: q(1), answer: 'One', status: 'off', hashtags: [tag], folder: `F ${tag}` });
    const two = await local.faq.register({ question: q(2), answer: 'Two', status: 'on', hashtags: [tag] });
    await secondClient.faq.register({ question: q(2), answer: 'Old two', status: 'on', hashtags: [] });
    const rows = (ids: string[]) => ids.map((id) => ({ kind: 'qa', item: { id, question: id === one.id ? q(1) : q(2) } }));
    const seen: string[] = [];
    const result = (await runCommand(
      api,
      CommandIds.promote.copyQnas,
      [
        connectionName,
        (p: { items?: readonly { label: string; detail?: string; picked?: boolean }[]; options: unknown }) => {
          seen.push((p.options as { title: string }).title, ...p.items!.map((i) => `${i.label}|${i.detail ?? ''}|${i.picked ?? ''}`));
          return p.items!.filter((i) => i.picked).map((i) => i.label);
        },
      ],
      undefined,
      rows([one.id, two.id]),
    )) as PromoteResult;
    assert.ok(seen[0].includes(connectionName), seen[0]);
    assert.ok(seen.includes(`${q(1)}||true`), seen.join('\n'));
    assert.ok(
      seen.some((s) => s.startsWith(`${q(2)}|answer changed; hashtags`)),
      seen.join('\n'),
    );
    assert.deepEqual(
      [...result.outcomes.values()].map((o) => o.status),
      ['done', 'done'],
    );
    const copied = (await secondClient.faq.list({ limit: 100 })).results.filter((r) => r.question.includes(tag));
    assert.equal(copied.length, 2);
    const detail = await secondClient.faq.get(copied.find((r) => r.question === q(1))!.id);
    assert.deepEqual([faqStatus(detail), detail.folder, detail.hashtags], ['off', `F ${tag}`, [tag]]);

    // Again: the same, nothing to pick, nothing sent.
    const again = await runCommand(api, CommandIds.promote.copyQnas, [connectionName], undefined, rows([one.id, two.id]));
    assert.equal(again, undefined, 'no preview when both are the same');
    assert.equal((await secondClient.faq.list({ limit: 100 })).results.filter((r) => r.question.includes(tag)).length, 2, 'no duplicate');
  });

  it('copies a folder of documents to the same place, creating the folder; a second run is the same', async () => {
    const tag = `pd${Date.now().toString(36)}`;
    const folder = await local.folders.create({ name: `Promote ${tag}` });
    await local.kbNodes.upload({
      file: { data: 'Alpha text.' },
      fileName: 'alpha.txt',
      targetFolderId: folder.id,
      hashtags: [tag],
      isOverwrite: true,
    });
    await local.kbNodes.upload({ file: { data: 'Beta text.' }, fileName: 'beta.txt', targetFolderId: folder.id, isOverwrite: true });
    const row = { kind: 'node', node: await local.kbNodes.get(folder.id), parentKey: 'root' };
    const result = (await runCommand(
      api,
      CommandIds.promote.copyDocuments,
      [
        connectionName,
        (p: { items?: readonly { label: string; picked?: boolean }[] }) => p.items!.filter((i) => i.picked).map((i) => i.label),
      ],
      row,
      [row],
    )) as PromoteResult;
    assert.deepEqual([...result.outcomes.keys()].sort(), [`Promote ${tag}/alpha.txt`, `Promote ${tag}/beta.txt`]);
    const there = (await secondClient.kbNodes.listAll({ parentFolderIds: [null] })).find((n) => n.name === `Promote ${tag}`);
    assert.ok(there, 'the folder was created in the target');
    const files = await secondClient.kbNodes.listAll({ parentFolderIds: [there.id] });
    assert.deepEqual(files.map((f) => f.name).sort(), ['alpha.txt', 'beta.txt']);
    const again = await runCommand(api, CommandIds.promote.copyDocuments, [connectionName], row, [row]);
    assert.equal(again, undefined, 'the same after the copy');
  });
});
