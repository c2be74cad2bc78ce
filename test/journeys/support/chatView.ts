// VS Code's own chat view, used as a person does (the current lane: test/host/lanes.mjs): a question for @knowledge
// sent from the view, and what the view then shows, read by the driver (test/host/driver.mjs reads the page; the
// extension host cannot see it). The view needs a language model: the lane's test-only echo model
// (test/host/echoModel), which @knowledge never uses.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from '../../integration/support/host';

export const ECHO_MODEL = { vendor: 'kd-echo', id: 'echo' };

/** One response of the chat view (a request is `.interactive-request`). */
export const RESPONSE = '.interactive-item-container.interactive-response';

/**
 * The text a person reads in every workbench element matching `selector` (Playwright's innerText), once the first is
 * visible within `timeoutMs`; undefined when none became visible.
 */
export async function workbenchTexts(selector: string, timeoutMs = 10_000): Promise<string[] | undefined> {
  const dir = process.env.KD_HOST_QUERY_DIR;
  if (!dir) throw new Error('KD_HOST_QUERY_DIR is not set: run the suite with test/host/runIntegration.mjs');
  const name = `q-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(path.join(dir, `${name}.query.tmp`), JSON.stringify({ selector, timeoutMs, read: true }));
  // Renamed into place, so the driver never reads half a file.
  fs.renameSync(path.join(dir, `${name}.query.tmp`), path.join(dir, `${name}.query`));
  const answerFile = path.join(dir, `${name}.answer`);
  const answer = await waitFor(
    () => fs.existsSync(answerFile) && fs.readFileSync(answerFile, 'utf8'),
    `the driver's reading of ${selector}`,
    timeoutMs + 30_000,
  );
  fs.rmSync(answerFile, { force: true });
  return (JSON.parse(String(answer)) as { texts: string[] | null }).texts ?? undefined;
}

/**
 * Sends `prompt` (e.g. `@knowledge /docs …`) from a new chat in the chat view and waits until its response shows
 * text for which `complete` holds; returns that text. Each question starts a new chat, so the view holds one response.
 */
export async function askInChatView(prompt: string, complete: (text: string) => boolean): Promise<string> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query: prompt,
    isPartialQuery: false,
    modelSelector: ECHO_MODEL,
    mode: 'ask',
  });
  let shown = '';
  await waitFor(
    async () => {
      shown = (await workbenchTexts(RESPONSE, 15_000))?.at(-1) ?? '';
      return complete(shown);
    },
    `the chat view's response to "${prompt}"`,
    120_000,
    () => shown,
  );
  return shown;
}

/** VS Code says the request is over: "Completed N steps" (with or without "in 1s"), no longer "Working". */
export const finishedRequest = (text: string): boolean => /Completed \d+ steps?/.test(text) && !/^Working/m.test(text);

/**
 * The chat view's last response, read until `ready` holds or `timeoutMs` passed (then the last text read, or
 * undefined if none could be read): for a part VS Code may draw late, or not at all.
 */
export async function readChatResponseUntil(ready: (text: string) => boolean, timeoutMs: number): Promise<string | undefined> {
  let text: string | undefined;
  try {
    await waitFor(
      async () => {
        text = (await workbenchTexts(RESPONSE, 5_000))?.at(-1) ?? text;
        return text !== undefined && ready(text);
      },
      'a part the chat view may draw late',
      timeoutMs,
    );
  } catch {
    // Not drawn in time: the caller decides what that means, from the last text read.
  }
  return text;
}
