// Loaded by VS Code inside the extension host (extensionTestsPath): runs every bundled *.test.js here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as net from 'node:net';
import * as vscode from 'vscode';
import { WALKTHROUGH_ID } from '../../src/platform/commandIds';
import { getApi, resetWorkbench, waitFor, workbenchShows } from './support/host';

/** What a window in which Knowledge Desk was activated but never used looked like (see activation.test.ts). */
export interface UnusedWindow {
  connectionState: string;
  localServiceStarted: boolean;
  dataFolderExists: boolean;
  lockFileExists: boolean;
  tcpServers: string[];
}

/**
 * Before any suite uses Knowledge Desk: waits until activation has long finished (its code cache is written
 * 3 s after activate() returns, an event rather than a sleep) and records what an unused window holds.
 */
async function observeUnusedWindow(): Promise<UnusedWindow> {
  const api = await getApi();
  const cacheDir = path.join(api.context.globalStorageUri.fsPath, 'code-cache');
  await waitFor(() => fs.existsSync(cacheDir) && fs.readdirSync(cacheDir).some((f) => f.endsWith('.v8cache')), 'the code cache', 60_000);
  const dataDir = path.join(api.context.globalStorageUri.fsPath, 'local-service');
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  const tcpServers = handles
    .filter((h): h is net.Server => h instanceof net.Server && h.listening)
    .map((s) => s.address())
    .filter((a): a is net.AddressInfo => typeof a === 'object' && a !== null)
    .map((a) => `${a.address}:${a.port}`);
  return {
    connectionState: api.connection.status.state,
    localServiceStarted: api.localService.isStarted,
    dataFolderExists: fs.existsSync(dataDir),
    lockFileExists: fs.existsSync(path.join(dataDir, 'lock.json')),
    tcpServers,
  };
}

/** What the first window after the install showed before any suite ran (see walkthrough.test.ts). */
export interface FirstLaunch {
  /** The workbench showed the steps of Knowledge Desk's walkthrough (asked of the driver, which sees the page). */
  walkthroughShown: boolean;
  /** The labels of the editor tabs that were open. */
  tabs: string[];
}

/** The test host starts from a fresh profile: this window is the first launch after the install. */
async function observeFirstLaunch(): Promise<FirstLaunch> {
  // Opened at activation, long before this; bounded, so a walkthrough that never opens is reported by its test.
  const walkthroughShown = await workbenchShows(`.getting-started-step[data-step-id="${WALKTHROUGH_ID}#connect"]`, 20_000);
  return { walkthroughShown, tabs: vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)) };
}

/**
 * The suites' files in the order asked for by KD_TEST_ORDER: `name` (default), `reverse`, or `shuffle:<seed>`.
 * Suites do not depend on each other, so every order must give the same results.
 */
function ordered(files: string[]): string[] {
  const order = process.env.KD_TEST_ORDER ?? 'name';
  const sorted = [...files].sort();
  if (order === 'reverse') return sorted.reverse();
  const seed = /^shuffle:(\d+)$/.exec(order)?.[1];
  if (seed === undefined) return sorted;
  let state = Number(seed) >>> 0 || 1;
  const next = (): number => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  for (let i = sorted.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [sorted[i], sorted[j]] = [sorted[j], sorted[i]];
  }
  return sorted;
}

export async function run(): Promise<void> {
  (globalThis as { kdUnusedWindow?: UnusedWindow }).kdUnusedWindow = await observeUnusedWindow();
  (globalThis as { kdFirstLaunch?: FirstLaunch }).kdFirstLaunch = await observeFirstLaunch();
  // The timeout is a hang guard, not a speed limit: a busy machine runs the workbench several times slower.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 180_000, slow: 5_000 });
  if (process.env.KD_TEST_GREP) mocha.grep(process.env.KD_TEST_GREP);
  const files = ordered(fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js')));
  console.log(`suite files in ${process.env.KD_TEST_ORDER ?? 'name'} order: ${files.join(', ')}`);
  for (const file of files) mocha.addFile(path.join(__dirname, file));
  // Every top-level suite starts from, and leaves, the same workbench: whatever one suite leaves open (an
  // editor, a quick input, scripted answers, a second editor group) cannot reach the next one.
  mocha.suite.on('suite', (suite: Mocha.Suite) => {
    if (suite.parent !== mocha.suite) return;
    suite.beforeAll('reset the workbench', async () => resetWorkbench(await getApi()));
    suite.afterAll('reset the workbench', async () => resetWorkbench(await getApi()));
  });
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const s = runner.stats!;
      console.log(`mocha: ${s.passes} passed, ${s.failures} failed, ${s.pending} pending`);
      if (failures > 0) reject(new Error(`${failures} integration tests failed`));
      else resolve();
    });
  });
}
