import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ContextKeys } from '../../src/platform/commandIds';
import { connectedOnly } from '../../src/platform/tree/connectedOnly';
import { getApi, resetWorkbench, screenshot, scriptInput, useService, waitFor } from './support/host';
import type { KnowledgeDeskTestApi } from '../../src/testApi';

async function stateIs(api: KnowledgeDeskTestApi, state: string, region?: string): Promise<void> {
  await waitFor(
    () => {
      const s = api.connection.status;
      return s.state === state && (!region || s.region === region);
    },
    `connection ${region ?? ''} ${state}`,
    20_000,
    () => JSON.stringify(api.connection.status),
  );
}

async function selectRegion(api: KnowledgeDeskTestApi, label: string, ...more: unknown[]): Promise<void> {
  const input = scriptInput(api, [label, ...more]);
  try {
    await vscode.commands.executeCommand('knowledgeDesk.selectRegion');
    assert.equal(input.remaining, 0, `unused scripted answers: ${input.remaining}`);
  } finally {
    input.restore();
  }
}

/** Settings these tests change; each test starts from and leaves what the run had before the suite. */
const SETTINGS = ['region', 'custom.baseUrl', 'identity.agentEmail', 'identity.userEmail'] as const;

describe('Connection: regions, keys, status bar', () => {
  let api: KnowledgeDeskTestApi;
  let saved: Record<(typeof SETTINGS)[number], unknown>;
  let localKey: string;
  before(async () => {
    api = await getApi();
    await useService(api);
    await stateIs(api, 'connected', 'local');
    localKey = api.localService.current!.apiKey;
    const config = vscode.workspace.getConfiguration('knowledgeDesk');
    saved = Object.fromEntries(SETTINGS.map((k) => [k, config.inspect(k)?.globalValue])) as typeof saved;
  });

  /** Local region with its key stored and connected, identity headers unset, whatever an earlier test did. */
  async function restore(): Promise<void> {
    const config = vscode.workspace.getConfiguration('knowledgeDesk');
    for (const k of SETTINGS) {
      const value = k.startsWith('identity.') ? undefined : saved[k];
      if (config.inspect(k)?.globalValue !== value) await config.update(k, value, vscode.ConfigurationTarget.Global);
    }
    if ((await api.secrets.get('apiKey', 'local')) !== localKey) await api.secrets.store('apiKey', 'local', localKey);
    await stateIs(api, 'connected', 'local');
  }

  beforeEach(async () => {
    await resetWorkbench(api);
    await restore();
  });

  afterEach(async () => {
    await restore();
    await resetWorkbench(api);
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('knowledgeDesk');
    for (const k of SETTINGS) await config.update(k, saved[k], vscode.ConfigurationTarget.Global);
  });

  it('connects to the embedded local service on a fresh profile, storing its key in SecretStorage', async () => {
    await stateIs(api, 'connected', 'local');
    const endpoint = api.localService.current;
    assert.ok(endpoint, 'the local service runs in this extension host');
    assert.match(endpoint.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await api.secrets.get('apiKey', 'local'), endpoint.apiKey);
    assert.equal(await api.context.secrets.get('knowledgeDesk.apiKey.local'), endpoint.apiKey);
    assert.match(api.connectionStatusBar.text, /Local · connected/);
    assert.equal(api.contextKey(ContextKeys.hasKey), true);
  });

  it('shows the Connect welcome view while the selected region has no key', async () => {
    const errorsBefore = api.probe.errorsShown.total;
    await selectRegion(api, 'US', undefined /* cancel the key prompt that follows */);
    await stateIs(api, 'noKey', 'us');
    assert.equal(api.contextKey(ContextKeys.hasKey), false);
    assert.match(api.connectionStatusBar.text, /US · no key/);
    assert.equal(vscode.workspace.getConfiguration('knowledgeDesk').get('region'), 'us');
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    await screenshot('welcome-no-key');
    assert.deepEqual(api.probe.errorsShown.since(errorsBefore), [], 'cancelling the key prompt must stay silent');
  });

  it('rejects a wrong key without storing it, then Set API Key stores a valid one and the status bar says connected to Local', async () => {
    await selectRegion(api, 'Local');
    await stateIs(api, 'connected', 'local');
    assert.equal(api.localService.current!.apiKey, localKey);

    let input = scriptInput(api, ['Remove Key']);
    try {
      await vscode.commands.executeCommand('knowledgeDesk.clearApiKey');
    } finally {
      input.restore();
    }
    await stateIs(api, 'noKey', 'local');
    assert.equal(await api.secrets.get('apiKey', 'local'), undefined);

    const errorsBefore = api.probe.errorsShown.total;
    input = scriptInput(api, ['kd_local_this-key-is-wrong']);
    try {
      await vscode.commands.executeCommand('knowledgeDesk.setApiKey');
    } finally {
      input.restore();
    }
    assert.equal(api.probe.errorsShown.total, errorsBefore + 1, 'one error for the rejected key');
    assert.match(api.probe.errorsShown.last?.message ?? '', /rejected/);
    assert.equal(await api.secrets.get('apiKey', 'local'), undefined, 'a rejected key must not be stored');

    input = scriptInput(api, [localKey]);
    try {
      await vscode.commands.executeCommand('knowledgeDesk.setApiKey');
    } finally {
      input.restore();
    }
    assert.equal(await api.context.secrets.get('knowledgeDesk.apiKey.local'), localKey);
    await stateIs(api, 'connected', 'local');
    assert.match(api.connectionStatusBar.text, /Local · connected/);
    assert.equal(api.contextKey(ContextKeys.hasKey), true);
    await screenshot('connected-local');
  });

  /** A loopback port nothing listens on (taken from the OS, then closed): never a real external host. */
  async function closedPort(): Promise<number> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  /** The Custom region pointed at a closed loopback port. */
  async function unreachableCustom(): Promise<string> {
    const host = `127.0.0.1:${await closedPort()}`;
    const config = vscode.workspace.getConfiguration('knowledgeDesk');
    await config.update('custom.baseUrl', `http://${host}`, vscode.ConfigurationTarget.Global);
    await config.update('region', 'custom', vscode.ConfigurationTarget.Global);
    return host;
  }

  it('Set API Key for an unreachable region says which host and what to check; the default button does not store', async () => {
    const host = await unreachableCustom();
    await stateIs(api, 'noKey', 'custom');
    let shown: { message: string; actions: readonly string[] } | undefined;
    const input = scriptInput(api, [
      'kd_custom_key_never_checked',
      (p: { options: unknown; actions?: readonly string[] }) => {
        shown = { message: String(p.options), actions: p.actions ?? [] };
        return undefined; // Escape: VS Code's own Cancel
      },
    ]);
    try {
      await vscode.commands.executeCommand('knowledgeDesk.setApiKey');
      assert.equal(input.remaining, 0);
    } finally {
      input.restore();
    }
    assert.ok(shown, 'a question was asked');
    assert.match(shown.message, new RegExp(`Cannot reach ${host.replace(/\./g, '\\.')}: the connection was refused\\.`));
    assert.match(shown.message, /network connection/);
    assert.match(shown.message, /proxy settings \(http\.proxy\)/);
    assert.match(shown.message, /region is the right one/);
    assert.doesNotMatch(shown.message, /projects\.|ECONNREFUSED|\bfailed\b/, 'no operation names or raw codes');
    // The first button is the dialog's default (Enter): it must not store an unchecked key.
    assert.deepEqual(shown.actions, ['Check Again', 'Store Without Checking']);
    assert.equal(await api.secrets.get('apiKey', 'custom'), undefined, 'cancelled: nothing stored');
  });

  it('every tree shows an error row with Retry when the service cannot be reached, and Retry checks again', async () => {
    const host = await unreachableCustom();
    await api.secrets.store('apiKey', 'custom', 'kd_custom_key_for_the_test');
    try {
      await vscode.commands.executeCommand('knowledgeDesk.checkConnection');
      await stateIs(api, 'unreachable', 'custom');
      const trees: Array<[string, vscode.TreeDataProvider<unknown>]> = [
        ['Knowledge Base', api.knowledgeBase.tree as vscode.TreeDataProvider<unknown>],
        ['Q&A', api.qna.tree as vscode.TreeDataProvider<unknown>],
        ['Candidates', api.qna.candidates as vscode.TreeDataProvider<unknown>],
        ['Jobs', api.jobs.tree as vscode.TreeDataProvider<unknown>],
      ];
      for (const [name, provider] of trees) {
        // The gate every view is created with, over the view's own provider and the real connection.
        const gated = connectedOnly(provider, api.connection);
        const rows = (await gated.getChildren()) ?? [];
        assert.equal(rows.length, 1, `${name}: one row, not an empty view`);
        const item = await gated.getTreeItem(rows[0]);
        assert.match(String(item.label), new RegExp(`^Could not load: Cannot reach ${host.replace(/\./g, '\\.')}`), name);
        assert.equal(item.command?.command, 'knowledgeDesk.checkConnection', `${name}: Retry checks the connection again`);
      }
      const checks = api.connection.status;
      await vscode.commands.executeCommand('knowledgeDesk.checkConnection');
      await stateIs(api, 'unreachable', 'custom');
      assert.notEqual(api.connection.status, checks, 'Retry ran a new check');
    } finally {
      await api.secrets.delete('apiKey', 'custom');
    }
  });

  it('Custom region refuses http:// on the network and accepts a loopback URL', async () => {
    const errorsBefore = api.probe.errorsShown.total;
    await selectRegion(api, 'Custom', 'http://kb.example.com');
    assert.match(api.probe.errorsShown.last?.message ?? '', /https/);
    assert.equal(api.probe.errorsShown.total, errorsBefore + 1);
    assert.equal(vscode.workspace.getConfiguration('knowledgeDesk').get('region'), 'local', 'region unchanged after a refused URL');

    await selectRegion(api, 'Custom', 'http://127.0.0.1:9/', '', undefined /* no key now */);
    assert.equal(vscode.workspace.getConfiguration('knowledgeDesk').get('custom.baseUrl'), 'http://127.0.0.1:9');
    await stateIs(api, 'noKey', 'custom');
    await selectRegion(api, 'Local');
    await stateIs(api, 'connected', 'local');
  });

  it('Set Identity stores headers as settings, internationalised domains in punycode, and rejects a malformed email', async () => {
    let input = scriptInput(api, ['Agent email', 'taro.yamada@例え.jp']);
    try {
      await vscode.commands.executeCommand('knowledgeDesk.setIdentity');
    } finally {
      input.restore();
    }
    assert.equal(vscode.workspace.getConfiguration('knowledgeDesk').get('identity.agentEmail'), 'taro.yamada@xn--r8jz45g.jp');

    const errorsBefore = api.probe.errorsShown.total;
    input = scriptInput(api, ['User email', 'not an email']);
    try {
      await vscode.commands.executeCommand('knowledgeDesk.setIdentity');
    } finally {
      input.restore();
    }
    assert.equal(api.probe.errorsShown.total, errorsBefore + 1, 'one error for the malformed email');
    assert.match(api.probe.errorsShown.last?.message ?? '', /email address/);
    assert.equal(vscode.workspace.getConfiguration('knowledgeDesk').get('identity.userEmail'), '');
  });

  it('never writes a key to the log or to settings', async () => {
    const key = api.localService.current!.apiKey;
    const dir = api.context.logUri.fsPath;
    await waitFor(() => fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.endsWith('.log')), 'the log file');
    const text = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.log'))
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
      .join('\n');
    assert.match(text, /\[connection\] connected to Local/, 'the log was read');
    assert.ok(!text.includes(key), 'the API key appears in the log');
    assert.ok(!text.includes(key.slice(9, 30)), 'part of the API key appears in the log');
    const settings = JSON.stringify(vscode.workspace.getConfiguration('knowledgeDesk'));
    assert.ok(!settings.includes(key), 'the API key appears in settings');
  });

  it('keeps the client and the views’ loaded pages across unrelated setting changes; a client input rebuilds it with one event', async () => {
    await stateIs(api, 'connected', 'local');
    const connection = api.connection;
    const client = await connection.getClient();
    const events: string[] = [];
    const subs = [
      connection.onDidChangeClient(() => events.push('client')),
      connection.onDidChangeStatus((s) => events.push(`status ${s.state}`)),
    ];
    const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('knowledgeDesk');
    try {
      // The change event is delivered before update() resolves: anything it started has started by now.
      await config().update('upload.concurrency', 7, vscode.ConfigurationTarget.Global);
      assert.equal(api.settings.get('upload.concurrency', 4), 7);
      assert.equal(events.length, 0, `an unrelated setting re-checked the connection or reset the views: ${JSON.stringify(events)}`);
      assert.strictEqual(await connection.getClient(), client, 'the client was rebuilt');

      await config().update('requestTimeoutSeconds', 45, vscode.ConfigurationTarget.Global);
      await waitFor(() => events.includes('client'), 'the client-changed event');
      await stateIs(api, 'connected', 'local');
      assert.deepEqual(events.filter((e) => e === 'client').length, 1, `one client-changed event, got ${JSON.stringify(events)}`);
      const rebuilt = await connection.getClient();
      assert.notStrictEqual(rebuilt, client);
      assert.equal(rebuilt.config.timeoutMs, 45_000);
    } finally {
      subs.forEach((d) => d.dispose());
      await config().update('upload.concurrency', undefined, vscode.ConfigurationTarget.Global);
      await config().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
      await stateIs(api, 'connected', 'local');
    }
  });
});
