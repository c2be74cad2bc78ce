// Journey: two local projects as two connections, then VS Code restarted (Reload Window, the pattern of reload.test.ts:
// a resume file, and the new extension host goes on with this journey only). After the restart both connections are
// there, each with its own key from SecretStorage, the active one is the one left active, and its tree shows its data.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KbElement } from '../../src/features/knowledgeBase/kbTreeModel';
import { getApi, runCommand, sleep, useService, waitFor } from '../integration/support/host';
import { journeyState, RESUME_FILE, shoot } from './support/journey';

const FOLDER = 'Restart journey: only in Gamma';
const names = (els: KbElement[]): string[] => els.flatMap((e) => (e.kind === 'node' ? [e.node.name] : []));

interface Resume {
  file: 'connectionsRestart';
  gammaId: string;
  gammaKey: string;
  localKey: string;
}

describe('Journey: two local projects survive a restart of VS Code', () => {
  const resumeFile = path.join(journeyState(), RESUME_FILE);

  it('adds a local project, uses both, restarts → both connections and both keys are back', async function () {
    this.timeout(300_000);
    const api = await getApi();
    if (fs.existsSync(resumeFile)) {
      const resume = JSON.parse(fs.readFileSync(resumeFile, 'utf8')) as Resume;
      fs.rmSync(resumeFile);
      const store = api.connection.store;
      assert.deepEqual(store.get(resume.gammaId)?.target, { kind: 'local', project: resume.gammaId });
      assert.equal(store.active.id, resume.gammaId, 'the connection left active is active again');
      assert.equal(await api.secrets.get('apiKey', resume.gammaId), resume.gammaKey);
      assert.equal(await api.secrets.get('apiKey', 'local'), resume.localKey);
      await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
      await waitFor(() => api.connection.status.state === 'connected', 'connected to Gamma after the restart', 90_000);
      await waitFor(async () => names(await api.knowledgeBase.tree.getChildren()).includes(FOLDER), 'Gamma’s folder in the tree');
      // The connection file the MCP server reads was written again: both, no key in it.
      const file = fs.readFileSync(path.join(api.context.globalStorageUri.fsPath, 'connections.json'), 'utf8');
      assert.ok(file.includes('"Gamma project"') && file.includes('"Local"'));
      assert.ok(!file.includes(resume.gammaKey) && !file.includes(resume.localKey), 'no key in the connection file');
      await shoot('connections-restart-02-after');
      await store.setActive('local');
      return;
    }
    await useService(api);
    const localKey = (await api.secrets.get('apiKey', 'local'))!;
    assert.ok(localKey, 'Local has its key');
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    await runCommand(api, 'knowledgeDesk.addConnection', ['Gamma project', 'local']);
    const gamma = api.connection.store.byName('Gamma project')!;
    await waitFor(() => api.connection.status.state === 'connected' && api.connection.active.id === gamma.id, 'connected to Gamma');
    await (await api.connection.getClient()).folders.create({ name: FOLDER });
    await api.knowledgeBase.tree.refresh();
    await waitFor(async () => names(await api.knowledgeBase.tree.getChildren()).includes(FOLDER), 'Gamma’s folder in the tree');
    await shoot('connections-restart-01-before', { waitForSelector: '.statusbar-item:has-text("Gamma project")' });
    const resume: Resume = {
      file: 'connectionsRestart',
      gammaId: gamma.id,
      gammaKey: (await api.secrets.get('apiKey', gamma.id))!,
      localKey,
    };
    assert.ok(resume.gammaKey);
    fs.writeFileSync(resumeFile, JSON.stringify(resume));
    void Promise.resolve(vscode.commands.executeCommand('workbench.action.reloadWindow')).catch(() => undefined);
    await sleep(120_000);
    fs.rmSync(resumeFile, { force: true });
    assert.fail('the window was not reloaded');
  });
});
