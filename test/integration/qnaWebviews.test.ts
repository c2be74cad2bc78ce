import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { ApiClient } from '../../src/api/client';
import type { AnalyticsPanel } from '../../src/features/qna/analytics/analyticsPanel';
import type { EditorAction, QaDraft, EditorSnapshot } from '../../src/features/qna/editor/protocol';
import type { QaEditorPanel, QaSaveEvent, SentRequest } from '../../src/features/qna/editor/qaEditorPanel';
import type { AnalyticsData } from '../../src/features/qna/analytics/protocol';
import { ProbeKeys } from '../../src/testProbe';
import {
  getApi,
  lastRendered,
  pageProblems,
  probe,
  resetWorkbench,
  screenshot,
  scriptInput,
  useService,
  waitFor,
  waitForPage,
  withTheme,
} from './support/host';

const ANSWER = [
  '<p>Expense reports close on the <strong>25th</strong> of each month. Reports sent later are paid the following month.</p>',
  '<ol><li>Open <a href="https://example.com/expenses">the expense portal</a>.</li><li>Attach the receipts (PDF or photo).</li><li>Submit before <code>17:00</code> on the 25th.</li></ol>',
  '<p>経費精算の締め日は毎月25日です。</p>',
].join('\n');

const snapshot = (p: QaEditorPanel): Promise<EditorSnapshot> => p.channel.request('snapshot', {});
/** Types into the page's fields and/or presses one of its buttons, as a person would. */
const drive = (
  p: QaEditorPanel,
  params: { fill?: Partial<QaDraft>; click?: EditorAction; chooseHashtags?: boolean },
): Promise<EditorSnapshot> => p.channel.request('drive', params);

/** Waits for the page of `panel` to have said ready and to show a loaded Q&A (or a new one); timeouts name the panel's state. */
async function pageShows(panel: QaEditorPanel): Promise<EditorSnapshot> {
  await waitForPage(panel, 'the Q&A editor');
  return waitFor(
    async () => {
      const s = await snapshot(panel);
      return s.draft && !s.busy ? s : undefined;
    },
    'the editor page to show the Q&A',
    20_000,
    () => panel.describe(),
  );
}

/** The last request the editor sent to the service (recorded on the probe). */
const sent = (panel: QaEditorPanel): SentRequest | undefined => probe().last<SentRequest>(panel, ProbeKeys.requests);

const QUESTION = 'When is the monthly expense report deadline?';
const FIXTURE = {
  question: QUESTION,
  answer: ANSWER,
  status: 'on' as const,
  similarQuestions: ['Expense report cut-off date', '経費精算の締め日は？'],
  hashtags: ['expenses', '経費'],
  folder: 'Finance',
  allowOtherAgentsView: true,
  allowOtherUsersView: true,
};

describe('Q&A webviews (real extension host, local service)', () => {
  let api: KnowledgeDeskTestApi;
  let client: ApiClient;
  /** The Q&A each test starts with (registered fresh by beforeEach) and its open editor. */
  let panel: QaEditorPanel;
  let id: string;

  before(async () => {
    api = await getApi();
    client = await useService(api);
  });

  beforeEach(() => resetWorkbench(api));

  afterEach(async () => {
    if (id) await client.faq.delete(id).catch(() => undefined); // gone already when the test deleted it
    id = '';
    await resetWorkbench(api);
  });

  it('renders the page with a nonce CSP and no inline scripts or styles', async () => {
    const panel = (await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.new'))!;
    const html = panel.panel.webview.html.replace(/&#39;/g, "'");
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce && nonce.length >= 16, csp);
    assert.match(csp, /^default-src 'none'; style-src [^;]+; font-src [^;]+; script-src 'nonce-[^']+'; img-src [^;]+$/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal([...html.matchAll(/<script\b[^>]*>/g)].length, 1);
    assert.match(html, new RegExp(`<script nonce="${nonce!.replace(/[+/=]/g, '\\$&')}" src="[^"]+/dist/webview/qaEditor\\.js"`));
    assert.doesNotMatch(html, /\sstyle=|\son[a-z]+=/i);
    assert.equal(panel.panel.options.retainContextWhenHidden ?? false, false);
    const roots = panel.panel.webview.options.localResourceRoots?.map((u) => u.path) ?? [];
    assert.equal(roots.length, 2);
    assert.match(roots[0], /\/dist\/webview$/);
    assert.match(roots[1], /\/media$/);
    const second = (await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.new'))!;
    assert.notEqual(second, panel, 'each New Q&A is its own editor');
    assert.notEqual(/'nonce-([^']+)'/.exec(second.panel.webview.html.replace(/&#39;/g, "'"))?.[1], nonce, 'a fresh nonce per render');
    second.dispose();
    panel.reveal();
    const s = await pageShows(panel);
    assert.deepEqual(s.target?.kind, 'new');
    assert.equal(panel.panel.title, 'New Q&A');
  });

  it('creates a Q&A from the editor: errors shown next to fields first, then register with the memo', async () => {
    const panel = (await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.new'))!;
    const saves: QaSaveEvent[] = [];
    panel.onDidSave((e) => saves.push(e));
    await pageShows(panel);
    const errorsBefore = api.probe.errorsShown.total;
    const invalid = await drive(panel, {
      fill: { question: '', answer: '', similarQuestions: ['Expense report cut-off date', 'x'.repeat(1001)] },
      click: 'save',
    });
    assert.deepEqual(invalid.fieldErrors, {
      question: 'Enter the question.',
      answer: 'Enter the answer.',
      'similarQuestions.1': 'Similar question 2 is 1,001 characters long; the limit is 1,000.',
    });
    assert.equal(sent(panel), undefined, 'nothing was sent');
    await screenshot('qa-editor-errors');
    const question = 'When is the monthly expense report deadline?';
    await drive(panel, {
      fill: {
        question,
        answer: ANSWER,
        similarQuestions: ['Expense report cut-off date', '経費精算の締め日は？'],
        hashtags: ['expenses', '経費'],
        folder: 'Finance',
        memo: 'Confirmed with the finance team.',
      },
      click: 'save',
    });
    await waitFor(() => panel.id, 'the panel to become the saved Q&A');
    id = panel.id!;
    assert.deepEqual(sent(panel), {
      op: 'register',
      body: {
        question,
        answer: ANSWER,
        status: 'on',
        similarQuestions: ['Expense report cut-off date', '経費精算の締め日は？'],
        hashtags: ['expenses', '経費'],
        memo: 'Confirmed with the finance team.',
        folder: 'Finance',
        allowOtherAgentsView: true,
        allowOtherUsersView: true,
      },
    });
    const stored = await client.faq.get(id, { format: 'html' });
    assert.equal(stored.question, question);
    assert.deepEqual(stored.similar_questions, ['Expense report cut-off date', '経費精算の締め日は？']);
    assert.deepEqual(stored.hashtags, ['expenses', '経費']);
    assert.equal(stored.folder, 'Finance');
    const after = await waitFor(async () => {
      const s = await snapshot(panel);
      return s.target?.kind === 'existing' && !s.busy ? s : undefined;
    }, 'the page to show the saved Q&A');
    assert.equal(after.dirty, false);
    assert.equal(panel.panel.title, 'When is the monthly expense report dead…');
    assert.equal(api.probe.errorsShown.total, errorsBefore, 'saving showed an error');
    assert.deepEqual(saves, [{ id, change: 'created' }]);
  });

  it('shows answers with scripts, handlers and javascript: links inert', async () => {
    const { id: evilId } = await client.faq.register({
      question: 'Is this answer safe to show?',
      answer:
        '<p>Safe text</p><script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2"><a href="javascript:alert(1)">click me</a><svg onload="alert(3)"></svg><iframe src="https://example.com"></iframe><img src="https://example.com/tracker.png" alt="tracker">',
      status: 'on',
    });
    const evil = (await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.open', { id: evilId }))!;
    const s = await pageShows(evil);
    assert.match(s.previewHtml, /<p>Safe text<\/p>/);
    assert.doesNotMatch(s.previewHtml, /<script|onerror|onload|javascript:|<iframe|<svg/i);
    assert.match(s.previewHtml, /<a>click me<\/a>/);
    assert.equal(s.blockedImages, 2, 'the relative and the remote image');
    assert.match(s.draft!.answer, /<script>/, 'the source stays editable as text');
    assert.deepEqual(pageProblems(evil), [], 'no CSP violation or page error');
    assert.ok(evil.blockedHandlers <= 2, 'at most the two handlers of the answer were refused by the CSP while parsing');
    // A failure of the service shows above the form and through the usual error notification.
    await client.faq.delete(evilId);
    const shownBefore = api.probe.errorsShown.total;
    await drive(evil, { click: 'toggle' });
    const failed = await waitFor(async () => (await snapshot(evil)).error ?? undefined, 'the error above the form');
    assert.match(failed, /not found/i);
    assert.deepEqual(
      api.probe.errorsShown.since(shownBefore).map((e) => e.command),
      ['Turn Q&A on/off'],
    );
    assert.equal(api.probe.errorsShown.last!.message, failed);
    evil.dispose();
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  describe('with a Q&A open in its editor', () => {
    beforeEach(async () => {
      ({ id } = await client.faq.register(FIXTURE));
      panel = (await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.open', { id }))!;
      await pageShows(panel);
    });

    it('opening the same Q&A reveals its panel instead of a second one', async () => {
      const again = await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.open', { id });
      assert.equal(again, panel);
      const byString = await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.open', id);
      assert.equal(byString, panel);
    });

    it('saves only the changed fields, and marks unsaved changes in the title', async () => {
      const edited = await drive(panel, { fill: { hashtags: ['expenses', '経費', 'deadline'], allowOtherUsersView: false } });
      assert.equal(edited.dirty, true);
      await waitFor(() => panel.panel.title.startsWith('● '), 'the title to show unsaved changes');
      await drive(panel, { click: 'save' });
      await waitFor(() => sent(panel)?.op === 'update' && !panel.isDirty, 'the update');
      assert.deepEqual(sent(panel), {
        op: 'update',
        body: { id, hashtags: ['expenses', '経費', 'deadline'], allowOtherUsersView: false },
      });
      const stored = await client.faq.get(id);
      assert.deepEqual(stored.hashtags, ['expenses', '経費', 'deadline']);
      assert.equal(stored.allowOtherUsersView, false);
      assert.equal(stored.answer, ANSWER, 'fields not sent are unchanged');
      assert.equal(panel.panel.title.startsWith('● '), false);
      const unchanged = await drive(panel, { click: 'save' });
      assert.equal(unchanged.dirty, false);
    });

    it('keeps an unsaved draft when the panel is hidden and shown again (webview state)', async () => {
      await drive(panel, {
        fill: { similarQuestions: ['Expense report cut-off date', '経費精算の締め日は？', 'Last day to submit expenses'] },
      });
      const other = (await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.new'))!;
      await waitFor(() => !panel.panel.visible, 'the first editor to be hidden');
      other.dispose();
      panel.reveal();
      const restored = await pageShows(panel);
      assert.equal(restored.dirty, true);
      assert.deepEqual(restored.draft?.similarQuestions, [
        'Expense report cut-off date',
        '経費精算の締め日は？',
        'Last day to submit expenses',
      ]);
      await drive(panel, { click: 'save' });
      const update = await waitFor(() => {
        const last = sent(panel);
        return !panel.isDirty && last?.op === 'update' && 'similar_questions' in last.body ? last : undefined;
      }, 'the similar questions to be saved');
      assert.deepEqual(Object.keys(update.body), ['id', 'similar_questions']);
    });

    it('turns the Q&A off and on from the toolbar', async () => {
      const saves: QaSaveEvent[] = [];
      panel.onDidSave((e) => saves.push(e));
      await drive(panel, { click: 'toggle' });
      await waitFor(() => panel.current?.values.status === 'off', 'status off');
      assert.equal((await client.faq.get(id)).statusOffAt !== undefined, true);
      assert.deepEqual(sent(panel), { op: 'update', body: { id, status: 'off' } });
      await waitFor(async () => !(await snapshot(panel)).busy, 'idle');
      await drive(panel, { click: 'toggle' });
      await waitFor(() => panel.current?.values.status === 'on', 'status on again');
      assert.deepEqual(saves, [
        { id, change: 'status' },
        { id, change: 'status' },
      ]);
    });

    it('records feedback and shows the new counts', async () => {
      const before = await client.faq.get(id);
      const total = (d: typeof before): number => d.agentFeedback.positiveCount + d.userFeedback.positiveCount;
      await drive(panel, { click: 'helpful' });
      await waitFor(async () => total(await client.faq.get(id)) === total(before) + 1, 'a positive vote on the service');
      const s = await waitFor(async () => {
        const snap = await snapshot(panel);
        return snap.feedbackText.startsWith(`${total(before) + 1} helpful`) ? snap : undefined;
      }, 'the page to show the new count');
      assert.match(s.feedbackText, /not helpful/);
      await waitFor(async () => !(await snapshot(panel)).busy, 'idle');
      await drive(panel, { click: 'clearFeedback' });
      await waitFor(async () => total(await client.faq.get(id)) === total(before), 'the vote to be cancelled');
      await waitFor(async () => !(await snapshot(panel)).busy, 'idle');
      await drive(panel, { click: 'helpful' });
      await waitFor(async () => total(await client.faq.get(id)) === total(before) + 1, 'the vote again (for the screenshot)');
    });

    it('"Choose…" beside the hashtags opens the shared hashtag picker (in use with counts, current ticked) and fills the field', async () => {
      type Item = { label: string; description?: string; picked?: boolean };
      let items: Item[] = [];
      const input = scriptInput(api, [
        (p: { kind: string; items?: Item[] }) => {
          assert.equal(p.kind, 'quickPickMany');
          items = p.items ?? [];
          return ['#expenses', 'Other hashtags…'];
        },
        '#締め日 #deadline',
      ]);
      try {
        const started = await drive(panel, { chooseHashtags: true });
        assert.equal(started.choosingHashtags, true, 'the page waits for the picker');
        const chosen = await waitFor(
          async () => {
            const s = await snapshot(panel);
            return !s.choosingHashtags && s.draft?.hashtags.includes('deadline') ? s : undefined;
          },
          'the chosen hashtags in the field',
          15_000,
          () => panel.describe(),
        );
        assert.deepEqual(chosen.draft!.hashtags, ['expenses', '締め日', 'deadline'], 'unticked 経費 is gone, typed ones added');
        assert.equal(chosen.dirty, true);
        assert.equal(chosen.notice, '3 hashtags chosen.');
        assert.equal(input.remaining, 0);
      } finally {
        input.restore();
      }
      const expenses = items.find((i) => i.label === '#expenses');
      assert.equal(expenses?.picked, true, 'the current hashtags are ticked');
      assert.match(expenses?.description ?? '', /^used (once|\d+ times)$/, 'with how often it is used');
      assert.equal(items.find((i) => i.label === '#経費')?.picked, true);
      assert.ok(items.at(-1)?.label.endsWith('Other hashtags…'), 'typing hashtags nobody uses is still possible');
      await drive(panel, { click: 'save' });
      await waitFor(() => sent(panel)?.op === 'update' && !panel.isDirty, 'the update');
      assert.deepEqual(sent(panel), { op: 'update', body: { id, hashtags: ['expenses', '締め日', 'deadline'] } });
      assert.deepEqual((await client.faq.get(id)).hashtags, ['expenses', '締め日', 'deadline']);
      // Cancelling the picker leaves the field as it was.
      const cancel = scriptInput(api, [undefined]);
      try {
        await drive(panel, { chooseHashtags: true });
        const after = await waitFor(async () => {
          const s = await snapshot(panel);
          return cancel.remaining === 0 && !s.choosingHashtags ? s : undefined;
        }, 'the cancelled picker to be over');
        assert.deepEqual(after.draft!.hashtags, ['expenses', '締め日', 'deadline']);
        assert.equal(after.dirty, false);
      } finally {
        cancel.restore();
      }
    });

    it('looks right (screenshot qa-editor)', async () => {
      panel.reveal();
      await pageShows(panel);
      assert.deepEqual(pageProblems(panel), []);
      await screenshot('qa-editor');
      await withTheme('Default Dark Modern', () => screenshot('qa-editor-dark'));
      // The real hashtag picker opened by "Choose…" (no English asserted: this test also runs with --locale ja).
      const opened = await drive(panel, { chooseHashtags: true });
      assert.equal(opened.choosingHashtags, true);
      await screenshot('qa-editor-hashtag-picker', { waitForSelector: '.quick-input-widget .monaco-list-row' });
      // Closed as many times as it takes: without --screenshots nothing waited for the picker to show.
      await waitFor(async () => {
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        return !(await snapshot(panel)).choosingHashtags;
      }, 'the real picker to be closed');
    });

    it('deletes the Q&A after a modal confirmation and closes the editor', async () => {
      const input = scriptInput(api, [
        (p: { kind: string; options: unknown }) => (assert.match(String(p.options), /^Delete the Q&A "When is the monthly/), 'Delete'),
      ]);
      try {
        let closed = false;
        panel.onDidDispose(() => (closed = true));
        await drive(panel, { click: 'delete' });
        await waitFor(() => closed, 'the editor to close');
        assert.equal(input.remaining, 0);
        await assert.rejects(client.faq.get(id), /not found/i);
        assert.deepEqual(sent(panel), { op: 'delete', id });
      } finally {
        input.restore();
      }
    });
  });

  it('shows analytics: daily searches and the top Q&As drawn with Chart.js, and the history tables', async () => {
    const { id: a } = await client.faq.register({
      question: 'How do I reset my password?',
      answer: '<p>Use <b>Forgot password</b> on the sign-in page.</p>',
      status: 'on',
      similarQuestions: ['I forgot my password'],
    });
    await client.faq.register({
      question: 'How do I connect to the VPN?',
      answer: '<p>Install the VPN client and sign in.</p>',
      status: 'on',
    });
    await client.faq.register({
      question: '有給休暇の申請方法は？',
      answer: '<p>勤怠システムから申請します。</p>',
      status: 'on',
      similarQuestions: ['休暇の申請'],
    });
    // Each search's intended answer is selected by question (other suites' Q&As may rank first).
    for (const [query, pick] of [
      ['reset my password', 'How do I reset my password?'],
      ['forgot password', 'How do I reset my password?'],
      ['password reset link', null],
      ['connect to the VPN', 'How do I connect to the VPN?'],
      ['VPN setup', null],
      ['有給休暇の申請', '有給休暇の申請方法は？'],
      ['休暇 申請', '有給休暇の申請方法は？'],
      ['printer is jammed', null],
    ] as const) {
      const res = await client.faq.search({ query, autoRegisterCandidates: false });
      const chosen = pick && res.result.find((r) => r.question === pick);
      if (chosen) await client.faq.selectAnswer({ hashId: res.hashId, id: chosen.id });
    }
    await client.faq.feedback({ query: 'reset my password', id: a, isPositive: true });
    // Answer feedback (mrc_feedbacks): 👍 on one generated answer, 👎 on another, as the chat sends them.
    const [doc] = await client.kbNodes.upload({
      file: { data: 'Passwords are reset from the sign-in page. VPN access needs the VPN client.', contentType: 'text/plain' },
      fileName: 'analytics-feedback.txt',
      isOverwrite: true,
    });
    const rated = [
      { query: 'How do I reset my password?', answer: 'Use Forgot password on the sign-in page.', positive: true },
      { query: 'How do I connect to the VPN?', answer: 'Install the VPN client and sign in.', positive: false },
    ];
    for (const [i, r] of rated.entries())
      await client.answers.feedback({
        answerHash: `analytics-test-${i}`,
        answer: r.answer,
        documentId: doc.id,
        query: r.query,
        positive: r.positive,
      });
    // Errors of this test only: an earlier suite in this window may have shown analytics errors on purpose.
    const errorsBefore = api.probe.errorsShown.total;
    const shown = (await vscode.commands.executeCommand<AnalyticsPanel>('knowledgeDesk.qna.showAnalytics'))!;
    const drawn = await waitFor(() => lastRendered(shown), 'the analytics page to draw', 30_000);
    assert.equal(drawn.dailyPoints, 14, 'one point per day of the last 14 days');
    assert.ok(drawn.topBars >= 3, `bars: ${drawn.topBars}`);
    assert.ok(drawn.searchRows >= 8, `searches: ${drawn.searchRows}`);
    assert.ok(drawn.feedbackRows >= 1, `feedback rows: ${drawn.feedbackRows}`);
    assert.deepEqual(drawn.charts, ['daily:line', 'top:bar']);
    const data = probe().last<AnalyticsData>(shown, ProbeKeys.loaded)!;
    assert.ok(drawn.answerFeedbackRows >= 2, `answer feedback rows: ${drawn.answerFeedbackRows}`);
    assert.equal(data.answerFeedback.offered, true);
    for (const r of rated)
      assert.ok(
        data.answerFeedback.rows.some(
          (row) =>
            row.question === r.query &&
            row.answer === r.answer &&
            row.positive === r.positive &&
            row.documentId === doc.id &&
            row.documentName === 'analytics-feedback.txt',
        ),
        `the history shows "${r.query}" rated ${r.positive ? '👍' : '👎'}`,
      );
    assert.ok(data.answerFeedback.positive >= 1 && data.answerFeedback.negative >= 1);
    assert.equal(data.problems.answerFeedback, undefined);
    assert.equal(data.daily.at(-1)!.count >= 8, true);
    assert.ok(data.top.some((t) => t.question === 'How do I reset my password?' && t.selected >= 2));
    assert.deepEqual(pageProblems(shown), [], 'no CSP violation (Chart.js styles go through the CSSOM)');
    assert.deepEqual(
      api.probe.errorsShown.since(errorsBefore).filter((e) => e.command === 'Q&A analytics'),
      [],
    );
    let redrawn = false;
    const sub = shown.onDidRender(() => (redrawn = true));
    const again = await vscode.commands.executeCommand<AnalyticsPanel>('knowledgeDesk.qna.showAnalytics');
    assert.equal(again, shown, 'one analytics panel: shown again, it reloads');
    await waitFor(() => redrawn, 'the reload');
    sub.dispose();
    await screenshot('qa-analytics');
    await shown.channel.request('drive', { query: {}, reveal: 'answerFeedback' });
    await screenshot('qa-analytics-answer-feedback');
    const top1 = await shown.channel.request('drive', { query: { topN: 1 } });
    assert.equal(top1.query.topN, 1);
    await waitFor(() => lastRendered(shown)?.topBars === 1, 'one bar for the top 1');
    await shown.channel.request('drive', { query: { topN: 10 } });
    let rethemed = false;
    const redraw = shown.onDidRender(() => (rethemed = true));
    await withTheme('Default Dark Modern', async () => {
      await waitFor(() => rethemed, "the charts to be drawn again in the theme's colours");
      await screenshot('qa-analytics-dark');
    });
    redraw.dispose();
  });
});
