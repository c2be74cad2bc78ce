// The smoke journey against Knowledge Desk installed from its .vsix (runIntegration.mjs --vsix): the installed copy
// runs in Production mode, so it hands tests nothing (no test API, no probe). What it shows is checked where a user
// sees it: the driver looks for workbench elements (and the chat page's, through its frames) and saves a screenshot
// of each step in its shots folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'knowledge-desk.knowledge-desk';
/** Playwright's way into a webview: its outer iframe, then the page's own frame. */
const IN_WEBVIEW = ' >> internal:control=enter-frame >> iframe#active-frame >> internal:control=enter-frame >> ';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Asks the driver (test/host/driver.mjs) to wait until `selector` is visible in the workbench and shoot it.
 * Resolves with 'ok' or the driver's reason (the element stayed invisible for its 10 s).
 */
async function lookFor(name: string, selector: string): Promise<string> {
  const dir = process.env.KD_SCREENSHOT_DIR;
  if (!dir) throw new Error('KD_SCREENSHOT_DIR is not set: the driver checks what the smoke test expects to see');
  const done = path.join(dir, `${name}.done`);
  fs.rmSync(done, { force: true });
  // Written under another name and renamed: the driver must never read a half-written request.
  fs.writeFileSync(path.join(dir, `${name}.request.tmp`), JSON.stringify({ waitForSelector: selector }));
  fs.renameSync(path.join(dir, `${name}.request.tmp`), path.join(dir, `${name}.request`));
  const deadline = Date.now() + 60_000;
  while (!fs.existsSync(done)) {
    if (Date.now() > deadline) throw new Error(`the driver did not answer the request ${name}`);
    await sleep(100);
  }
  return fs.readFileSync(done, 'utf8');
}

/** Looks for `selector` until it is seen, doing `retry` between attempts (a refresh, a new question). */
async function expectSeen(name: string, selector: string, timeoutMs: number, retry?: () => Thenable<unknown>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let outcome = await lookFor(name, selector);
  while (outcome !== 'ok' && Date.now() < deadline) {
    await retry?.();
    outcome = await lookFor(name, selector);
  }
  assert.equal(outcome, 'ok', `${name}: ${selector}`);
}

describe('Installed .vsix: activate, connect to Local, browse the samples, ask', () => {
  it('is the copy installed from the .vsix, activated in Production mode', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed in this host`);
    const installedIn = process.env.KD_EXTENSIONS_DIR;
    assert.ok(installedIn, 'KD_EXTENSIONS_DIR is not set (the driver sets it with --vsix)');
    assert.equal(path.dirname(ext.extensionPath), path.resolve(installedIn), 'Knowledge Desk runs from the extensions folder');
    assert.ok(fs.existsSync(path.join(ext.extensionPath, 'dist', 'extension.js')));
    for (const absent of ['src', 'test', 'node_modules'])
      assert.ok(!fs.existsSync(path.join(ext.extensionPath, absent)), `${absent}/ shipped`);
    const exports: unknown = await ext.activate();
    assert.equal(ext.isActive, true);
    // Only development and test modes return the test API (src/extension.ts); an installed copy is Production.
    assert.equal(exports, undefined, 'the installed copy returned a test API');
  });

  it('connects to the Local region and shows the sample documents in the Knowledge Base tree', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.knowledgeDesk');
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    await vscode.commands.executeCommand('notifications.clearAll');
    await expectSeen('vsix-connected', '.statusbar-item [aria-label="Knowledge Desk Local connected"]', 90_000);
    // Seeded from samples/knowledge-base (KNOWLEDGE_DESK_LOCAL_SEED) when the local service first starts.
    const refresh = (): Thenable<unknown> => vscode.commands.executeCommand('knowledgeDesk.kb.refresh');
    for (const row of ['Handbook', 'IT', '経費'])
      await expectSeen('vsix-kb-tree', `.monaco-list-row[aria-label*="${row}"]`, 90_000, refresh);
    // Processed, as the tree says (its description), before the next test asks about the documents.
    await expectSeen('vsix-kb-tree', '.monaco-list-row[aria-label*="faq-overview.md"]:has-text("ready")', 120_000, refresh);
  });

  it('answers a question in the chat panel, with citations, from the local service', async () => {
    const ask = (): Thenable<unknown> =>
      vscode.commands.executeCommand('knowledgeDesk.answers.ask', 'How many days of paid leave do employees get?');
    await ask();
    await vscode.commands.executeCommand('notifications.clearAll');
    // Asked again while the sample documents may still be processed (an answer without citations).
    await expectSeen('vsix-chat-answer', `iframe.webview${IN_WEBVIEW}.kd-answer[aria-busy="false"] .kd-cite-link`, 120_000, ask);
    await expectSeen('vsix-chat-model', `iframe.webview${IN_WEBVIEW}.kd-model:has-text("local-extractive")`, 15_000);
  });
});
