// An upload's summary outlives a connection switch (issue 27): Retry Failed pressed after a switch sends nothing to the
// connection now active and says where the files belong; back on their connection it sends them. A folder goes as a
// ZIP from a temporary folder, which stays while the summary can still retry it and goes when the summary is closed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import { endpoint } from '../../src/api/endpoint';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import {
  getApi,
  localFaults,
  notificationSelector,
  pressInWorkbench,
  resetWorkbench,
  runCommand,
  steps,
  useService,
  waitFor,
  workbenchShows,
} from './support/host';
import { startSecondProject, type SecondProject } from './support/secondProject';

/** The upload temp folders (kd-upload-*) that hold the ZIP of a folder named `name` (planUploads: `<n>-<name>.zip`). */
const tempsWith = (name: string): string[] =>
  fs
    .readdirSync(os.tmpdir())
    .filter((n) => n.startsWith('kd-upload-'))
    .map((n) => path.join(os.tmpdir(), n))
    .filter((dir) => fs.readdirSync(dir).some((f) => f.endsWith(`-${name}.zip`)));

describe('Upload retry across a connection switch (real host)', () => {
  let api: KnowledgeDeskTestApi;
  let local: ApiClient;
  let second: SecondProject;
  let secondId: string;
  let source: string;

  before(async () => {
    api = await getApi();
    local = await useService(api);
    second = await startSecondProject(api, 'kd-upload-retry-');
    const added = await api.connection.store.add(`Upload retry ${Date.now().toString(36)}`, {
      kind: 'custom',
      baseUrl: second.url,
      nluUrl: second.url,
    });
    secondId = added.id;
    await api.secrets.store('apiKey', added.id, second.apiKey);
    source = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-retry-source-'));
  });

  after(async () => {
    await localFaults(api, {}).catch(() => undefined);
    const store = api.connection.store;
    if (store.active.id !== 'local') await runCommand(api, 'knowledgeDesk.switchConnection', [], 'local').catch(() => undefined);
    if (store.get(secondId)) await store.remove(secondId);
    await second.dispose();
    fs.rmSync(source, { recursive: true, force: true });
    await resetWorkbench(api);
  });

  const connected = (id: string) =>
    waitFor(() => api.connection.status.state === 'connected' && api.connection.active.id === id, `connected to ${id}`, 30_000);

  it('Retry Failed after a switch sends nothing there and names where the files belong; back there it sends the ZIP, kept until the summary closes', async function () {
    this.timeout(240_000);
    const step = steps('upload retry');
    await resetWorkbench(api);
    const name = `retry${Date.now().toString(36)}`;
    fs.mkdirSync(path.join(source, name));
    fs.writeFileSync(path.join(source, name, 'a.md'), '# A\n\nAlpha.\n');
    fs.writeFileSync(path.join(source, name, 'b.md'), '# B\n\nBeta.\n');
    const folder = vscode.Uri.file(path.join(source, name));
    const batches = api.knowledgeBase.uploadBatches;
    const outcomes = () => [...batches.last!.report.outcomes.values()].map((o) => o.status);

    // Every upload to Local fails (retryable): the summary offers Retry Failed.
    await localFaults(api, { rate500: 1, pathPrefix: endpoint('kbNodes.upload').path });
    const first = batches.total;
    await step(
      'upload the folder (failing)',
      runCommand(api, 'knowledgeDesk.uploadToKnowledgeBase', ['Top level', 'Upload as a new folder', []], folder, [folder]),
      120_000,
    );
    assert.equal(batches.total, first + 1, 'a batch ran');
    assert.deepEqual(outcomes(), ['failed']);
    const [temp] = tempsWith(name);
    assert.ok(temp, 'the folder’s ZIP is in a temp folder while the summary is open');
    const retry = async () =>
      pressInWorkbench(await notificationSelector(` .monaco-button:text-is("${vscode.l10n.t('Retry Failed')}")`), 30_000);

    // Switched away, Retry Failed sends nothing to the connection now active and says where the files belong.
    await step('switch to the second project', runCommand(api, 'knowledgeDesk.switchConnection', [], secondId));
    await step('connected to it', connected(secondId));
    await localFaults(api, {}).catch(() => undefined);
    const afterFailure = batches.total;
    await step('press Retry Failed on the second project', retry());
    const belongs = vscode.l10n.t('These files were being uploaded to {0}. Switch back to {0} to retry them.', 'Local');
    assert.ok(await step('the error names Local', workbenchShows(await notificationSelector(`:has-text("${belongs}")`), 30_000)), belongs);
    assert.equal(batches.total, afterFailure, 'no batch ran');
    const there = await second.client.kbNodes.listAll({ parentFolderIds: [null] });
    assert.ok(!there.some((n) => n.name === name), 'nothing reached the second project');
    assert.ok(fs.existsSync(temp), 'the ZIP is kept: the summary came back');

    // Back on Local, the same summary's Retry Failed sends the ZIP from the temp folder.
    await step('switch back to Local', runCommand(api, 'knowledgeDesk.switchConnection', [], 'local'));
    await step('connected to Local', connected('local'));
    await localFaults(api, {});
    await step('press Retry Failed on Local', retry());
    await step(
      'the retry to end',
      waitFor(() => batches.total > afterFailure, 'the retried batch'),
      120_000,
    );
    assert.deepEqual(outcomes(), ['done']);
    const uploaded = (await local.kbNodes.listAll({ parentFolderIds: [null] })).find((n) => n.name === name);
    assert.ok(uploaded, 'the folder is on Local');
    assert.deepEqual((await local.kbNodes.listAll({ parentFolderIds: [uploaded.id] })).map((n) => n.name).sort(), ['a.md', 'b.md']);
    assert.ok(fs.existsSync(temp), 'the ZIP stays while the last summary is open');

    // The summary closed: its temp folder goes.
    await step('close the summary', vscode.commands.executeCommand('notifications.clearAll'));
    await step(
      'the temp folder to go',
      waitFor(() => !fs.existsSync(temp), 'the upload temp folder to be removed', 30_000),
    );
    await local.kbNodes.delete(uploaded.id);
  });
});
