import * as fs from 'node:fs';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../../src/extension';
import { ScriptedUserInput, WindowUserInput, type ScriptedAnswer } from '../../../src/platform/userInput';

export const EXTENSION_ID = 'knowledge-desk.knowledge-desk';

export async function getApi(): Promise<KnowledgeDeskTestApi> {
  const ext = vscode.extensions.getExtension<KnowledgeDeskTestApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this host`);
  const api = ext.isActive ? ext.exports : await ext.activate();
  if (!api) throw new Error('activate() returned no test API (production mode?)');
  return api;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls until `probe` returns a truthy value; fails with `what` and the last value seen. */
export async function waitFor<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    await sleep(100);
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
}

/**
 * Knowledge Desk starts nothing until it is used in a window: uses it the way a user does (the
 * status bar's "idle" item runs Check Connection) unless something already did, then waits until
 * the connection is ready.
 */
export async function useKnowledgeDesk(api: KnowledgeDeskTestApi, timeoutMs = 30_000): Promise<void> {
  if (!api.container.connection.isUsed) await vscode.commands.executeCommand('knowledgeDesk.checkConnection');
  await waitFor(() => api.container.connection.status.state === 'connected', 'the connection to be ready', timeoutMs);
}

/** Answers the next prompts from `answers`; an unexpected prompt throws. Call the result's restore(). */
export function scriptInput(api: KnowledgeDeskTestApi, answers: ScriptedAnswer[]): ScriptedUserInput & { restore(): void } {
  const scripted = new ScriptedUserInput(answers);
  api.container.ui = scripted;
  return Object.assign(scripted, { restore: () => (api.container.ui = new WindowUserInput()) });
}

/** Asks the driver for a screenshot of the workbench (only when the suite runs with --screenshots). */
export async function screenshot(name: string, options: { keepNotifications?: boolean } = {}): Promise<void> {
  const dir = process.env.KD_SCREENSHOT_DIR;
  if (!dir) return;
  // Toasts left by earlier tests would cover what this screenshot is about.
  if (!options.keepNotifications) await vscode.commands.executeCommand('notifications.clearAll');
  fs.writeFileSync(path.join(dir, `${name}.request`), '');
  await waitFor(() => fs.existsSync(path.join(dir, `${name}.done`)), `screenshot ${name}`, 30_000);
}

/** Runs a command with scripted answers; fails if it showed an error or left answers unused. */
export async function runCommand(
  api: KnowledgeDeskTestApi,
  command: string,
  answers: ScriptedAnswer[] = [],
  ...args: unknown[]
): Promise<unknown> {
  const input = scriptInput(api, answers);
  const errors = api.container.errorsShown.length;
  try {
    const result = await vscode.commands.executeCommand(command, ...args);
    assert.deepEqual(api.container.errorsShown.slice(errors), [], `${command} showed an error`);
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
  const errors = api.container.errorsShown.length;
  try {
    await vscode.commands.executeCommand(command, ...args);
    const shown = api.container.errorsShown.slice(errors);
    assert.equal(shown.length, 1, `${command} should have shown one error, showed ${JSON.stringify(shown)}`);
    return shown[0].message;
  } finally {
    input.restore();
  }
}
