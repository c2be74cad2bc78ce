import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, getApi, useService, waitFor } from './support/host';

describe('Activation (real extension host)', () => {
  // Runs first in the window (files run in name order): nothing has used Knowledge Desk yet.
  it('starts nothing in a window where Knowledge Desk is not used: no server, no data folder, no lock; the idle status bar item starts it', async () => {
    const api = await getApi();
    const dataDir = path.join(api.container.context.globalStorageUri.fsPath, 'local-service');
    assert.equal(api.container.connection.isUsed, false, 'something used Knowledge Desk before the first test');
    assert.equal(api.container.connection.status.state, 'idle');
    assert.equal(api.container.localService.isStarted, false, 'the local service was started');
    assert.equal(api.container.localService.current, undefined);
    assert.ok(!fs.existsSync(dataDir), `the data folder ${dataDir} was created`);
    const item = api.features.connection.statusBar.item;
    assert.match(item.text, /Knowledge Desk: Local · idle/);
    assert.equal(typeof item.command === 'string' ? item.command : item.command?.command, 'knowledgeDesk.checkConnection');

    // Clicking the item is the first use: the service starts, takes its lock and the check succeeds.
    await vscode.commands.executeCommand(typeof item.command === 'string' ? item.command : item.command!.command);
    await useService(api);
    assert.equal(api.container.localService.isStarted, true);
    assert.ok(api.container.localService.current, 'this window owns the local service');
    await waitFor(() => fs.existsSync(path.join(dataDir, 'lock.json')), 'the lock file of the data folder');
    assert.match(item.text, /Local · connected/);
  });

  it('activates in the node extension host of VS Code 1.100', async () => {
    const api = await getApi();
    assert.equal(typeof process.versions.node, 'string');
    assert.ok(vscode.version.startsWith('1.100.'), `VS Code ${vscode.version}`);
    assert.ok(api.timings.activationMs > 0 && api.timings.activationMs < 60_000, `activation took ${api.timings.activationMs} ms`);
    console.log(`      activation ${api.timings.activationMs.toFixed(1)} ms in VS Code ${vscode.version}, node ${process.version}`);
  });

  it('runs in Test mode, the only kind of run with the test probe: the local service serves the test routes', async () => {
    const api = await getApi();
    // The driver loads the extension with extensionDevelopmentPath and extensionTestsPath (a real VS Code run of
    // extension tests), which gives ExtensionMode.Test; in Production Container.probe is undefined and activate()
    // returns nothing (test/unit/platform/testProbe.test.ts checks the local service's side without the option).
    assert.equal(api.container.context.extensionMode, vscode.ExtensionMode.Test);
    assert.equal(api.container.probe, api.probe);
    await useService(api);
    const ep = api.container.localService.current!;
    const who = await fetch(`${ep.url}/_local/whoami`, { headers: { 'API-KEY': ep.apiKey } });
    assert.equal(who.status, 200, 'the extension starts its local service with the test hooks outside Production');
  });

  it('registers every contributed command, each with the Knowledge Desk category', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const contributed: Array<{ command: string; category?: string }> = ext.packageJSON.contributes.commands;
    const registered = new Set((await vscode.commands.getCommands(true)).filter((c) => c.startsWith('knowledgeDesk.')));
    assert.ok(contributed.length >= 7);
    for (const c of contributed) {
      assert.ok(registered.has(c.command), `${c.command} is contributed but not registered`);
      assert.equal(c.category, 'Knowledge Desk', `${c.command} has no category`);
    }
  });

  it('hides tree-only commands from the Command Palette', () => {
    const menus = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.menus;
    // Hidden (when: false), or placed in the palette on purpose with its own condition (e.g. Cancel Job works without a tree item).
    const hidden = new Set(
      (menus.commandPalette as Array<{ command: string; when?: string }>).filter((m) => !!m.when).map((m) => m.command),
    );
    const treeOnly = new Set<string>((menus['view/item/context'] ?? []).map((m: { command: string }) => m.command));
    for (const command of treeOnly) {
      const alsoElsewhere = ['view/title', 'explorer/context', 'editor/context'].some((k) =>
        (menus[k] ?? []).some((m: { command: string }) => m.command === command),
      );
      if (!alsoElsewhere) assert.ok(hidden.has(command), `${command} appears only on tree items but is not hidden from the palette`);
    }
  });
});
