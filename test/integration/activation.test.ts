import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadWithCodeCache } from '../../src/platform/codeCache';
import { getApi, useService, waitFor } from './support/host';
import type { UnusedWindow } from './index';

describe('Activation: dist/extension.js loads dist/main.js with a V8 code cache', () => {
  it('this window loaded its code through the loader and wrote the cache the next window takes', async () => {
    const api = await getApi();
    const t = api.timings;
    assert.equal(typeof t.mainLoadMs, 'number', 'dist/main.js was not loaded by dist/extension.js');
    // The test host starts from a fresh profile: nothing was cached before this window.
    assert.equal(t.codeCache, 'miss');
    const dir = path.join(api.context.globalStorageUri.fsPath, 'code-cache');
    const file = await waitFor(
      () => (fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => /^main-[0-9a-f]{16}\.v8cache$/.test(f)) : undefined),
      'the code cache of dist/main.js in global storage',
      30_000,
      () => (fs.existsSync(dir) ? fs.readdirSync(dir).join(', ') : 'no folder'),
    );
    assert.ok(fs.statSync(path.join(dir, file)).size > 10_000, 'cache file too small to hold compiled code');
    // What the next window does, in this extension host's own V8: the cache is accepted.
    const main = path.join(api.context.extensionPath, 'dist/main.js');
    const next = loadWithCodeCache(main, { cacheDir: dir, scriptName: 'next-window-check' });
    // The cache is named after the build it was made from: a build during the run (npm run package) makes
    // the file on disk a different build from the one this window loaded, which no cache of it can match.
    const rebuiltAfterStart = fs.statSync(main).mtimeMs > performance.timeOrigin;
    assert.equal(
      next.cache,
      'hit',
      rebuiltAfterStart ? 'dist/main.js was rebuilt after this extension host started (a build during the run): run again' : undefined,
    );
  });
});

describe('Activation: a window where Knowledge Desk is never used', () => {
  it('starts no server, opens no data folder and holds no lock', () => {
    // Recorded by index.ts before any suite ran, once activation had long finished (see observeUnusedWindow).
    const seen = (globalThis as { kdUnusedWindow?: UnusedWindow }).kdUnusedWindow;
    assert.ok(seen, 'index.ts did not observe the window before the suites');
    assert.deepEqual(seen, {
      connectionState: 'idle',
      localServiceStarted: false,
      dataFolderExists: false,
      lockFileExists: false,
      tcpServers: [],
    });
  });
});

describe('Activation: the test build', () => {
  it('has the test API and the probe, and the local service serves the test routes', async () => {
    const api = await getApi();
    // The driver loads the test build (node esbuild.mjs --tests) with extensionDevelopmentPath and extensionTestsPath.
    // Other builds contain neither the probe nor src/testApi.ts, and activate() returns nothing there
    // (test/package/vsix.test.ts; test/unit/local/testHooks.test.ts checks the local service without the option).
    assert.equal(api.context.extensionMode, vscode.ExtensionMode.Test);
    await useService(api);
    const ep = api.localService.current!;
    const who = await fetch(`${ep.url}/_local/whoami`, { headers: { 'API-KEY': ep.apiKey } });
    assert.equal(who.status, 200, 'the test build starts its local service with the test hooks');
  });
});
