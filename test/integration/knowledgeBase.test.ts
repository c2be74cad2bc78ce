import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { FileNode, KbNode } from '../../src/api/schemas/kbNodes';
import type { KbElement, NodeElement } from '../../src/features/knowledgeBase/kbTreeModel';
import type { BatchResult } from '../../src/features/knowledgeBase/uploadFlow';
import { followUps } from '../../src/features/knowledgeBase/uploadReport';
import type { JobOutcome, UploadJob } from '../../src/api/uploads/uploadRunner';
import { getApi, notificationSelector, resetWorkbench, runCommand, screenshot, useService, waitFor } from './support/host';

/** The last upload batch the knowledge base ran. */
const lastBatch = (api: KnowledgeDeskTestApi): BatchResult => api.knowledgeBase.uploadBatches.last!;

const ws = (): vscode.Uri => vscode.workspace.workspaceFolders![0].uri;
const doc = (...parts: string[]): vscode.Uri => vscode.Uri.joinPath(ws(), 'docs', ...parts);

const run = runCommand;

async function children(api: KnowledgeDeskTestApi, parent?: KbElement): Promise<KbElement[]> {
  return api.knowledgeBase.tree.getChildren(parent);
}

const names = (els: KbElement[]): string[] => els.map((e) => (e.kind === 'node' ? e.node.name : e.kind));

/** The element named `name` under `parent`, loading further pages (the service is shared by every suite of the run). */
async function findNamed(api: KnowledgeDeskTestApi, name: string, parent?: KbElement): Promise<NodeElement | undefined> {
  for (;;) {
    const kids = await children(api, parent);
    const found = kids.find((e): e is NodeElement => e.kind === 'node' && e.node.name === name);
    if (found) return found;
    const more = kids.find((e) => e.kind === 'loadMore');
    if (!more) return undefined;
    await vscode.commands.executeCommand('knowledgeDesk.kb.loadMore', more);
  }
}

async function nodeNamed(api: KnowledgeDeskTestApi, name: string, parent?: KbElement): Promise<NodeElement> {
  const found = await findNamed(api, name, parent);
  assert.ok(found, `${name} is not in the tree (${names(await children(api, parent)).join(', ')})`);
  return found;
}

/** Waits until the tree shows `name` (under `parent`) in `state`; the timeout names the state it last saw. */
async function processed(api: KnowledgeDeskTestApi, name: string, state: string, parent?: KbElement): Promise<NodeElement> {
  let seen = 'not in the tree';
  return waitFor(
    async () => {
      const el = await findNamed(api, name, parent);
      seen = el ? String((el.node as FileNode).processState) : 'not in the tree';
      return el && (el.node as FileNode).processState === state ? el : undefined;
    },
    `the tree badge of ${name} to reach ${state} (watcher)`,
    30_000,
    () => `${name}: ${seen}`,
  );
}

async function remote(api: KnowledgeDeskTestApi, searchTerm: string): Promise<KbNode[]> {
  const client = await api.connection.getClient();
  return (await client.kbNodes.search({ searchTerm, limit: 100 })).nodes;
}

/** Every name this suite gives a node; no other suite uses them, so each test starts and ends without them. */
const OURS = [
  'guide.md',
  'handbook.pdf',
  'release-notes.html',
  '議事録 #3 100%.md',
  'broken.pdf',
  'team',
  'bulk',
  'roster.md',
  'setup.docx',
];

async function removeOurs(api: KnowledgeDeskTestApi): Promise<void> {
  const client = await api.connection.getClient();
  for (const name of OURS) {
    for (const node of await remote(api, name)) {
      if (node.name === name) await client.kbNodes.delete(node.id).catch(() => undefined); // gone with its folder already
    }
  }
  await api.knowledgeBase.tree.refresh();
}

/** Answers of the hashtag picker: "Other hashtags…" and the typed text, or nothing ticked. */
const typedHashtags = (text: string): unknown[] => (text ? [['Other hashtags…'], text] : [[]]);

/** Uploads workspace documents to the top level with the Explorer command, as a person would. */
async function uploadTop(api: KnowledgeDeskTestApi, files: vscode.Uri[], hashtags = ''): Promise<void> {
  await run(api, 'knowledgeDesk.uploadToKnowledgeBase', ['Top level', ...typedHashtags(hashtags)], files[0], files);
}

/** Uploads the workspace folder docs/team as a new top-level knowledge-base folder. */
async function uploadTeam(api: KnowledgeDeskTestApi): Promise<NodeElement> {
  await run(api, 'knowledgeDesk.uploadToKnowledgeBase', ['Top level', 'Upload as a new folder', []], doc('team'), [doc('team')]);
  return nodeNamed(api, 'team');
}

describe('Knowledge Base view (real extension host, local service)', () => {
  let api: KnowledgeDeskTestApi;
  let agentEmail: string | undefined;
  before(async () => {
    api = await getApi();
    await useService(api);
  });

  beforeEach(async () => {
    await resetWorkbench(api);
    const config = vscode.workspace.getConfiguration('knowledgeDesk');
    agentEmail = config.inspect<string>('identity.agentEmail')?.globalValue;
    await config.update('identity.agentEmail', 'taro.yamada@xn--r8jz45g.jp', vscode.ConfigurationTarget.Global);
    await removeOurs(api);
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
  });

  afterEach(async () => {
    if (api.knowledgeBase.view.description !== undefined) await run(api, 'knowledgeDesk.kb.clearFilter', []);
    await removeOurs(api);
    await vscode.workspace.getConfiguration('knowledgeDesk').update('identity.agentEmail', agentEmail, vscode.ConfigurationTarget.Global);
    await resetWorkbench(api);
  });

  it('uploads workspace files from the Explorer menu (multi-select) and shows them processed in the tree', async () => {
    const files = [doc('guide.md'), doc('handbook.pdf'), doc('release-notes.html'), doc('議事録 #3 100%.md')];
    await uploadTop(api, files, '#docs, onboarding');
    const batch = lastBatch(api);
    const outcomes = [...batch.report.outcomes.values()];
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'done' ? o.action : o.status)),
      ['created', 'created', 'created', 'created'],
    );
    const states = new Map<string, string>();
    await waitFor(
      async () => {
        for (const n of ['guide.md', 'handbook.pdf', 'release-notes.html', '議事録 #3 100%.md']) {
          const node = (await remote(api, n)).find((m) => m.name === n && !m.breadcrumbs.length);
          states.set(n, node ? String((node as FileNode).processState) : 'missing');
        }
        return [...states.values()].every((s) => s === 'completed');
      },
      'all four documents processed on the service',
      30_000,
      () => JSON.stringify(Object.fromEntries(states)),
    );
    const handbook = await processed(api, 'handbook.pdf', 'completed');
    assert.deepEqual((handbook.node as FileNode).hashtags, ['docs', 'onboarding']);
    const item = api.knowledgeBase.tree.getTreeItem(handbook);
    // In Japanese (--locale ja, for screenshots) the same row reads 準備完了 · 1.5 KB.
    assert.match(String(item.description), /^(ready|準備完了) · \d+(\.\d)? KB$/);
    assert.equal(item.contextValue, 'kbFile');
    const tip = (item.tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ').replace(/\\/g, '');
    assert.match(tip, /#docs #onboarding/);
    assert.match(tip, /(by |\()Taro Yamada <taro\.yamada@xn--r8jz45g\.jp>/, 'creator from AGENT-EMAIL');
    await api.knowledgeBase.view.reveal(handbook, { select: true, focus: true });
    await screenshot('kb-tree-uploaded');
  });

  it('uploads a folder as a new knowledge-base folder, then syncs it again with every file skipped', async () => {
    const team = await uploadTeam(api);
    assert.deepEqual(names(await children(api, team)).sort(), ['roster.md', 'setup.docx']);
    await run(api, 'knowledgeDesk.uploadToKnowledgeBase', ['team', 'Sync into "team"', [], 'Overwrite'], doc('team'), [doc('team')]);
    const outcomes = [...lastBatch(api).report.outcomes.values()];
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'done' ? o.action : o.status)),
      ['skipped', 'skipped'],
    );
  });

  it('accepts files dropped from the Explorer onto a folder', async () => {
    const team = await uploadTeam(api);
    assert.ok(!(await findNamed(api, 'guide.md', team)), 'guide.md is not in team before the drop');
    const data = new vscode.DataTransfer();
    data.set('text/uri-list', new vscode.DataTransferItem(`# dropped\r\n${doc('guide.md').toString()}\r\n`));
    await api.knowledgeBase.drop(team, data);
    await waitFor(
      async () => (await children(api, team)).some((e) => e.kind === 'node' && e.node.name === 'guide.md'),
      'guide.md in team',
      15_000,
      async () => `team holds ${names(await children(api, team)).join(', ')}`,
    );
  });

  it('shows why a broken document failed, with an error badge', async () => {
    await uploadTop(api, [doc('broken.pdf')]);
    const failed = await processed(api, 'broken.pdf', 'parsing_fail');
    const item = api.knowledgeBase.tree.getTreeItem(failed);
    assert.equal(item.contextValue, 'kbFile.failed');
    assert.match((item.tooltip as vscode.MarkdownString).value, /not a valid PDF|damaged|could not be read/i);
    const badge = api.knowledgeBase.tree.provideFileDecoration(item.resourceUri!);
    assert.equal(badge?.badge, '!');
    // The warning that says so (1.5 s after processing ended), beside the upload summary.
    await screenshot('kb-failed-notification', {
      keepNotifications: true,
      waitForSelector: await notificationSelector(':has(.codicon-warning)'),
    });
  });

  it('replaces a document file keeping its hashtags, and it is processed again', async () => {
    await uploadTop(api, [doc('guide.md')], '#docs #onboarding');
    const guide = await processed(api, 'guide.md', 'completed');
    // Elements are stable objects updated in place: keep the values from before.
    const before = { id: guide.node.id, updatedAt: guide.node.updatedAt, size: (guide.node as FileNode).size };
    await run(api, 'knowledgeDesk.kb.replaceFile', [[doc('議事録 #3 100%.md')], 'Replace'], guide);
    let seen = '';
    const replaced = await waitFor(
      async () => {
        const el = await nodeNamed(api, 'guide.md');
        seen = `${(el.node as FileNode).processState}, updated ${el.node.updatedAt} (before ${before.updatedAt})`;
        return (el.node as FileNode).processState === 'completed' && el.node.updatedAt > before.updatedAt ? el : undefined;
      },
      'guide.md replaced and processed',
      30_000,
      async () =>
        `tree: ${seen}; service: ${(await remote(api, 'guide.md')).map((n) => `${(n as FileNode).processState} ${n.updatedAt}`).join(', ')}`,
    );
    assert.equal(replaced.node.id, before.id);
    assert.deepEqual((replaced.node as FileNode).hashtags, ['docs', 'onboarding']);
    assert.notEqual((replaced.node as FileNode).size, before.size);
  });

  it('moves a document into a folder by quick pick, and drags it back', async () => {
    await uploadTop(api, [doc('議事録 #3 100%.md')]);
    const team = await uploadTeam(api);
    const notes = await nodeNamed(api, '議事録 #3 100%.md');
    await run(api, 'knowledgeDesk.kb.move', ['team'], notes, [notes]);
    const moved = await nodeNamed(api, '議事録 #3 100%.md', team);
    assert.deepEqual(
      moved.node.breadcrumbs.map((b) => b.name),
      ['team'],
    );
    assert.ok(!(await findNamed(api, '議事録 #3 100%.md')), 'moved away from the top level');
    const data = new vscode.DataTransfer();
    data.set('application/vnd.code.tree.knowledgedesk.knowledgebase', new vscode.DataTransferItem([moved.node.id]));
    await api.knowledgeBase.drop(undefined, data);
    const back = await nodeNamed(api, '議事録 #3 100%.md');
    assert.deepEqual(back.node.breadcrumbs, []);
  });

  it('searches on the service across folders, shows where each match lives, and clears', async () => {
    await uploadTeam(api);
    await run(api, 'knowledgeDesk.kb.search', ['roster']);
    const results = await children(api);
    assert.deepEqual(names(results), ['roster.md']);
    assert.match(String(api.knowledgeBase.tree.getTreeItem(results[0]).description), /team$/);
    assert.equal(api.knowledgeBase.view.description, '"roster"');
    await run(api, 'knowledgeDesk.kb.search', ['no such thing anywhere']);
    const empty = await children(api);
    assert.deepEqual(
      empty.map((e) => e.kind),
      ['message'],
    );
    // The row says what was looked for (names, not contents) and clears the search when clicked.
    const row = api.knowledgeBase.tree.getTreeItem(empty[0]) as vscode.TreeItem;
    assert.match(
      String(row.label),
      vscode.env.language.startsWith('ja') ? /「no such thing anywhere」/ : /name contains "no such thing anywhere"/,
    );
    assert.equal(row.command?.command, 'knowledgeDesk.kb.clearFilter');
    await run(api, row.command.command, row.command.arguments ?? []);
    assert.equal(api.knowledgeBase.view.description, undefined);
    const roots = await children(api);
    assert.ok(!roots.some((e) => e.kind === 'message'), names(roots).join(', '));
    await nodeNamed(api, 'team');
  });

  it('pages a big folder with Load more and keeps the loaded pages on refresh', async function () {
    this.timeout(120_000);
    const client = await api.connection.getClient();
    const [folder] = await client.kbNodes.upload({ file: { data: await zipBuffer(60) }, fileName: 'bulk.zip' });
    await api.knowledgeBase.tree.refresh();
    const bulk = await nodeNamed(api, 'bulk');
    assert.equal(bulk.node.id, folder.id);
    let kids = await children(api, bulk);
    assert.equal(kids.filter((e) => e.kind === 'node').length, 50);
    const more = kids.at(-1)!;
    assert.equal(more.kind, 'loadMore');
    assert.match(api.knowledgeBase.tree.getTreeItem(more).label as string, /Load more… \(50 of 60\)/);
    await vscode.commands.executeCommand('knowledgeDesk.kb.loadMore', more);
    kids = await children(api, bulk);
    assert.equal(kids.filter((e) => e.kind === 'node').length, 60);
    assert.ok(!kids.some((e) => e.kind === 'loadMore'), 'no Load more once the last page is loaded');
    await vscode.commands.executeCommand('knowledgeDesk.kb.refresh');
    assert.equal((await children(api, bulk)).filter((e) => e.kind === 'node').length, 60, 'refresh dropped loaded pages');
  });

  it('after a cancel the summary offers Upload the Rest for the unsent files, and Retry Failed only for failures', () => {
    const job = (id: string): UploadJob => ({ id, path: `/tmp/${id}`, fileName: id, size: 1 });
    const jobs = ['done.md', 'failed.md', 'final.md', 'cancelled.md', 'unsent.md'].map(job);
    const outcomes = new Map<string, JobOutcome>([
      ['done.md', { status: 'done', action: 'created', nodes: [] }],
      ['failed.md', { status: 'failed', message: 'connection reset', retryable: true }],
      ['final.md', { status: 'failed', message: 'too large', retryable: false }],
      ['cancelled.md', { status: 'cancelled' }],
    ]);
    const offered = (o: Map<string, JobOutcome>) =>
      followUps({ target: 'the top level', jobs, outcomes: o, options: {} }).map((f) => [f.label, f.jobs.map((j) => j.id)]);
    assert.deepEqual(offered(outcomes), [
      ['Retry Failed', ['failed.md']],
      ['Upload the Rest', ['cancelled.md', 'unsent.md']],
    ]);
    outcomes.set('failed.md', { status: 'done', action: 'created', nodes: [] });
    assert.deepEqual(offered(outcomes), [['Upload the Rest', ['cancelled.md', 'unsent.md']]], 'a cancel alone: no Retry Failed');
  });

  it("deletes after confirmation, and shows a document's details", async () => {
    await uploadTop(api, [doc('broken.pdf')]);
    const broken = await processed(api, 'broken.pdf', 'parsing_fail');
    await run(api, 'knowledgeDesk.kb.showDetails', [], broken);
    // Shown as a rendered Markdown preview; its source document is open behind it.
    const details = await waitFor(
      () => vscode.workspace.textDocuments.find((d) => d.uri.path.includes(broken.node.id)),
      'details document',
      15_000,
      () => vscode.workspace.textDocuments.map((d) => d.uri.toString()).join(', '),
    );
    assert.match(details.getText(), /\| (Processing|処理) \| (failed|失敗) \(`parsing_fail`\)/);
    // Shot once the preview's table is there (the preview is a webview: two frames deep).
    const inWebview = ' >> internal:control=enter-frame >> iframe#active-frame >> internal:control=enter-frame >> ';
    await screenshot('kb-details', { waitForSelector: `iframe.webview${inWebview}table` });
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
