// Journey 7 (current lane): @knowledge in VS Code's own chat view, in the display language (English questions about
// the handbook, or Japanese ones about the Japanese documents). runIntegration.mjs runs it first in a window of its
// own: the first question is asked before anything else has used Knowledge Desk, so the local service has not started
// (the bug was an answer of "No API key is set for Local"). Then /ask, /docs and /faq, asserting on what the view
// shows a person: the answer's Markdown, the Sources with document and page, the reference links, the follow-up
// suggestion; a source clicked in the view opens the citation viewer at its page; an error offers its button.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import { getApi, lastRendered, useService, waitFor, waitUntilAnswerable, workbenchShows as shows } from '../integration/support/host';
import { requiresLane } from '../integration/support/lane';
import { askInChatView, finishedRequest, readChatResponseUntil, RESPONSE, workbenchTexts } from './support/chatView';
import { clickInWorkbench, japanese, shoot, tr } from './support/journey';

const Q = japanese()
  ? {
      ask: '出張の経費はいつまでに申請しますか？',
      answer: /帰着後14日以内/,
      source: '経費精算ガイド.md',
      docs: '宿泊費の上限はいくらですか',
      docsExcerpt: /宿泊費の上限は1泊12,000円です/,
      faq: { question: '経費の承認者は誰ですか？', answer: '上長が5営業日以内に承認します。' },
    }
  : {
      ask: 'How much is the home office allowance for a desk or a chair?',
      answer: /50,000 yen/,
      source: 'employee-handbook.pdf',
      docs: 'paid leave carry over',
      docsExcerpt: /paid leave/i,
      faq: { question: 'Who approves expense reports?', answer: 'Your manager, within 5 business days.' },
    };
const SOURCES = tr('Sources', '出典');
const page = (n: number | string): string => tr(`page ${n}`, `${n} ページ`);
const KEY_ERROR = /No API key|API キーが設定されていません/;
/**
 * What the participant wrote, once VS Code says the request finished ("Completed N steps": before that it shows
 * "Working", and in 1.139 first "Starting MCP servers"); undefined while it is still working.
 */
const finished = (t: string): string | undefined => {
  const done = /Completed \d+ steps? in [\d.]+\s*m?s\n/.exec(t);
  const written = done ? t.slice(done.index + done[0].length).trim() : '';
  return written.length > 0 && !/^Working/m.test(t) ? written : undefined;
};

describe('Journey: @knowledge in the chat view', () => {
  let api: KnowledgeDeskTestApi;
  before(async function () {
    requiresLane(this, 'current', 'VS Code 1.100 draws no chat without a language model, and the echo model needs VS Code 1.104');
    api = await getApi();
  });

  it('a fresh window, before anything else: the first question in the chat view is answered, not "No API key is set"', async () => {
    assert.equal(api.connection.isUsed, false, 'nothing used Knowledge Desk in this window before the question');
    assert.equal(api.localService.isStarted, false, 'the local service has not started yet');
    const first = finished(await askInChatView(`@knowledge ${Q.ask}`, (t) => finished(t) !== undefined))!;
    await shoot('chat-view-01-first-question');
    console.log(`the first answer in the chat view: ${first}`);
    assert.doesNotMatch(first, KEY_ERROR, first);
    // An answer from the documents, or (the samples still being read) the service's own "no answer": it was reached.
    assert.ok(Q.answer.test(first) || /No answer|見つかりません/.test(first), first);
    assert.equal(api.localService.isStarted, true, 'the question started the local service');
  });

  it('/ask: the answer, its Sources with document and page, and the reference links', async () => {
    const client = await useService(api, 60_000);
    await waitUntilAnswerable(client, Q.ask);
    const text = await askInChatView(`@knowledge ${Q.ask}`, (t) => t.includes(SOURCES));
    await shoot('chat-view-02-answer', { waitForSelector: RESPONSE });
    assert.match(text, Q.answer, text);
    assert.match(text, /\[1\]/, 'the answer keeps its citation marker');
    // The Markdown is rendered: the Sources heading is bold text, not asterisks.
    assert.doesNotMatch(text, /\*\*/, text);
    // (The list's numbers are CSS markers, not text.)
    // (The list's numbers are CSS markers, not text.)
    const line = new RegExp(`${Q.source.replace('.', '\\.')} — ${page('(\\d+)')} — (.+)`).exec(text);
    assert.ok(line, `a numbered source naming ${Q.source} and its page: ${text}`);
    assert.doesNotMatch(line[2], /#|\\/, `the source's excerpt is plain text: ${line[2]}`);
    assert.ok(await shows(`${RESPONSE} a:has-text("${Q.source}")`), 'the source is a link');

    // Clicking the source opens the citation viewer at the cited page.
    const cited = Number(line[1]);
    await clickInWorkbench('chat-view-source', `${RESPONSE} a:has-text("${Q.source}")`);
    const drawn = await waitFor(
      () => {
        const panel = api.citations.last;
        const r = panel && lastRendered(panel);
        return r && r.pageNo === cited ? r : undefined;
      },
      `the citation viewer to draw page ${cited} of ${Q.source}`,
      60_000,
      () => api.citations.last?.describe() ?? 'no citation viewer',
    );
    assert.equal(drawn.pageNo, cited);
    assert.match(api.citations.last!.panel.title, new RegExp(Q.source.replace('.', '\\.')));
    await shoot('chat-view-03-citation-viewer');
  });

  it('/docs: the top pages with document, page and a one-line excerpt', async () => {
    // VS Code draws its "Used N references" part after the Markdown, when it draws it: 1.139 on a busy machine often
    // finishes the request and never draws it (no such element after 120 s: about half the tries here at load 15-20,
    // and once in each of the last two CI runs). The references a turn gives are checked where nothing draws them (test/unit/ai/chatTurn.test.ts); here a
    // question whose list is missing is asked again, and the list, once drawn, must count the pages listed.
    const usedReferences = /Used (\d+) references?/;
    let text = '';
    for (let attempt = 1; attempt <= 3 && !usedReferences.test(text); attempt++) {
      text = await askInChatView(
        `@knowledge /docs ${Q.docs}`,
        (t) => new RegExp(tr('The top \\d', '上位 \\d')).test(t) && (usedReferences.test(t) || finishedRequest(t)),
      );
      if (!usedReferences.test(text)) text = (await readChatResponseUntil((t) => usedReferences.test(t), 20_000)) ?? text;
      if (!usedReferences.test(text)) console.log(`attempt ${attempt}: VS Code drew no "Used N references" list`);
    }
    assert.match(text, new RegExp(`\\n.+ — ${page('\\d+')}\\n`), text);
    assert.match(text, Q.docsExcerpt, text);
    const listed = Number(new RegExp(tr('The top (\\d+)', '上位 (\\d+)')).exec(text)?.[1]);
    const used = usedReferences.exec(text);
    if (used) assert.equal(Number(used[1]), listed, `one reference per page listed: ${text}`);
    assert.ok(await shows(`${RESPONSE} a:has-text("${Q.source}")`), 'the pages are links');
    assert.doesNotMatch(text, /(^|\s)#{1,6}\s|\*\*/m, text);
    await shoot('chat-view-04-docs');
  });

  it('/faq: the matching Q&A with its confidence', async () => {
    const client = await useService(api);
    await client.faq.register({ question: Q.faq.question, answer: Q.faq.answer, status: 'on' } as never);
    await waitFor(
      async () => (await client.faq.search({ query: Q.faq.question, maxResults: 1 })).result.length > 0,
      'the new Q&A to be found',
    );
    const text = await askInChatView(`@knowledge /faq ${Q.faq.question}`, (t) => t.includes(Q.faq.answer) || /No Q&A|一致する Q&A/.test(t));
    assert.match(text, new RegExp(`1\\. ${Q.faq.question.replace('?', '\\?')} — ${tr('confidence', '信頼度')} \\d+%`), text);
    await shoot('chat-view-05-faq');
  });

  it('a follow-up suggestion under an answer (OWN-USER-ID set: the service keeps the thread)', async () => {
    const settings = vscode.workspace.getConfiguration('knowledgeDesk');
    await settings.update('identity.ownUserId', 'journey-user', vscode.ConfigurationTarget.Global);
    try {
      await askInChatView(`@knowledge ${Q.ask}`, (t) => t.includes(SOURCES));
      const followUps = await workbenchTexts(
        '.interactive-session .chat-followups, .interactive-session .interactive-session-followups',
        20_000,
      );
      assert.ok(
        followUps?.some((f) => f.trim().length > 5),
        `a follow-up suggestion: ${JSON.stringify(followUps)}`,
      );
      await shoot('chat-view-06-follow-up');
    } finally {
      await settings.update('identity.ownUserId', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('an error says what to do and offers its button (a region without a key)', async () => {
    const settings = vscode.workspace.getConfiguration('knowledgeDesk');
    await settings.update('region', 'us', vscode.ConfigurationTarget.Global);
    try {
      const text = await askInChatView(`@knowledge ${Q.ask}`, (t) => /Knowledge Desk:/.test(t));
      assert.match(text, KEY_ERROR, text);
      assert.ok(
        await shows(`${RESPONSE} .chat-command-button a, ${RESPONSE} .monaco-button:has-text("${tr('Set API Key', 'API キーを設定')}")`),
      );
      await shoot('chat-view-07-error-button');
    } finally {
      await settings.update('region', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
