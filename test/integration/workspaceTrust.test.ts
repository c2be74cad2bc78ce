// The fixture workspace of runIntegration.mjs is hostile: its .vscode/settings.json points the Custom region,
// identity, logging, remote images and the upload limit somewhere else, at a loopback server that records
// every request (KD_TRAP_LOG). Every suite ran in that workspace; this one (last, by name) checks the result.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import { getApi, runCommand, useService, waitFor } from './support/host';

const SET_BY_WORKSPACE = [
  'knowledgeDesk.region',
  'knowledgeDesk.custom.baseUrl',
  'knowledgeDesk.custom.nluUrl',
  'knowledgeDesk.identity.ownUserId',
  'knowledgeDesk.logRawStream',
  'knowledgeDesk.webview.allowRemoteImages',
  'knowledgeDesk.local.maxUploadMb',
  'knowledgeDesk.local.writer',
  'knowledgeDesk.local.writerModel',
];

describe('Workspace trust: a workspace cannot redirect keys or data', () => {
  let api: KnowledgeDeskTestApi;
  let trapLog: string;
  const trapRequests = (): string => fs.readFileSync(trapLog, 'utf8');

  before(async () => {
    trapLog = process.env.KD_TRAP_LOG ?? '';
    assert.ok(trapLog && fs.existsSync(trapLog), 'KD_TRAP_LOG: run the suites with test/host/runIntegration.mjs');
    const settingsFile = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json');
    assert.match(fs.readFileSync(settingsFile, 'utf8'), new RegExp(process.env.KD_TRAP_URL!.replace(/[.:/]/g, '\\$&')));
    api = await getApi();
    await useService(api);
  });

  it('reads those settings from user settings only and tells the user once, naming the settings and the file', async () => {
    const guard = api.workspaceSettings;
    await guard.check();
    const found = guard.found.map((f) => f.setting);
    for (const setting of SET_BY_WORKSPACE) assert.ok(found.includes(setting), `${setting} not reported (found ${JSON.stringify(found)})`);
    assert.ok(
      guard.found.every((f) => f.file.endsWith(path.join('.vscode', 'settings.json'))),
      JSON.stringify(guard.found),
    );
    assert.equal(guard.notices.total, 1, `one notice, got ${JSON.stringify(guard.notices.all())}`);
    assert.match(guard.notices.all()[0], /knowledgeDesk\.custom\.baseUrl/);
    assert.match(guard.notices.all()[0], /\.vscode\/settings\.json/);

    const s = api.settings;
    assert.equal(s.region, 'local');
    // Earlier suites may have set user values; whatever they are, they are not the workspace's.
    const user = (key: string): unknown => vscode.workspace.getConfiguration('knowledgeDesk').inspect(key)?.globalValue ?? '';
    assert.deepEqual(s.custom, { baseUrl: user('custom.baseUrl'), nluUrl: user('custom.nluUrl') });
    assert.ok(!s.custom.baseUrl?.startsWith(process.env.KD_TRAP_URL!), `custom.baseUrl is the workspace's: ${s.custom.baseUrl}`);
    assert.equal(s.identity.ownUserId, undefined);
    assert.equal(s.get('logRawStream', true), false);
    assert.equal(s.get('webview.allowRemoteImages', true), false);
    assert.equal(s.get('local.maxUploadMb', 0), 512);
    // Passages are not sent to a language model the workspace names (the writer suite left the user value unset).
    assert.equal(api.localWriter.mode(), 'off');
    assert.equal(api.localWriter.current(), undefined);
    // VS Code itself leaves application-scoped workspace values out.
    assert.notEqual(vscode.workspace.getConfiguration('knowledgeDesk').get('region'), 'custom');

    await guard.check();
    assert.equal(guard.notices.total, 1, 'the notice was repeated');
  });

  it("a preferred connection named by the workspace chooses only among the user's: an unknown name creates nothing and changes nothing", () => {
    const trapUrl = process.env.KD_TRAP_URL!;
    assert.equal(vscode.workspace.getConfiguration('knowledgeDesk').get('connection'), trapUrl, 'the fixture names a connection');
    const { store, loaded } = api.connection;
    assert.equal(loaded.unknownPreference, trapUrl);
    assert.equal(store.byName(trapUrl), undefined, 'no connection was created for the name');
    for (const c of store.connections) {
      const url = c.target.kind === 'custom' ? (c.target.baseUrl ?? '') : '';
      assert.ok(!url.startsWith(trapUrl), `${c.name} goes to the workspace's server`);
    }
    assert.notEqual(api.connection.active.name, trapUrl);
  });

  it('with a Custom key stored, using every view and panel sends nothing to the server the workspace named', async () => {
    await api.secrets.store('apiKey', 'custom', 'key-the-workspace-wants');
    try {
      for (const view of ['knowledgeBase', 'qna', 'candidates', 'jobs'])
        await vscode.commands.executeCommand(`knowledgeDesk.${view}.focus`);
      for (const command of [
        'knowledgeDesk.checkConnection',
        'knowledgeDesk.kb.refresh',
        'knowledgeDesk.qna.refresh',
        'knowledgeDesk.candidates.refresh',
        'knowledgeDesk.jobs.refresh',
        'knowledgeDesk.qna.new',
        'knowledgeDesk.qna.showAnalytics',
        'knowledgeDesk.answers.newChat',
        'knowledgeDesk.answers.showRetrieval',
      ])
        await runCommand(api, command);
      await waitFor(() => api.connection.status.state === 'connected', 'the connection to be ready');
      assert.equal(api.connection.status.region, 'local');
      // A request to the local service after all of the above: anything sent to the trap has been logged by now.
      await (await api.connection.getClient()).faq.embeddingStatus();
      assert.equal(trapRequests(), '', 'requests reached the server named by the workspace');
    } finally {
      await api.secrets.delete('apiKey', 'custom');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
