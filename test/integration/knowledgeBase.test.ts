import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../src/extension';
import type { FileNode, KbNode } from '../../src/api/schemas/kbNodes';
import type { KbElement, NodeElement } from '../../src/features/knowledgeBase/kbTreeModel';
import { getApi, runCommand, screenshot, waitFor, useService } from './support/host';

const ws = (): vscode.Uri => vscode.workspace.workspaceFolders![0].uri;
const doc = (...parts: string[]): vscode.Uri => vscode.Uri.joinPath(ws(), 'docs', ...parts);

const run = runCommand;

async function children(api: KnowledgeDeskTestApi, parent?: KbElement): Promise<KbElement[]> {
  return api.features.knowledgeBase.tree.getChildren(parent);
}

async function nodeNamed(api: KnowledgeDeskTestApi, name: string, parent?: KbElement): Promise<NodeElement> {
  const found = (await children(api, parent)).find((e): e is NodeElement => e.kind === 'node' && e.node.name === name);
  assert.ok(found, `${name} is not in the tree`);
  return found;
}

async function remote(api: KnowledgeDeskTestApi, searchTerm: string): Promise<KbNode[]> {
  const client = await api.container.connection.getClient();
  return (await client.kbNodes.search({ searchTerm, limit: 100 })).nodes;
}

describe('Knowledge Base view (real extension host, local service)', () => {
  let api: KnowledgeDeskTestApi;
  before(async () => {
    api = await getApi();
    await vscode.workspace
      .getConfiguration('knowledgeDesk')
      .update('identity.agentEmail', 'taro.yamada@xn--r8jz45g.jp', vscode.ConfigurationTarget.Global);
    await useService(api);
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
  });

  it('uploads workspace files from the Explorer menu (multi-select) and shows them processed in the tree', async () => {
    const files = [doc('guide.md'), doc('handbook.pdf'), doc('release-notes.html'), doc('議事録 #3 100%.md')];
    await run(api, 'knowledgeDesk.uploadToKnowledgeBase', ['Top level', '#docs onboarding'], files[0], files);
    const batch = api.features.knowledgeBase.lastBatch!;
    const outcomes = [...batch.report.outcomes.values()];
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'done' ? o.action : o.status)),
      ['created', 'created', 'created', 'created'],
    );
    await waitFor(
      async () => {
        const nodes = await remote(api, '');
        return ['guide.md', 'handbook.pdf', 'release-notes.html', '議事録 #3 100%.md'].every((n) =>
          nodes.some((m) => m.name === n && (m as FileNode).processState === 'completed'),
        );
      },
      'all four documents processed on the service',
      30_000,
    );
    const handbook = await waitFor(
      async () => {
        const el = await nodeNamed(api, 'handbook.pdf');
        return (el.node as FileNode).processState === 'completed' ? el : undefined;
      },
      'the tree badge of handbook.pdf to reach completed (watcher)',
      30_000,
    );
    assert.deepEqual((handbook.node as FileNode).hashtags, ['docs', 'onboarding']);
    const item = api.features.knowledgeBase.tree.getTreeItem(handbook);
    assert.match(String(item.description), /^ready · \d+(\.\d)? KB$/);
    assert.equal(item.contextValue, 'kbFile');
    const tip = (item.tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ').replace(/\\/g, '');
    assert.match(tip, /#docs #onboarding/);
    assert.match(tip, /by Taro Yamada <taro\.yamada@xn--r8jz45g\.jp>/, 'creator from AGENT-EMAIL');
    await api.features.knowledgeBase.view.reveal(handbook, { select: true, focus: true });
    await screenshot('kb-tree-uploaded');
  });

  it('uploads a folder as a new knowledge-base folder, then syncs it again with every file skipped', async () => {
    await run(api, 'knowledgeDesk.uploadToKnowledgeBase', ['Top level', 'Upload as a new folder', ''], doc('team'), [doc('team')]);
    const team = await nodeNamed(api, 'team');
    assert.deepEqual((await children(api, team)).map((e) => (e.kind === 'node' ? e.node.name : e.kind)).sort(), [
      'roster.md',
      'setup.docx',
    ]);
    await run(api, 'knowledgeDesk.uploadToKnowledgeBase', ['team', 'Sync into "team"', '', 'Overwrite'], doc('team'), [doc('team')]);
    const outcomes = [...api.features.knowledgeBase.lastBatch!.report.outcomes.values()];
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'done' ? o.action : o.status)),
      ['skipped', 'skipped'],
    );
  });

  it('accepts files dropped from the Explorer onto a folder', async () => {
    const team = await nodeNamed(api, 'team');
    const data = new vscode.DataTransfer();
    data.set('text/uri-list', new vscode.DataTransferItem(`# dropped\r\n${doc('guide.md').toString()}\r\n`));
    await api.features.knowledgeBase.dnd.handleDrop(team, data, new vscode.CancellationTokenSource().token);
    await waitFor(async () => (await children(api, team)).some((e) => e.kind === 'node' && e.node.name === 'guide.md'), 'guide.md in team');
  });

  it('shows why a broken document failed, with an error badge', async () => {
    await run(api, 'knowledgeDesk.uploadToKnowledgeBase', ['Top level', ''], doc('broken.pdf'), [doc('broken.pdf')]);
    const failed = await waitFor(
      async () => {
        const el = await nodeNamed(api, 'broken.pdf');
        return (el.node as FileNode).processState === 'parsing_fail' ? el : undefined;
      },
      'broken.pdf to fail processing',
      30_000,
    );
    const item = api.features.knowledgeBase.tree.getTreeItem(failed);
    assert.equal(item.contextValue, 'kbFile.failed');
    assert.match((item.tooltip as vscode.MarkdownString).value, /not a valid PDF|damaged|could not be read/i);
    const badge = api.features.knowledgeBase.tree.provideFileDecoration(item.resourceUri!);
    assert.equal(badge?.badge, '!');
  });

  it('replaces a document file keeping its hashtags, and it is processed again', async () => {
    const guide = await nodeNamed(api, 'guide.md');
    // Elements are stable objects updated in place: keep the values from before.
    const before = { id: guide.node.id, updatedAt: guide.node.updatedAt, size: (guide.node as FileNode).size };
    await run(api, 'knowledgeDesk.kb.replaceFile', [[doc('議事録 #3 100%.md')], 'Replace'], guide);
    const replaced = await waitFor(
      async () => {
        const el = await nodeNamed(api, 'guide.md');
        return (el.node as FileNode).processState === 'completed' && el.node.updatedAt > before.updatedAt ? el : undefined;
      },
      'guide.md replaced and processed',
      30_000,
    );
    assert.equal(replaced.node.id, before.id);
    assert.deepEqual((replaced.node as FileNode).hashtags, ['docs', 'onboarding']);
    assert.notEqual((replaced.node as FileNode).size, before.size);
  });

  it('moves a document into a folder by quick pick, and drags it back', async () => {
    const notes = await nodeNamed(api, '議事録 #3 100%.md');
    await run(api, 'knowledgeDesk.kb.move', ['team'], notes, [notes]);
    const team = await nodeNamed(api, 'team');
    const moved = await nodeNamed(api, '議事録 #3 100%.md', team);
    assert.deepEqual(
      moved.node.breadcrumbs.map((b) => b.name),
      ['team'],
    );
    const data = new vscode.DataTransfer();
    data.set('application/vnd.code.tree.knowledgedesk.knowledgebase', new vscode.DataTransferItem([moved.node.id]));
    await api.features.knowledgeBase.dnd.handleDrop(undefined, data, new vscode.CancellationTokenSource().token);
    await nodeNamed(api, '議事録 #3 100%.md');
  });

  it('searches on the service across folders, shows where each match lives, and clears', async () => {
    await run(api, 'knowledgeDesk.kb.search', ['roster']);
    const results = await children(api);
    assert.deepEqual(
      results.map((e) => (e.kind === 'node' ? e.node.name : e.kind)),
      ['roster.md'],
    );
    assert.match(String(api.features.knowledgeBase.tree.getTreeItem(results[0]).description), /team$/);
    assert.equal(api.features.knowledgeBase.view.description, '"roster"');
    await run(api, 'knowledgeDesk.kb.search', ['no such thing anywhere']);
    assert.deepEqual(
      (await children(api)).map((e) => e.kind),
      ['message'],
    );
    await run(api, 'knowledgeDesk.kb.clearFilter', []);
    assert.equal(api.features.knowledgeBase.view.description, undefined);
    assert.ok((await children(api)).length >= 5);
  });

  it('pages a big folder with Load more and keeps the loaded pages on refresh', async function () {
    this.timeout(120_000);
    const client = await api.container.connection.getClient();
    const [folder] = await client.kbNodes.upload({ file: { data: await zipBuffer(60) }, fileName: 'bulk.zip' });
    await api.features.knowledgeBase.tree.refresh();
    const bulk = await nodeNamed(api, 'bulk');
    assert.equal(bulk.node.id, folder.id);
    let kids = await children(api, bulk);
    assert.equal(kids.filter((e) => e.kind === 'node').length, 50);
    const more = kids.at(-1)!;
    assert.equal(more.kind, 'loadMore');
    assert.match(api.features.knowledgeBase.tree.getTreeItem(more).label as string, /Load more… \(50 of 60\)/);
    await vscode.commands.executeCommand('knowledgeDesk.kb.loadMore', more);
    kids = await children(api, bulk);
    assert.equal(kids.filter((e) => e.kind === 'node').length, 60);
    assert.ok(!kids.some((e) => e.kind === 'loadMore'), 'no Load more once the last page is loaded');
    await vscode.commands.executeCommand('knowledgeDesk.kb.refresh');
    assert.equal((await children(api, bulk)).filter((e) => e.kind === 'node').length, 60, 'refresh dropped loaded pages');
  });

  it("deletes after confirmation, and shows a document's details", async () => {
    const broken = await nodeNamed(api, 'broken.pdf');
    await run(api, 'knowledgeDesk.kb.showDetails', [], broken);
    // Shown as a rendered Markdown preview; its source document is open behind it.
    const details = await waitFor(
      () => vscode.workspace.textDocuments.find((d) => d.uri.path.includes(broken.node.id)),
      'details document',
    );
    assert.match(details.getText(), /\| Processing \| failed \(`parsing_fail`\)/);
    await screenshot('kb-details');
    await run(api, 'knowledgeDesk.kb.delete', [undefined /* cancel */], broken, [broken]);
    assert.ok((await remote(api, 'broken')).length === 1, 'cancel must not delete');
    await run(api, 'knowledgeDesk.kb.delete', ['Delete'], broken, [broken]);
    assert.equal((await remote(api, 'broken')).length, 0);
  });
});

async function zipBuffer(n: number): Promise<Uint8Array> {
  const yazl = await import('yazl');
  const zip = new yazl.ZipFile();
  for (let i = 0; i < n; i++) zip.addBuffer(Buffer.from(`Item ${i}`), `item-${String(i).padStart(3, '0')}.txt`);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
