import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { FileNode, KbNode } from '../../src/api/schemas/kbNodes';
import type { KbElement, NodeElement } from '../../src/features/knowledgeBase/kbTreeModel';
import { getApi, resetWorkbench, runCommand as run, runFailingCommand, screenshot, useService, waitFor } from './support/host';

// New Folder…, Rename…, Delete Folder, Edit Hashtags…, Turn Off / On, Open Original, Show Details' steps,
// and a deployment that does not offer the folder operations (a 127.0.0.1 proxy answering 405 for them).

const ids = {
  newFolder: 'knowledgeDesk.kb.newFolder',
  rename: 'knowledgeDesk.kb.rename',
  deleteFolder: 'knowledgeDesk.kb.deleteFolder',
  editHashtags: 'knowledgeDesk.kb.editHashtags',
  turnOff: 'knowledgeDesk.kb.turnOff',
  turnOn: 'knowledgeDesk.kb.turnOn',
  openOriginal: 'knowledgeDesk.kb.openOriginal',
};

/** Every top-level name this suite creates (no other suite uses the prefix). */
const PREFIX = 'ops-';

async function children(api: KnowledgeDeskTestApi, parent?: KbElement): Promise<KbElement[]> {
  return api.knowledgeBase.tree.getChildren(parent);
}

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
  const shown = (await children(api, parent)).map((e) => (e.kind === 'node' ? e.node.name : e.kind));
  assert.ok(found, `${name} is not in the tree (${shown.join(', ')})`);
  return found;
}

async function removeOurs(api: KnowledgeDeskTestApi): Promise<void> {
  const client = await api.connection.getClient();
  for (const node of await client.kbNodes.listAll({ parentFolderIds: [null] })) {
    if (node.name.startsWith(PREFIX)) await client.kbNodes.delete(node.id).catch(() => undefined);
  }
  await api.knowledgeBase.tree.refresh();
}

async function uploadText(
  api: KnowledgeDeskTestApi,
  name: string,
  text: string,
  targetFolderId?: string,
  hashtags?: string[],
): Promise<FileNode> {
  const client = await api.connection.getClient();
  const [node] = await client.kbNodes.upload({
    file: { data: text, contentType: 'text/markdown' },
    fileName: name,
    targetFolderId,
    hashtags,
  });
  await api.knowledgeBase.tree.refresh();
  return node as FileNode;
}

async function uploadFile(api: KnowledgeDeskTestApi, uri: vscode.Uri, name: string): Promise<FileNode> {
  const client = await api.connection.getClient();
  const [node] = await client.kbNodes.upload({ file: { path: uri.fsPath }, fileName: name });
  await api.knowledgeBase.tree.refresh();
  return node as FileNode;
}

const ws = (): vscode.Uri => vscode.workspace.workspaceFolders![0].uri;

describe('Knowledge Base operations: folders, rename, hashtags, on/off, originals', () => {
  let api: KnowledgeDeskTestApi;
  before(async () => {
    api = await getApi();
    await useService(api);
  });

  beforeEach(async () => {
    await resetWorkbench(api);
    await removeOurs(api);
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
  });

  afterEach(async () => {
    await vscode.workspace.getConfiguration('knowledgeDesk').update('originalsCacheMb', undefined, vscode.ConfigurationTarget.Global);
    if (api.knowledgeBase.view.description !== undefined) await run(api, 'knowledgeDesk.kb.clearFilter', []);
    await removeOurs(api);
    await resetWorkbench(api);
  });

  it('creates folders at the top level and inside a folder, renames a folder (ids stay, breadcrumbs follow) and a document', async () => {
    const top = (await run(api, ids.newFolder, [`${PREFIX}projects`])) as KbNode;
    const topEl = await nodeNamed(api, `${PREFIX}projects`);
    assert.equal(topEl.node.id, top.id);
    assert.equal(topEl.node.nodeType, 'folder');
    const inner = (await run(api, ids.newFolder, ['2026 計画'], topEl)) as KbNode;
    assert.deepEqual(
      inner.breadcrumbs.map((b) => b.name),
      [`${PREFIX}projects`],
    );
    const innerEl = await nodeNamed(api, '2026 計画', topEl);
    await uploadText(api, 'plan.md', '# Plan\n\nShip it.', inner.id);
    await run(api, ids.rename, [`${PREFIX}renamed projects`], topEl);
    const renamed = await nodeNamed(api, `${PREFIX}renamed projects`);
    assert.equal(renamed.node.id, top.id, 'renaming keeps the id');
    const plan = await nodeNamed(api, 'plan.md', await nodeNamed(api, '2026 計画', renamed));
    assert.deepEqual(
      plan.node.breadcrumbs.map((b) => b.name),
      [`${PREFIX}renamed projects`, '2026 計画'],
      'breadcrumbs below follow the rename',
    );
    await run(api, ids.rename, ['plan v2.md'], plan);
    const client = await api.connection.getClient();
    assert.equal((await client.kbNodes.get(plan.node.id)).name, 'plan v2.md');
    assert.equal(innerEl.node.id, inner.id);
    await api.knowledgeBase.view.reveal(await nodeNamed(api, 'plan v2.md', innerEl), { select: true, focus: true, expand: true });
  });

  it('the title bar acts at the top level: VS Code hands its commands the focused folder, and they ignore it', async () => {
    // What the view's title bar runs, read from the manifest (the menu is what a person clicks).
    const manifest = vscode.extensions.getExtension('knowledge-desk.knowledge-desk')!.packageJSON as {
      contributes: { menus: { 'view/title': Array<{ command: string; when: string }> } };
    };
    const titleBar = manifest.contributes.menus['view/title']
      .filter((m) => m.when.includes('view == knowledgeDesk.knowledgeBase'))
      .map((m) => m.command);
    const titleCommand = (prefix: string): string => {
      const found = titleBar.find((c) => c.startsWith(prefix));
      assert.ok(found, `no ${prefix}… in the title bar: ${titleBar.join(', ')}`);
      return found;
    };
    await run(api, ids.newFolder, [`${PREFIX}selected`]);
    const selected = await nodeNamed(api, `${PREFIX}selected`);
    const view = api.knowledgeBase.view;
    await view.reveal(selected, { select: true, focus: true });
    await waitFor(() => view.selection[0]?.kind === 'node' && view.selection[0].node.id === selected.node.id, 'the folder to be selected');
    // VS Code runs a title-bar command with the view's focused element (ExtHostTreeViews' argument processor).
    const focused = view.selection[0];

    const created = (await run(api, titleCommand('knowledgeDesk.kb.newFolder'), [`${PREFIX}from title bar`], focused)) as KbNode;
    assert.equal(created.parentFolder ?? null, null, 'created at the top level, not in the focused folder');
    assert.equal((await nodeNamed(api, `${PREFIX}from title bar`)).node.id, created.id);

    const asked: string[] = [];
    await run(
      api,
      titleCommand('knowledgeDesk.kb.upload'),
      [
        (p: { kind: string; options: { title?: string } }) => {
          asked.push(`${p.kind}: ${p.options.title}`);
          return undefined;
        },
      ],
      focused,
    );
    assert.deepEqual(asked, ['openDialog: Upload files to the top level']);

    await run(
      api,
      titleCommand('knowledgeDesk.kb.uploadFromCloud'),
      [
        (p: { kind: string; options: { title?: string } }) => {
          asked.push(`${p.kind}: ${p.options.title}`);
          return undefined;
        },
      ],
      focused,
    );
    assert.equal(asked[1], 'quickPick: Upload from cloud store into…', 'the title bar asks for the folder');
  });

  it('Rename… fills in the whole name and selects it up to the extension, as the Explorer does', async () => {
    await uploadText(api, `${PREFIX}minutes.v2.md`, '# Minutes');
    await run(api, ids.newFolder, [`${PREFIX}archive.2025`]);
    const seen: Array<{ value?: string; valueSelection?: [number, number] }> = [];
    const look = (p: { options: vscode.InputBoxOptions }) => {
      seen.push({ value: p.options.value, valueSelection: p.options.valueSelection });
      return undefined;
    };
    await run(api, ids.rename, [look], await nodeNamed(api, `${PREFIX}minutes.v2.md`));
    await run(api, ids.rename, [look], await nodeNamed(api, `${PREFIX}archive.2025`));
    const doc = `${PREFIX}minutes.v2.md`;
    assert.deepEqual(seen, [
      { value: doc, valueSelection: [0, doc.length - '.md'.length] },
      // A folder has no extension: all of it is selected (VS Code's default).
      { value: `${PREFIX}archive.2025`, valueSelection: undefined },
    ]);
  });

  it('the delete confirmation says what is selected: documents, folders with what is in them, or both', async () => {
    await uploadText(api, `${PREFIX}a.md`, '# A');
    await uploadText(api, `${PREFIX}b.md`, '# B');
    await run(api, ids.newFolder, [`${PREFIX}box`]);
    const [a, b, box] = [
      await nodeNamed(api, `${PREFIX}a.md`),
      await nodeNamed(api, `${PREFIX}b.md`),
      await nodeNamed(api, `${PREFIX}box`),
    ];
    const asked: string[] = [];
    const cancel = (p: { options: unknown }) => {
      asked.push(String(p.options));
      return undefined;
    };
    await run(api, 'knowledgeDesk.kb.delete', [cancel], a, [a, b]);
    await run(api, 'knowledgeDesk.kb.delete', [cancel], a, [a, box]);
    await run(api, 'knowledgeDesk.kb.delete', [cancel], box, [box]);
    assert.equal(asked[0], 'Delete 2 documents from the knowledge base? This cannot be undone.');
    assert.equal(asked[1], 'Delete 1 document and 1 folder with everything in it from the knowledge base? This cannot be undone.');
    assert.equal(asked[2], `Delete "${PREFIX}box" and everything in it from the knowledge base? This cannot be undone.`);
    assert.ok(await findNamed(api, `${PREFIX}a.md`), 'cancel deletes nothing');
  });

  it('a folder cannot be moved into itself or its own subfolder (drag or Move…)', async () => {
    const outer = (await run(api, ids.newFolder, [`${PREFIX}outer`])) as KbNode;
    const outerEl = await nodeNamed(api, `${PREFIX}outer`);
    await run(api, ids.newFolder, ['inner'], outerEl);
    const innerEl = await nodeNamed(api, 'inner', outerEl);
    const data = new vscode.DataTransfer();
    data.set('application/vnd.code.tree.knowledgedesk.knowledgebase', new vscode.DataTransferItem([outer.id]));
    await api.knowledgeBase.drop(innerEl, data);
    const client = await api.connection.getClient();
    assert.deepEqual((await client.kbNodes.get(outer.id)).breadcrumbs, [], 'still at the top level');
    let offered: string[] = [];
    await run(
      api,
      'knowledgeDesk.kb.move',
      [
        (p: { items?: Array<{ label: string }> }) => {
          offered = (p.items ?? []).map((i) => i.label);
          return undefined;
        },
      ],
      outerEl,
      [outerEl],
    );
    assert.ok(offered.length > 0, 'the folder picker was shown');
    assert.ok(
      !offered.some((l) => l.endsWith(`${PREFIX}outer`) || l.endsWith(' inner')),
      `itself and its subfolder are not offered: ${offered.join(', ')}`,
    );
  });

  it('refuses bad names before asking the service, and says when a node was deleted meanwhile', async () => {
    const folder = (await run(api, ids.newFolder, [`${PREFIX}names`])) as KbNode;
    const el = await nodeNamed(api, `${PREFIX}names`);
    const cases: Array<[string, RegExp]> = [
      ['', /cannot be empty/],
      ['   ', /cannot be empty/],
      ['a/b', /cannot contain "\/"/],
      ['..', /cannot be "\." or "\.\."/],
      ['tab\there', /control characters/],
      ['あ'.repeat(86), /258 bytes long in UTF-8; the limit is 255/],
    ];
    for (const [name, expected] of cases) {
      assert.match(await runFailingCommand(api, ids.newFolder, [name]), expected, `new folder ${JSON.stringify(name)}`);
      assert.match(await runFailingCommand(api, ids.rename, [name], el), expected, `rename to ${JSON.stringify(name)}`);
    }
    // A clash is the service's answer (409), shown as it says.
    await run(api, ids.newFolder, [`${PREFIX}taken`]);
    assert.match(await runFailingCommand(api, ids.rename, [`${PREFIX}taken`], el), /already exists/);
    // Deleted elsewhere while the tree still shows it.
    const client = await api.connection.getClient();
    await client.kbNodes.delete(folder.id);
    assert.match(await runFailingCommand(api, ids.rename, [`${PREFIX}gone`], el), /no longer exists in the knowledge base/);
    assert.match(await runFailingCommand(api, ids.deleteFolder, [], el), /no longer exists in the knowledge base/);
    assert.ok(!(await findNamed(api, `${PREFIX}names`)), 'the tree was refreshed');
    // Only folders chosen for Turn Off.
    const other = await nodeNamed(api, `${PREFIX}taken`);
    assert.match(await runFailingCommand(api, ids.turnOff, [], other, [other]), /Folders cannot be turned on or off/);
  });

  it('Delete Folder says how many documents go with it; cancel keeps it', async () => {
    const folder = (await run(api, ids.newFolder, [`${PREFIX}archive`])) as KbNode;
    const sub = await (await api.connection.getClient()).folders.create({ name: 'old', parentFolderId: folder.id });
    await uploadText(api, 'a.md', 'A', folder.id);
    await uploadText(api, 'b.md', 'B', sub.id);
    const el = await nodeNamed(api, `${PREFIX}archive`);
    let asked = '';
    const capture = (answer: string | undefined) => (p: { options: unknown }) => ((asked = String(p.options)), answer);
    await run(api, ids.deleteFolder, [capture(undefined)], el);
    assert.equal(asked, `Delete the folder "${PREFIX}archive" with its 2 documents and 1 subfolder? This cannot be undone.`);
    assert.ok(await findNamed(api, `${PREFIX}archive`), 'cancel keeps the folder');
    await run(api, ids.deleteFolder, [capture('Delete Folder')], el);
    assert.ok(!(await findNamed(api, `${PREFIX}archive`)), 'deleted');
    const client = await api.connection.getClient();
    assert.equal((await client.kbNodes.search({ searchTerm: 'b.md' })).nodes.filter((n) => n.id === sub.id).length, 0);
    // A document is not a folder.
    await uploadText(api, `${PREFIX}doc.md`, 'D');
    assert.match(await runFailingCommand(api, ids.deleteFolder, [], await nodeNamed(api, `${PREFIX}doc.md`)), /is a document/);
  });

  it('edits hashtags with the picker of hashtags in use (with counts), and filters the tree with it', async () => {
    await uploadText(api, `${PREFIX}policy.md`, 'Policy', undefined, ['opsHr', 'opsPolicy']);
    await uploadText(api, `${PREFIX}rules.md`, 'Rules', undefined, ['opsHr']);
    const doc = await nodeNamed(api, `${PREFIX}rules.md`);
    let items: Array<{ label: string; description?: string; picked?: boolean }> = [];
    await run(
      api,
      ids.editHashtags,
      [
        (p: { items?: typeof items }) => {
          items = p.items ?? [];
          return ['#opsHr', '#opsPolicy', 'Other hashtags…'];
        },
        '#opsNew',
      ],
      doc,
    );
    const hr = items.find((i) => i.label === '#opsHr');
    assert.equal(hr?.description, 'used 2 times');
    assert.equal(hr?.picked, true, 'the current hashtags are ticked');
    assert.equal(items.find((i) => i.label === '#opsPolicy')?.picked, false);
    assert.ok(items.at(-1)?.label.endsWith('Other hashtags…'));
    const client = await api.connection.getClient();
    assert.deepEqual(((await client.kbNodes.get(doc.node.id)) as FileNode).hashtags, ['opsHr', 'opsPolicy', 'opsNew']);
    assert.deepEqual((doc.node as FileNode).hashtags, ['opsHr', 'opsPolicy', 'opsNew'], 'the tree element follows');
    // The tree's filter uses the same picker.
    await run(api, 'knowledgeDesk.kb.filterHashtags', [['#opsNew']]);
    assert.deepEqual(
      (await children(api)).map((e) => (e.kind === 'node' ? e.node.name : e.kind)),
      [`${PREFIX}rules.md`],
    );
    assert.equal(api.knowledgeBase.view.description, '#opsNew');
    await run(api, 'knowledgeDesk.kb.clearFilter', []);
    // The real picker, for a look (only with screenshots: the screenshot waits until the picker is drawn, so
    // closing it afterwards cannot come before it opens — without that wait the picker could open after the close).
    if (process.env.KD_SCREENSHOT_DIR) {
      await api.knowledgeBase.view.reveal(doc, { select: true, focus: true });
      const pending = vscode.commands.executeCommand(ids.editHashtags, doc);
      await screenshot('kb-hashtag-picker', { waitForSelector: '.quick-input-widget .monaco-list-row' });
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await pending;
    }
  });

  it('turns documents off and on (multi-select); an off document keeps its place with an "off" decoration', async () => {
    const folder = (await run(api, ids.newFolder, [`${PREFIX}handbook`])) as KbNode;
    await uploadText(api, 'leave.md', '# Leave\n\nTwenty days of paid leave.', folder.id);
    await uploadText(api, 'travel.md', '# Travel\n\nBook trains early.', folder.id);
    const folderEl = await nodeNamed(api, `${PREFIX}handbook`);
    const leave = await nodeNamed(api, 'leave.md', folderEl);
    const travel = await nodeNamed(api, 'travel.md', folderEl);
    const updated = (await run(api, ids.turnOff, [], leave, [leave, travel, folderEl])) as string[];
    assert.deepEqual([...updated].sort(), [leave.node.id, travel.node.id].sort());
    const tree = api.knowledgeBase.tree;
    const offLeave = await nodeNamed(api, 'leave.md', folderEl);
    assert.equal((offLeave.node as FileNode).status, 'off');
    const item = tree.getTreeItem(offLeave);
    assert.match(String(item.description), /^off · /);
    assert.match(String(item.contextValue), /\.off$/);
    assert.equal((item.iconPath as vscode.ThemeIcon).color?.id, 'disabledForeground');
    assert.equal(tree.provideFileDecoration(item.resourceUri!)?.badge, '○');
    assert.deepEqual(
      (await children(api, folderEl)).map((e) => (e.kind === 'node' ? e.node.name : e.kind)),
      ['leave.md', 'travel.md'],
      'off documents keep their place',
    );
    await run(api, ids.turnOn, [], travel, [travel]);
    assert.equal(((await nodeNamed(api, 'travel.md', folderEl)).node as FileNode).status, 'on');
    assert.doesNotMatch(String(tree.getTreeItem(await nodeNamed(api, 'travel.md', folderEl)).description), /off/);
    await run(api, ids.rename, [`${PREFIX}handbook (renamed)`], folderEl);
    const renamed = await nodeNamed(api, `${PREFIX}handbook (renamed)`);
    await api.knowledgeBase.view.reveal(renamed, { expand: true });
    await nodeNamed(api, 'leave.md', renamed);
    // The renamed folder selected, so the off document shows its greyed label and ○ badge unselected.
    await api.knowledgeBase.view.reveal(renamed, { select: true, focus: true });
    await screenshot('kb-tree-off-and-renamed');
  });

  it('opens originals: text in VS Code, a PDF in the citation viewer; a document over the cache limit is refused and leaves nothing', async () => {
    const md = await uploadText(api, `${PREFIX}readme.md`, '# Read me\n\nOriginal text.');
    await run(api, ids.openOriginal, [], await nodeNamed(api, `${PREFIX}readme.md`));
    const editor = await waitFor(
      () => vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath.endsWith(`${PREFIX}readme.md`)),
      'the original opened in an editor',
    );
    assert.equal(editor.document.getText(), '# Read me\n\nOriginal text.');
    assert.ok(editor.document.uri.fsPath.includes(`${md.id}@`), 'cached under its id and update time');
    const pdf = await uploadFile(api, vscode.Uri.joinPath(ws(), 'docs', 'handbook.pdf'), `${PREFIX}handbook.pdf`);
    await run(api, ids.openOriginal, [], await nodeNamed(api, `${PREFIX}handbook.pdf`));
    await waitFor(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label.includes(`${PREFIX}handbook.pdf`)),
      'the PDF in the citation viewer',
      30_000,
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)).join(', '),
    );
    assert.ok(pdf.id);
    await vscode.workspace.getConfiguration('knowledgeDesk').update('originalsCacheMb', 1, vscode.ConfigurationTarget.Global);
    await uploadText(api, `${PREFIX}big.txt`, 'x'.repeat(1_300_000));
    const message = await runFailingCommand(api, ids.openOriginal, [], await nodeNamed(api, `${PREFIX}big.txt`));
    assert.match(message, /is 1\.2 MB; documents opened from the knowledge base are limited to 1\.0 MB/);
    const left = await api.knowledgeBase.cachedOriginals();
    assert.ok(!left.some((n) => n.startsWith('.partial')), `nothing half-written: ${left.join(', ')}`);
    assert.ok(!left.some((n) => fs.existsSync(n) && n.includes('big')));
  });

  it('Show Details lists the processing steps', async () => {
    await uploadText(api, `${PREFIX}steps.md`, '# Steps\n\nProcessed in steps.');
    const el = await nodeNamed(api, `${PREFIX}steps.md`);
    await run(api, 'knowledgeDesk.kb.showDetails', [], el);
    const details = await waitFor(
      () =>
        vscode.workspace.textDocuments.find(
          (d) => d.uri.path.includes(el.node.id) && /## Processing steps[\s\S]*\| parsing/.test(d.getText()),
        ),
      'details with processing steps',
    );
    assert.match(details.getText(), /\| upload \(File received\) \| completed \|/);
  });

  it('a deployment without the folder operations (405): the command says so once and hides itself for that region', async () => {
    const localUrl = api.localService.current!.url;
    const localKey = api.localService.current!.apiKey;
    // A stand-in deployment on 127.0.0.1: the local service, except that the folder routes answer 405.
    const proxy = http.createServer((req, res) => {
      if (req.url?.startsWith('/webapi/v2/folders')) {
        res.writeHead(405, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errors: `Method Not Allowed ${req.method}: ${req.url}` }));
        return;
      }
      const target = new URL(req.url ?? '/', localUrl);
      const forward = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const config = vscode.workspace.getConfiguration('knowledgeDesk');
    const saved = { region: config.inspect('region')?.globalValue, base: config.inspect('custom.baseUrl')?.globalValue };
    try {
      await api.secrets.store('apiKey', 'custom', localKey);
      await config.update('custom.baseUrl', `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, vscode.ConfigurationTarget.Global);
      await config.update('region', 'custom', vscode.ConfigurationTarget.Global);
      await waitFor(
        () => api.connection.status.state === 'connected' && api.connection.status.region === 'custom',
        'connected to the stand-in deployment',
        30_000,
        () => JSON.stringify(api.connection.status),
      );
      assert.equal(api.contextKey('knowledgeDesk.kb.noFolderCreate'), false, 'offered until the deployment says otherwise');
      await run(api, ids.newFolder, [`${PREFIX}not offered`]);
      await waitFor(() => api.contextKey('knowledgeDesk.kb.noFolderCreate') === true, 'New Folder hidden for the Custom region');
      // Asked again (the palette keeps no state): no request, the same short message, no error.
      await run(api, ids.newFolder, [`${PREFIX}not offered`]);
      assert.equal(api.contextKey('knowledgeDesk.kb.noFolderRename'), false, 'only what answered 405 is hidden');
      await config.update('region', saved.region, vscode.ConfigurationTarget.Global);
      await waitFor(
        () => api.connection.status.state === 'connected' && api.connection.status.region === 'local',
        'back on the Local region',
        30_000,
      );
      await waitFor(() => api.contextKey('knowledgeDesk.kb.noFolderCreate') === false, 'New Folder shown again for Local');
    } finally {
      await config.update('region', saved.region, vscode.ConfigurationTarget.Global);
      await config.update('custom.baseUrl', saved.base, vscode.ConfigurationTarget.Global);
      await api.secrets.delete('apiKey', 'custom');
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
      await useService(api);
    }
  });
});
