import * as fs from 'node:fs';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiClient } from '../../../src/api/client';
import type { KnowledgeDeskTestApi } from '../../../src/testApi';
import type { ChatPanel } from '../../../src/features/answers/chat/chatPanel';
import { CommandIds } from '../../../src/platform/commandIds';
import type { FaultConfig } from '../../../src/local/http/faults';
import { ProbeKeys, type TestProbe } from '../../../src/testProbe';
import { ScriptedUserInput, type ScriptedAnswer } from './scriptedUserInput';
import { currentLane } from './lane';

export const EXTENSION_ID = 'knowledge-desk.knowledge-desk';

export async function getApi(): Promise<KnowledgeDeskTestApi> {
  const ext = vscode.extensions.getExtension<KnowledgeDeskTestApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this host`);
  const api = ext.isActive ? ext.exports : await ext.activate();
  if (!api) throw new Error('activate() returned no test API (production mode?)');
  activeApi = api;
  return api;
}

let activeApi: KnowledgeDeskTestApi | undefined;

/** The extension's test probe (getApi() must have run: it exists only outside Production mode). */
export function probe(): TestProbe {
  if (!activeApi) throw new Error('no test probe: call getApi() first');
  return activeApi.probe;
}

/** Has the local service pause `ms` between answer stream lines (0: none), so a test sees the chat mid-stream. */
export async function setStreamDelay(ms: number): Promise<void> {
  if (!activeApi) throw new Error('no test API: call getApi() first');
  await activeApi.setStreamDelay(ms);
}

type Rendered<P> = P extends { onDidRender: vscode.Event<infer R> } ? R : never;

/** What a webview panel's page last reported it drew (undefined before that, and after a viewer was retargeted). */
export function lastRendered<P extends { onDidRender: unknown }>(panel: P): Rendered<P> | undefined {
  return probe().last<Rendered<P>>(panel, ProbeKeys.rendered);
}

/** CSP violations and uncaught errors a webview panel's page reported ("kind: message"). */
export function pageProblems(panel: object): string[] {
  return probe().all<string>(panel, ProbeKeys.pageProblems);
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Sets the faults of the window's local service (its test-only `/_local/faults` route); `{}` clears them. */
export async function localFaults(api: KnowledgeDeskTestApi, config: FaultConfig): Promise<void> {
  const ep = api.localService.current!;
  const res = await fetch(`${ep.url}/_local/faults`, {
    method: 'POST',
    headers: { 'API-KEY': ep.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(config),
  });
  assert.ok(res.ok, `faults: ${res.status}`);
}

/**
 * Names the steps of a long test: each is logged with the time since the test began, and one that does not end
 * within `timeoutMs` fails with its name (and the steps before it), not with mocha's bare "Timeout exceeded".
 */
export function steps(test: string): <T>(what: string, work: PromiseLike<T> | (() => PromiseLike<T>), timeoutMs?: number) => Promise<T> {
  const start = Date.now();
  const done: string[] = [];
  const at = () => `${((Date.now() - start) / 1000).toFixed(1)}s`;
  return async (what, work, timeoutMs = 60_000) => {
    console.log(`    [${test} +${at()}] ${what}`);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${test}: "${what}" did not end within ${timeoutMs / 1000} s (after: ${done.join(' → ') || 'nothing'})`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([typeof work === 'function' ? work() : work, late]);
    } finally {
      clearTimeout(timer);
      done.push(`${what} (${at()})`);
    }
  };
}

/**
 * Polls until `probe` returns a truthy value; fails with `what`, the last value seen and, when given,
 * what `detail` says of the state at that moment (a webview's view state and channel, say).
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
  detail?: () => string | Promise<string>,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      lastError = undefined;
    } catch (error) {
      // A probe that throws (a request to a page that is reloading) is "not yet", not a failure.
      lastError = error;
      last = undefined;
    }
    if (last) return last as NonNullable<T>;
    await sleep(100);
  }
  // A host that stalled past the deadline (a busy machine) wakes in the timers phase, before the I/O that
  // may bring what it waits for: one last look once that I/O is in.
  await new Promise((r) => setImmediate(r));
  try {
    last = await probe();
    if (last) return last as NonNullable<T>;
  } catch (error) {
    lastError = error;
  }
  const seen = lastError ? `last error: ${String(lastError)}` : `last: ${JSON.stringify(last)}`;
  const state = detail ? `; state: ${await Promise.resolve(detail()).catch((e: unknown) => `(unavailable: ${String(e)})`)}` : '';
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (${seen}${state})`);
}

/** Waits until a webview panel's page has said ready; the timeout names the panel's view state and channel. */
export async function waitForPage(
  panel: { channel: { isReady: boolean }; describe(): string },
  what: string,
  // Generous: on a busy machine a page (and, if it never loads, its replacement) takes long to load.
  timeoutMs = 90_000,
): Promise<void> {
  await waitFor(
    () => panel.channel.isReady,
    `${what}: the page to be ready`,
    timeoutMs,
    () => panel.describe(),
  );
}

/**
 * Knowledge Desk starts nothing until it is used in a window: uses it the way a user does (the status
 * bar's "idle" item runs Check Connection) unless something already did, waits until it is connected to
 * its service (the Local region in tests) and returns the client.
 */
export async function useService(api: KnowledgeDeskTestApi, timeoutMs = 30_000): Promise<ApiClient> {
  if (!api.connection.isUsed) await vscode.commands.executeCommand(CommandIds.checkConnection);
  await waitFor(
    () => api.connection.status.state === 'connected',
    'the connection to the service',
    timeoutMs,
    () => JSON.stringify(api.connection.status),
  );
  return api.connection.getClient();
}

/**
 * Puts the workbench into the state every suite starts from and leaves: no editors (untitled ones reverted,
 * so no "save changes?" dialog), one editor group, no quick input, no notifications, the panel closed, and
 * the real user input back in place of scripted answers.
 */
export async function resetWorkbench(api?: KnowledgeDeskTestApi): Promise<void> {
  api?.setUserInput(undefined);
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  for (const doc of vscode.workspace.textDocuments) {
    if (!doc.isDirty || doc.isClosed) continue;
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
  await vscode.commands.executeCommand('workbench.action.editorLayoutSingle');
  await vscode.commands.executeCommand('notifications.clearAll');
  // The current lane's tests open the notifications center to see notifications (notificationSelector).
  await vscode.commands.executeCommand('notifications.hideList');
  await vscode.commands.executeCommand('workbench.action.closePanel');
  // VS Code 1.139 opens its chat view in the secondary side bar at start, which leaves the editors too narrow for a
  // walkthrough's media; tests that need the chat view open it.
  await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  await waitFor(
    () => vscode.window.tabGroups.all.length === 1 && vscode.window.tabGroups.all[0].tabs.length === 0,
    'the workbench to have one empty editor group',
    15_000,
    () => JSON.stringify(vscode.window.tabGroups.all.map((g) => g.tabs.map((t) => t.label))),
  );
}

/** Answers the next prompts from `answers`; an unexpected prompt throws. Call the result's restore(). */
export function scriptInput(api: KnowledgeDeskTestApi, answers: ScriptedAnswer[]): ScriptedUserInput & { restore(): void } {
  const scripted = new ScriptedUserInput(answers);
  api.setUserInput(scripted);
  return Object.assign(scripted, { restore: () => api.setUserInput(undefined) });
}

/**
 * A Playwright selector for a notification (`inner` narrows it: `:has-text("…")`, ` .monaco-button`). VS Code with the
 * smoke-test driver (the current lane: since 1.133 the test payload needs it) never shows toasts, only the
 * notifications center, so there the center is opened and its rows are used; the floor lane's toasts otherwise.
 */
export async function notificationSelector(inner = ''): Promise<string> {
  if (currentLane() !== 'current') return `.notification-toast${inner}`;
  await vscode.commands.executeCommand('notifications.showList');
  return `.notifications-center .notification-list-item${inner}`;
}

/**
 * Asks the driver for a screenshot of the workbench (only when the suite runs with --screenshots). With
 * `waitForSelector` the driver shoots once that workbench element is visible (a hover, a resized view) and the
 * screenshot fails if it never becomes visible.
 */
export async function screenshot(name: string, options: { keepNotifications?: boolean; waitForSelector?: string } = {}): Promise<void> {
  const dir = process.env.KD_SCREENSHOT_DIR;
  if (!dir) return;
  // Toasts left by earlier tests would cover what this screenshot is about.
  if (!options.keepNotifications) await vscode.commands.executeCommand('notifications.clearAll');
  await driverRequest(dir, name, options.waitForSelector ? { waitForSelector: options.waitForSelector } : undefined);
}

/**
 * Hands the driver a request (test/host/driver.mjs: a screenshot, or { click } of a workbench element) and waits
 * until it is done; throws with the driver's reason when it could not be.
 */
export async function driverRequest(dir: string, name: string, body?: { waitForSelector?: string; click?: string }): Promise<void> {
  const done = path.join(dir, `${name}.done`);
  fs.rmSync(done, { force: true });
  // Written under another name and renamed: the driver must never read a half-written request.
  fs.writeFileSync(path.join(dir, `${name}.request.tmp`), body ? JSON.stringify(body) : '');
  fs.renameSync(path.join(dir, `${name}.request.tmp`), path.join(dir, `${name}.request`));
  const outcome = await waitFor(() => fs.existsSync(done) && fs.readFileSync(done, 'utf8'), `driver request ${name}`, 30_000);
  fs.rmSync(done, { force: true });
  if (outcome !== 'ok') throw new Error(`${name}: ${outcome}`);
}

/**
 * Whether the workbench shows an element matching `selector` (a Playwright selector) within `timeoutMs`: asked of
 * the driver, which sees the page (test/host/driver.mjs, KD_HOST_QUERY_DIR), in every run, with or without
 * screenshots. For what the extension API cannot tell, such as a walkthrough step's tick.
 */
export async function workbenchShows(selector: string, timeoutMs = 10_000, click = false): Promise<boolean> {
  return (await workbenchQuery(selector, timeoutMs, click ? { click } : {})) === 'visible';
}

/** Types `text` into a workbench input (a quick pick's filter box) as a person types it; fails when it is not shown. */
export async function fillInWorkbench(selector: string, text: string, timeoutMs = 15_000): Promise<void> {
  if ((await workbenchQuery(selector, timeoutMs, { fill: text })) !== 'visible') throw new Error(`${selector} was not shown to type into`);
}

/** The text a person reads in every workbench element matching `selector`; undefined when none became visible. */
export async function workbenchRead(selector: string, timeoutMs = 10_000): Promise<string[] | undefined> {
  const answer = await workbenchQuery(selector, timeoutMs, { read: true });
  return (JSON.parse(answer) as { texts: string[] | null }).texts ?? undefined;
}

/** One query to the driver (test/host/driver.mjs, KD_HOST_QUERY_DIR); returns its answer. */
async function workbenchQuery(
  selector: string,
  timeoutMs: number,
  extra: { click?: boolean; fill?: string; read?: boolean },
): Promise<string> {
  const dir = process.env.KD_HOST_QUERY_DIR;
  if (!dir) throw new Error('KD_HOST_QUERY_DIR is not set: run the suite with test/host/runIntegration.mjs');
  const name = `q-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(path.join(dir, `${name}.query.tmp`), JSON.stringify({ selector, timeoutMs, ...extra }));
  // Renamed into place, so the driver never reads half a file.
  fs.renameSync(path.join(dir, `${name}.query.tmp`), path.join(dir, `${name}.query`));
  const answerFile = path.join(dir, `${name}.answer`);
  const answer = await waitFor(
    () => fs.existsSync(answerFile) && fs.readFileSync(answerFile, 'utf8'),
    `the driver's answer about ${selector}`,
    timeoutMs + 30_000,
  );
  fs.rmSync(answerFile, { force: true });
  return String(answer);
}

/**
 * Presses a workbench element as a person does (a progress notification's Cancel), through the driver's queries,
 * so with or without screenshots; fails when it is not shown within `timeoutMs`.
 */
export async function pressInWorkbench(selector: string, timeoutMs = 15_000): Promise<void> {
  if (!(await workbenchShows(selector, timeoutMs, true))) throw new Error(`${selector} was not shown to be pressed`);
}

/** Runs a command with scripted answers; fails if it showed an error or left answers unused. */
export async function runCommand(
  api: KnowledgeDeskTestApi,
  command: string,
  answers: ScriptedAnswer[] = [],
  ...args: unknown[]
): Promise<unknown> {
  const input = scriptInput(api, answers);
  const errors = api.probe.errorsShown.total;
  try {
    const result = await vscode.commands.executeCommand(command, ...args);
    assert.deepEqual(api.probe.errorsShown.since(errors), [], `${command} showed an error`);
    assert.equal(input.remaining, 0, `${command}: unused scripted answers`);
    return result;
  } finally {
    input.restore();
  }
}

/** Runs a command that must fail with one error message; returns that message. */
export async function runFailingCommand(
  api: KnowledgeDeskTestApi,
  command: string,
  answers: ScriptedAnswer[] = [],
  ...args: unknown[]
): Promise<string> {
  const input = scriptInput(api, answers);
  const errors = api.probe.errorsShown.total;
  try {
    await vscode.commands.executeCommand(command, ...args);
    const shown = api.probe.errorsShown.since(errors);
    assert.equal(shown.length, 1, `${command} should have shown one error, showed ${JSON.stringify(shown)}`);
    return shown[0].message;
  } finally {
    input.restore();
  }
}

/**
 * The kind of a theme VS Code ships, from its name: "Default High Contrast" is a dark high-contrast theme (no "dark"
 * in its name), "Default High Contrast Light" a light one. Undefined for a name that does not say.
 */
export function themeKind(theme: string): vscode.ColorThemeKind | undefined {
  if (/high contrast light/i.test(theme)) return vscode.ColorThemeKind.HighContrastLight;
  if (/high contrast/i.test(theme)) return vscode.ColorThemeKind.HighContrast;
  if (/dark/i.test(theme)) return vscode.ColorThemeKind.Dark;
  if (/light/i.test(theme)) return vscode.ColorThemeKind.Light;
  return undefined;
}

/**
 * Runs `fn` with another colour theme, then puts the previous setting back. Only with KD_THEME_SHOTS=1: the
 * web workbench starts in Light+ although the setting's default is Light Modern, so later screenshots would
 * change. Waits until the workbench has applied each theme, not for a fixed time.
 */
export async function withTheme(theme: string, fn: () => Promise<void>): Promise<void> {
  if (!process.env.KD_THEME_SHOTS) return;
  const config = vscode.workspace.getConfiguration('workbench');
  const previous = config.inspect<string>('colorTheme')?.globalValue;
  const before = vscode.window.activeColorTheme.kind;
  const expected = themeKind(theme);
  await config.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
  try {
    await waitFor(
      () => (expected !== undefined ? vscode.window.activeColorTheme.kind === expected : vscode.window.activeColorTheme.kind !== before),
      `the ${theme} theme to be applied`,
    );
    await fn();
  } finally {
    await config.update('colorTheme', previous, vscode.ConfigurationTarget.Global);
    await waitFor(() => vscode.window.activeColorTheme.kind === before, 'the previous theme to be applied again');
  }
}

/** Waits until the service answers `question` with citations (a processed document reaches the answer index just after). */
export async function waitUntilAnswerable(client: ApiClient, question: string): Promise<void> {
  await waitFor(
    async () => (await client.answers.generate({ query: question, includeCitations: true })).citations.length > 0,
    'the handbook to be answerable',
    30_000,
  );
}

/** A chat panel on a new, empty conversation whatever earlier tests left: no panel and no stored history first. */
export async function openFreshChat(api: KnowledgeDeskTestApi): Promise<ChatPanel> {
  await resetWorkbench(api);
  await api.chat.forgetAll();
  const panel = (await vscode.commands.executeCommand<ChatPanel>('knowledgeDesk.answers.ask'))!;
  await waitForPage(panel, 'the chat panel');
  return panel;
}
