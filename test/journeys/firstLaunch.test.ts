// Journey 1 (and 5 with --locale ja): a person starts VS Code with Knowledge Desk for the first time. The window is
// new (runIntegration.mjs gives this journey a host start of its own) and the local service imports the samples on
// its first start, as `npm start` does.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FileNode, KbNode } from '../../src/api/schemas/kbNodes';
import type { CitationPanel } from '../../src/features/answers/citations/citationPanel';
import type { ChatPanel } from '../../src/features/answers/chat/chatPanel';
import type { Turn, ChatSnapshot, DriveParams } from '../../src/features/answers/chat/protocol';
import { WALKTHROUGH_ID } from '../../src/platform/commandIds';
import { EXTENSION_ID, getApi, lastRendered, waitFor, waitForPage } from '../integration/support/host';
import { Findings, shoot, tr } from './support/journey';

// Two questions answered from two pages of the same PDF: a local answer quotes one section (issue 26), so each
// question has its own page, and the second citation moves the viewer the first one opened.
const QUESTION = 'How many days of paid leave do new employees get?';
const QUESTION_2 = 'How much is the home office allowance for a desk?';

const snapshot = (p: ChatPanel): Promise<ChatSnapshot> => p.channel.request('snapshot', {});
const drive = (p: ChatPanel, params: DriveParams): Promise<ChatSnapshot> => p.channel.request('drive', params);
/** A step shown as done on the walkthrough page. */
const doneStep = (step: string): string => `.getting-started-step[data-step-id="${WALKTHROUGH_ID}#${step}"][aria-checked="true"]`;

describe('Journey: first launch', () => {
  it('walkthrough opens → samples ready without Refresh → ask → citation 1 → ask again → its citation moves the same viewer → back to the chat', async function () {
    this.timeout(420_000);
    const api = await getApi();
    const findings = new Findings();
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { walkthroughs: Array<{ title: string }> };
    };
    const walkthroughTitle = manifest.contributes.walkthroughs[0].title;
    if (vscode.env.language.startsWith('ja')) assert.match(walkthroughTitle, /[ぁ-んァ-ン一-龯]/, 'the walkthrough title is Japanese');

    // 1. The first launch opens the Get Started walkthrough by itself (if not, the person opens it from Help).
    const walkthrough = `.gettingStartedContainer:has-text("${walkthroughTitle}")`;
    if (
      !(await findings.step('the walkthrough opens by itself on the first launch', () =>
        shoot('first-launch-01-walkthrough', { waitForSelector: walkthrough }),
      ))
    ) {
      await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
      await shoot('first-launch-01-walkthrough-opened-by-hand', { waitForSelector: walkthrough });
    }

    // 2. The person opens Knowledge Desk's views: the Local service starts (importing the samples) and connects; the
    //    walkthrough's first step ("connect") is ticked.
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    await waitFor(
      () => api.connection.status.state === 'connected',
      'the connection to the Local service',
      60_000,
      () => JSON.stringify(api.connection.status),
    );
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
    await findings.step('the walkthrough ticks its first step (connect) once connected', () =>
      shoot('first-launch-02-connect-ticked', { waitForSelector: doneStep('connect') }),
    );

    // 3. The samples are in the tree and become ready there without Refresh: wait until the service has processed
    //    them, then the tree's rows (the workbench's DOM) must say so.
    const client = await api.connection.getClient();
    let states = '';
    await waitFor(
      async () => {
        const nodes: KbNode[] = await client.kbNodes.listAll({ parentFolderIds: [null] });
        const files = nodes.filter((n): n is FileNode => n.nodeType === 'file');
        states = files.map((n) => `${n.name}: ${n.processState}`).join(', ');
        return files.some((n) => n.name === 'faq-overview.md') && files.every((n) => n.processState === 'completed');
      },
      'the samples at the top level to be processed on the service',
      90_000,
      () => states,
    );
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    const ready = tr('ready', '準備完了');
    const readyRow = `.monaco-list-row:has-text("faq-overview.md"):has-text("${ready}")`;
    if (
      !(await findings.step('the tree shows the samples ready without Refresh', () =>
        shoot('first-launch-03-samples-ready', { waitForSelector: readyRow }),
      ))
    ) {
      await vscode.commands.executeCommand('knowledgeDesk.kb.refresh');
      await shoot('first-launch-03-samples-ready-after-refresh', { waitForSelector: readyRow });
    }

    // 4. Ask in the chat: an answer citing a page of the handbook (the second question, below, cites another).
    const chat = (await vscode.commands.executeCommand<ChatPanel>('knowledgeDesk.answers.ask'))!;
    await waitForPage(chat, 'the chat panel');
    const handbook = await waitFor(
      async () =>
        (await client.kbNodes.search({ searchTerm: 'employee-handbook.pdf', limit: 10 })).nodes.find(
          (n) => n.name === 'employee-handbook.pdf',
        ),
      'employee-handbook.pdf among the samples',
    );
    const ask = async (question: string): Promise<Turn> => {
      const finished = new Promise<Turn>((resolve) => {
        const sub = chat.onDidFinishTurn((t) => (sub.dispose(), resolve(t)));
      });
      await drive(chat, { type: question });
      await drive(chat, { send: true });
      const t = await finished;
      assert.equal(t.status, 'done', `the answer finished: ${t.error?.message ?? t.status}`);
      return t;
    };
    const handbookCitation = (t: Turn) => t.citations.find((c) => c.knowledgeBaseId === handbook.id && c.pageNo !== undefined);
    const turn = await ask(QUESTION);
    const first = handbookCitation(turn);
    assert.ok(first, `the answer cites employee-handbook.pdf: ${JSON.stringify(turn.citations.map((c) => [c.index, c.title, c.pageNo]))}`);
    await shoot('first-launch-04-answer');

    // 5. Click the first citation: the viewer opens the PDF at its page.
    const viewers = api.citations;
    await drive(chat, { clickCitation: { turnId: turn.id, index: first.index } });
    const viewer = await waitFor(() => viewers.last, 'a citation viewer');
    const page = async (pageNo: number, since?: unknown): Promise<void> => {
      await waitFor(
        () => {
          const r = lastRendered<CitationPanel>(viewer);
          return r && r !== since && r.view === 'pdf' && r.pageNo === pageNo && r.rects.length > 0;
        },
        `the viewer to show page ${pageNo} with the cited passage highlighted`,
        45_000,
        () => {
          const r = lastRendered<CitationPanel>(viewer);
          return `${viewer.describe()}; last drawn ${JSON.stringify(r && { view: r.view, pageNo: r.pageNo, rects: r.rects.length })}`;
        },
      );
      // What the person sees, where the page reports it (the canvas's finished page, the toolbar's page box).
      const seen = await waitFor(
        async () => {
          const snap = (await viewer.channel.request('snapshot', {})) as {
            canvasPageNo?: number | null;
            toolbar?: { page: number } | null;
          };
          return snap.canvasPageNo !== null ? snap : undefined;
        },
        'the viewer to finish drawing',
        15_000,
        () => viewer.describe(),
      );
      if (seen.canvasPageNo !== undefined) assert.equal(seen.canvasPageNo, pageNo, 'the page drawn on the canvas');
      if (seen.toolbar) assert.equal(seen.toolbar.page, pageNo, "the toolbar's page");
    };
    await page(first.pageNo!);
    await shoot('first-launch-05-citation-1');

    // 6. Back to the chat tab, ask the second question, click its citation, in the same PDF: the same viewer moves to its page.
    const drawnBefore = lastRendered<CitationPanel>(viewer);
    chat.reveal();
    const turn2 = await ask(QUESTION_2);
    const second = handbookCitation(turn2);
    assert.ok(
      second && second.pageNo !== first.pageNo,
      `the second answer cites another page of employee-handbook.pdf than ${first.pageNo}: ${JSON.stringify(turn2.citations.map((c) => [c.index, c.title, c.pageNo]))}`,
    );
    await drive(chat, { clickCitation: { turnId: turn2.id, index: second.index } });
    await waitFor(
      () => viewers.last === viewer && viewer.current.target.pageNo === second.pageNo,
      'the same viewer to take citation 2',
      15_000,
      () => viewer.describe(),
    );
    await findings.step(`citation ${second.index} (page ${second.pageNo}) of the same PDF shows its page`, () =>
      page(second.pageNo!, drawnBefore),
    );
    findings.check(viewers.panels.length === 1, `one viewer for the one document, not ${viewers.panels.length}`);
    await shoot('first-launch-06-citation-2');
    // And citation 1 again, to compare: the viewer goes back to its page.
    const drawnSecond = lastRendered<CitationPanel>(viewer);
    chat.reveal();
    await drive(chat, { clickCitation: { turnId: turn.id, index: first.index } });
    await findings.step(`citation ${first.index} again shows page ${first.pageNo}`, () => page(first.pageNo!, drawnSecond));
    await shoot('first-launch-06b-citation-1-again');

    // 7. Back to the chat: the conversation is as it was, both answers with their sources.
    chat.reveal();
    const back = await waitFor(
      async () => {
        const s = await snapshot(chat);
        return s.ready && chat.panel.visible ? s : undefined;
      },
      'the chat to be shown again',
      15_000,
      () => chat.describe(),
    );
    assert.equal(back.turns.length, 2);
    assert.ok(
      back.turns.every((t) => t.status === 'done' && t.sources.length >= 1),
      `the sources are still listed: ${JSON.stringify(back.turns.map((t) => t.sources))}`,
    );
    await shoot('first-launch-07-back-to-chat');
    findings.assertNone();
  });
});
