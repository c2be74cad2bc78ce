import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, getApi } from './support/host';

describe('Activation (real extension host)', () => {
  it('activates in the node extension host of VS Code 1.100', async () => {
    const api = await getApi();
    assert.equal(typeof process.versions.node, 'string');
    assert.ok(vscode.version.startsWith('1.100.'), `VS Code ${vscode.version}`);
    assert.ok(api.timings.activationMs > 0 && api.timings.activationMs < 60_000, `activation took ${api.timings.activationMs} ms`);
    console.log(`      activation ${api.timings.activationMs.toFixed(1)} ms in VS Code ${vscode.version}, node ${process.version}`);
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
