import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { FileNode } from '../../src/api/schemas/kbNodes';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { ChatPanel } from '../../src/features/answers/chat/chatPanel';
import { WALKTHROUGH_SHOWN_KEY } from '../../src/platform/firstLaunch';
import { openWalkthroughOnFirstLaunch } from '../../src/platform/walkthrough';
import type { FirstLaunch } from './index';
import {
  EXTENSION_ID,
  getApi,
  resetWorkbench,
  runCommand,
  screenshot,
  useService,
  waitFor,
  waitForPage,
  workbenchShows,
} from './support/host';

const WALKTHROUGH = `${EXTENSION_ID}#gettingStarted`;
const QUESTION = 'When does the walkthrough cafeteria open?';
/** A step shown as done on the walkthrough page (checked by the driver, only when the run takes screenshots). */
const doneStep = (step: string): string => `.getting-started-step[data-step-id="${WALKTHROUGH}#${step}"][aria-checked="true"]`;
const openStep = (step: string): string => `.getting-started-step[data-step-id="${WALKTHROUGH}#${step}"][aria-checked="false"]`;
const editorTabs = (): string[] => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
const japanese = (): boolean => vscode.env.language.startsWith('ja');
const shot = (name: string): string => `${name}${japanese() ? '-ja' : ''}`;
/** The first item of a quick pick, whatever the display language calls it. */
const first = (p: { items: readonly vscode.QuickPickItem[] }): vscode.QuickPickItem => p.items[0];

/**
 * A step's context key must be true afterwards; when it already was (an earlier suite of this window uploaded
 * or imported something), the step was completed before and the result itself is what the test checks.
 */
async function stepCompleted(api: KnowledgeDeskTestApi, key: string, was: unknown): Promise<void> {
  await waitFor(() => api.contextKey(key) === true, `${key} to be set`);
  if (was === true) console.log(`walkthrough: ${key} was already set by an earlier suite`);
}

interface Step {
  id: string;
  description: string;
  completionEvents: string[];
}

describe('Get Started walkthrough', () => {
  let api: KnowledgeDeskTestApi;
  let client: ApiClient;
  let folder: vscode.Uri;
  const cleanup: Array<() => Promise<unknown>> = [];

  before(async () => {
    api = await getApi();
    const ws = vscode.workspace.workspaceFolders![0].uri;
    folder = vscode.Uri.joinPath(ws, `walkthrough-${process.pid}-${Date.now()}`);
    fs.mkdirSync(folder.fsPath);
    fs.writeFileSync(
      vscode.Uri.joinPath(folder, 'cafeteria.md').fsPath,
      '# Walkthrough cafeteria\n\nThe walkthrough cafeteria on floor 9 opens at 7:30 every weekday and serves onigiri until 14:00.\n',
    );
    fs.writeFileSync(
      vscode.Uri.joinPath(folder, 'faq.csv').fsPath,
      'question,answer\nWhere is the walkthrough cafeteria?,On floor 9 of the main building.\n',
    );
  });

  after(async () => {
    for (const undo of cleanup.reverse()) await undo().catch(() => undefined);
    await vscode.workspace.getConfiguration('knowledgeDesk').update('region', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(folder.fsPath, { recursive: true, force: true });
    await resetWorkbench(api);
  });

  it('opened by itself on the first launch after the install, once: a second window does not open it again', async () => {
    // Recorded by index.ts before any suite ran: the test host starts from a fresh profile (a first launch).
    const seen = (globalThis as { kdFirstLaunch?: FirstLaunch }).kdFirstLaunch;
    assert.ok(seen, 'index.ts did not observe the first launch');
    assert.ok(seen.walkthroughShown, `the walkthrough's steps were on screen before any suite; tabs: ${JSON.stringify(seen.tabs)}`);
    assert.equal(api.context.globalState.get(WALKTHROUGH_SHOWN_KEY), true, 'remembered in globalState');
    // What the activation of another window (or this one reloaded) does with the same globalState.
    await resetWorkbench(api);
    const warnings: string[] = [];
    const log = { trace() {}, debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
    assert.equal(await openWalkthroughOnFirstLaunch(api.context.globalState, log), false);
    assert.deepEqual(editorTabs(), [], 'nothing opened');
    assert.deepEqual(warnings, []);
  });

  it('ticks "connect" while Local is connected, also when VS Code saw the connection before the page', async function () {
    this.timeout(120_000);
    await useService(api);
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
    assert.ok(await workbenchShows(doneStep('connect')), 'step 1 ticked while Local is connected');
    // VS Code's walkthrough service records an onContext key that is already true when it starts as seen, and never
    // completes the step from it (a window where Local connected before the walkthrough was first shown). Undone
    // here, the key is in that state: only the extension's own completion can tick the step again.
    await vscode.commands.executeCommand('welcome.markStepIncomplete', `${WALKTHROUGH}#connect`);
    assert.ok(await workbenchShows(openStep('connect')), 'step 1 unticked');
    await runCommand(api, 'knowledgeDesk.selectRegion', ['us', undefined]);
    await waitFor(() => api.contextKey('knowledgeDesk.connectionState') === 'noKey', 'US without a key');
    await runCommand(api, 'knowledgeDesk.selectRegion', ['local']);
    await waitFor(() => api.contextKey('knowledgeDesk.connectionState') === 'connected', 'the connection');
    assert.ok(await workbenchShows(doneStep('connect')), 'step 1 ticked again on connecting');
    await screenshot(shot('walkthrough-connected'), { waitForSelector: doneStep('connect') });
    await resetWorkbench(api);
  });

  it('contributes four steps, each with a button running a Knowledge Desk command and completion events', async () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { walkthroughs: Array<{ id: string; steps: Step[] }> };
    };
    const steps = manifest.contributes.walkthroughs[0].steps;
    assert.deepEqual(
      steps.map((s) => s.id),
      ['connect', 'upload', 'ask', 'import'],
    );
    const all = await vscode.commands.getCommands(true);
    for (const step of steps) {
      // The host hands the extension its manifest with the %keys% already replaced, in the display language.
      assert.doesNotMatch(step.description, /^%.*%$/, `${step.id}: localized`);
      const command = /\(command:([\w.]+)\)/.exec(step.description)?.[1];
      assert.ok(command && all.includes(command), `${step.id}: ${command} is registered`);
      assert.ok(step.completionEvents.length > 0);
    }
    if (japanese()) assert.match(steps[0].description, /接続を追加/);
    else assert.match(steps[0].description, /Add Connection/);
  });

  it('runs each step: connect, upload a folder, ask and open a citation, import Q&As; each step completes', async function () {
    this.timeout(240_000);
    // VS Code creates its walkthrough service when something first shows a walkthrough, and it only completes a
    // step on a change of the step's context keys that it sees afterwards (a key already true then never completes
    // the step). So the page opens first, as when a new user follows it, and each step changes its key after.
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
    const keys = ['uploaded', 'citationOpened', 'imported'].map((k) => `knowledgeDesk.walkthrough.${k}`);
    const alreadySet = keys.filter((k) => api.contextKey(k) === true);
    // 1. Choose where to connect: US asks for a key (cancelled here), Local needs nothing.
    await runCommand(api, 'knowledgeDesk.selectRegion', ['us', undefined]);
    await waitFor(() => api.contextKey('knowledgeDesk.connectionState') === 'noKey', 'US without a key');
    await runCommand(api, 'knowledgeDesk.selectRegion', ['local']);
    await waitFor(() => api.contextKey('knowledgeDesk.connectionState') === 'connected', 'the connection');
    client = await api.connection.getClient();

    // 2. Upload a folder of the workspace: the button asks for folders, then where and how.
    const uploadedBefore = api.contextKey('knowledgeDesk.walkthrough.uploaded');
    await runCommand(api, 'knowledgeDesk.uploadToKnowledgeBase', [[folder], first, first, [] /* the hashtag picker: none ticked */]);
    await stepCompleted(api, 'knowledgeDesk.walkthrough.uploaded', uploadedBefore);
    const name = folder.path.split('/').pop()!;
    const [uploadedFolder] = (await client.kbNodes.search({ searchTerm: name, limit: 10 })).nodes.filter((n) => n.name === name);
    assert.ok(uploadedFolder, `the folder ${name} is in the knowledge base`);
    cleanup.push(() => client.kbNodes.delete(uploadedFolder.id));
    await waitFor(
      async () => {
        const { nodes } = await client.kbNodes.search({ parentFolderIds: [uploadedFolder.id], limit: 10 });
        return nodes.some((n) => n.name === 'cafeteria.md' && (n as FileNode).processState === 'completed');
      },
      'cafeteria.md to be processed',
      60_000,
    );
    await waitFor(
      async () =>
        (await client.answers.generate({ query: QUESTION, includeCitations: true })).citations.some((c) => /cafeteria/.test(c.title ?? '')),
      'cafeteria.md to be answerable',
      30_000,
    );

    // 3. Ask a question in the chat and open the answer's citation (what a click on a source runs).
    const panel = (await vscode.commands.executeCommand<ChatPanel>('knowledgeDesk.answers.ask'))!;
    await waitForPage(panel, 'the chat panel');
    const turn = await panel.ask(QUESTION);
    assert.ok(turn && turn.status === 'done', `the answer finished: ${turn?.status}`);
    assert.match(turn.answer, /7:30/);
    const citation = turn.citations.find((c) => /cafeteria/.test(c.title ?? ''));
    assert.ok(citation, `cites cafeteria.md: ${turn.citations.map((c) => c.title).join(', ')}`);
    const citedBefore = api.contextKey('knowledgeDesk.walkthrough.citationOpened');
    await runCommand(api, 'knowledgeDesk.answers.openCitation', [], { citation, question: QUESTION, answer: turn.answer });
    await stepCompleted(api, 'knowledgeDesk.walkthrough.citationOpened', citedBefore);
    panel.dispose();
    await resetWorkbench(api);

    // 4. Import Q&As from a CSV.
    const importedBefore = api.contextKey('knowledgeDesk.walkthrough.imported');
    // The dry run's summary offers the import under its label in the display language.
    await runCommand(
      api,
      'knowledgeDesk.qna.importFile',
      [japanese() ? '1 行をインポート' : 'Import 1 Rows'],
      vscode.Uri.joinPath(folder, 'faq.csv'),
    );
    await stepCompleted(api, 'knowledgeDesk.walkthrough.imported', importedBefore);
    const imported = (await client.faq.filter({ searchTerm: 'walkthrough cafeteria' })).results.filter(
      (r) => r.question === 'Where is the walkthrough cafeteria?',
    );
    assert.equal(imported.length, 1);
    cleanup.push(() => client.faq.delete(imported[0].id));

    // The walkthrough page shows the steps done (checked in the workbench's DOM when the run takes screenshots).
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
    await screenshot(shot('walkthrough'), { waitForSelector: '.gettingStartedContainer' });
    const steps = { connect: '', upload: keys[0], ask: keys[1], import: keys[2] };
    for (const [step, key] of Object.entries(steps)) {
      if (alreadySet.includes(key)) console.log(`walkthrough: ${step} not checked on the page (${key} was set before it opened)`);
      else await screenshot(shot(`walkthrough-done-${step}`), { waitForSelector: doneStep(step) });
    }
  });

  it('the views, status bar, palette and Select Region speak the display language', async function () {
    this.timeout(60_000);
    await runCommand(api, 'knowledgeDesk.connect');
    await waitFor(() => api.contextKey('knowledgeDesk.connectionState') === 'connected', 'the connection');
    const text = api.connectionStatusBar.text;
    if (japanese()) assert.match(text, /Knowledge Desk: ローカル · 接続済み/);
    else assert.match(text, /Knowledge Desk: Local · connected/);
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: {
        commands: Array<{ command: string; title: string | { value: string; original: string } }>;
        views: Record<string, Array<{ name: string }>>;
      };
    };
    // In another language the host gives a command title with its English original (the palette matches both).
    const title = manifest.contributes.commands.find((c) => c.command === 'knowledgeDesk.selectRegion')!.title;
    if (japanese()) assert.deepEqual(title, { value: 'リージョンを選択', original: 'Select Region' });
    else assert.equal(title, 'Select Region');
    assert.equal(manifest.contributes.views.knowledgeDesk[0].name, japanese() ? 'ナレッジベース' : 'Knowledge Base');

    // The step's Markdown (one file per language) renders in a webview beside the steps.
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${WALKTHROUGH}#connect`, false);
    // The image inside the Markdown webview (two frames deep): shot once it is there.
    const inWebview = ' >> internal:control=enter-frame >> iframe#active-frame >> internal:control=enter-frame >> ';
    await screenshot(shot('walkthrough-media'), { waitForSelector: `.getting-started-media iframe${inWebview}img[src$="connect.svg"]` });
    await resetWorkbench(api);
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    await screenshot(shot('l10n-views'), { waitForSelector: '.pane-header' });
    await vscode.commands.executeCommand('workbench.action.quickOpen', '>Knowledge Desk: ');
    await screenshot(shot('l10n-palette'), { waitForSelector: '.quick-input-widget .monaco-list-row' });
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    // The real quick pick (not scripted): left open for the screenshot, then closed. Only with screenshots: the
    // screenshot waits for the picker, so the close cannot come before it opens and leave it open for later tests.
    if (process.env.KD_SCREENSHOT_DIR) {
      void vscode.commands.executeCommand('knowledgeDesk.selectRegion');
      await screenshot(shot('l10n-select-region'), { waitForSelector: '.quick-input-widget .monaco-list-row' });
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
  });
});
