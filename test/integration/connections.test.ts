// Named connections (issue 27) in the real host with the real SecretStorage: the migration from a key stored
// per region, Add Connection to a second local service (as a Custom URL), Switch with the trees following,
// Remove of the active one, and the list and keys read again as the next start reads them.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ConnectionStore } from '../../src/core/connectionStore';
import type { KbElement } from '../../src/features/knowledgeBase/kbTreeModel';
import type { QaEditorPanel } from '../../src/features/qna/editor/qaEditorPanel';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import { getApi, resetWorkbench, runCommand, screenshot, useService, waitFor } from './support/host';
import { MemoryMemento } from './support/memoryMemento';
import { startSecondProject, type SecondProject } from './support/secondProject';

const ONLY_SECOND = 'Only in the second project';
const names = (els: KbElement[]): string[] => els.flatMap((e) => (e.kind === 'node' ? [e.node.name] : []));

describe('Connections: migration, add, switch, remove (real SecretStorage)', () => {
  let api: KnowledgeDeskTestApi;
  let second: SecondProject;
  let secondUrl: string;
  let secondKey: string;

  before(async () => {
    api = await getApi();
    await useService(api);
    second = await startSecondProject(api, 'kd-second-project-');
    secondUrl = second.url;
    secondKey = second.apiKey;
    // What only the second project has: the tree shows it while that connection is active, and only then.
    await second.client.folders.create({ name: ONLY_SECOND });
  });

  after(async () => {
    const store = api.connection.store;
    await store.setActive('local');
    for (const c of [...store.connections]) if (c.name.startsWith('Second')) await store.remove(c.id);
    await second.dispose();
    await resetWorkbench(api);
  });

  it('migrates a key stored for a region into the connection of that name, the active one following the region setting', async () => {
    const c = api;
    // What the previous release stored: a key per region in SecretStorage, and the region setting.
    await c.context.secrets.store('knowledgeDesk.apiKey.ja', 'kd-ja-key-from-the-last-release');
    try {
      const config = vscode.workspace.getConfiguration('knowledgeDesk');
      const saved = config.inspect('region')?.globalValue;
      await config.update('region', 'ja', vscode.ConfigurationTarget.Global);
      // A manager on a globalState with no connections yet: the first start after the upgrade.
      const upgraded = c.connectionManagerOver(new MemoryMemento());
      try {
        await config.update('region', saved, vscode.ConfigurationTarget.Global);
        assert.equal(upgraded.loaded.migrated, true);
        assert.deepEqual(
          upgraded.store.connections.map((x) => x.name),
          ['US', 'JA', 'Custom', 'Local'],
        );
        const ja = upgraded.store.byName('ja')!;
        assert.equal(await c.secrets.get('apiKey', ja.id), 'kd-ja-key-from-the-last-release');
        assert.equal(await c.secrets.get('apiKey', upgraded.store.byName('Local')!.id), c.localService.current!.apiKey);
      } finally {
        upgraded.dispose();
      }
      // This window migrated at activation too.
      assert.ok(api.connection.store.byName('Local'));
    } finally {
      await c.context.secrets.delete('knowledgeDesk.apiKey.ja');
    }
  });

  it('adds a second project as a connection, switches to it and back, and the Knowledge Base tree follows', async () => {
    const tree = api.knowledgeBase.tree;
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    const shows = async (): Promise<boolean> => names(await tree.getChildren()).includes(ONLY_SECOND);
    assert.equal(await shows(), false, 'Local does not have the second project’s folder');

    // The name prompt refuses a name in use (in any case) and an empty one, as a person sees it while typing.
    const refused: unknown[] = [];
    const name = async ({ options }: { options: vscode.InputBoxOptions }): Promise<string> => {
      refused.push(await options.validateInput?.('LOCAL'), await options.validateInput?.('  '));
      return 'Second project';
    };
    await runCommand(api, 'knowledgeDesk.addConnection', [name, 'Custom', secondUrl, '', secondKey]);
    assert.deepEqual(refused, ['A connection named "LOCAL" already exists', 'Enter a name']);
    const store = api.connection.store;
    const added = store.byName('Second project');
    assert.ok(added, 'the connection was added');
    assert.deepEqual(added.target, { kind: 'custom', baseUrl: secondUrl });
    assert.equal(await api.context.secrets.get(`knowledgeDesk.apiKey.${added.id}`), secondKey);
    await waitFor(
      () => api.connection.status.state === 'connected' && api.connection.active.id === added.id,
      'connected to the second project',
    );
    assert.match(api.connectionStatusBar.text, /Second project · connected/);
    await waitFor(shows, 'the tree to show the second project');
    // The MCP server definition follows the active connection: its URL, and its key at start.
    const mcp = api.mcpDeps();
    assert.deepEqual([mcp.region(), mcp.customBaseUrl()], ['custom', secondUrl]);
    assert.equal(await mcp.apiKey('custom'), secondKey);
    // A panel opened now says which connection it shows.
    const editor = (await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.new'))!;
    try {
      await waitFor(
        () => editor.panel.title.endsWith(' — Second project'),
        'the Q&A editor to name the connection',
        5000,
        () => editor.panel.title,
      );
    } finally {
      editor.dispose();
    }
    await screenshot('connections-status-bar', { waitForSelector: '.statusbar-item:has-text("Second project")' });
    if (process.env.KD_SCREENSHOT_DIR) {
      // The real picker, with each connection's state: shot, then closed.
      void vscode.commands.executeCommand('knowledgeDesk.switchConnection');
      await screenshot('connections-picker', { waitForSelector: '.quick-input-widget .monaco-list-row:has-text("Second project")' });
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }

    await runCommand(api, 'knowledgeDesk.switchConnection', ['Local']);
    await waitFor(() => api.connection.status.state === 'connected' && api.connection.active.id === 'local', 'connected to Local again');
    await waitFor(async () => !(await shows()), 'the tree to show Local again');

    // What the next start reads: the same list from globalState and the keys from SecretStorage.
    const next = new ConnectionStore(api.context.globalState, api.secrets);
    next.load('local');
    assert.deepEqual(
      next.connections.map((x) => x.name),
      store.connections.map((x) => x.name),
    );
    assert.equal(await api.secrets.get('apiKey', next.byName('second PROJECT')!.id), secondKey);
    assert.equal(await api.secrets.get('apiKey', next.byName('Local')!.id), api.localService.current!.apiKey);
  });

  it('removing the active connection asks first, removes its keys and switches to Local', async () => {
    const store = api.connection.store;
    const added = store.byName('Second project')!;
    await runCommand(api, 'knowledgeDesk.switchConnection', [], added.id);
    await waitFor(() => api.connection.active.id === added.id, 'the second project active');
    // Cancelling the confirmation keeps everything.
    await runCommand(api, 'knowledgeDesk.removeConnection', ['Second project', undefined]);
    assert.ok(store.get(added.id));
    await runCommand(api, 'knowledgeDesk.removeConnection', ['Second project', 'Remove Connection']);
    assert.equal(store.get(added.id), undefined);
    assert.equal(await api.context.secrets.get(`knowledgeDesk.apiKey.${added.id}`), undefined, 'its key went with it');
    assert.equal(api.connection.active.id, 'local');
    await waitFor(() => api.connection.status.state === 'connected', 'connected to Local');
    assert.match(api.connectionStatusBar.text, /Local · connected/);
  });
});
