import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  chatProtocol,
  defaultChatOptions,
  type ChatCitation,
  type Conversation,
  type Turn,
} from '../../../src/features/answers/chat/protocol';
import { chatStrings, type ChatStrings } from '../../../src/features/answers/chat/chatStrings';
import { allAttributes, deliver, FakeVsCodeApi, loadPage, makeWindow, tick, type El, type Win } from './support/page';

const { Messenger } = loadPage<{ Messenger: new (p: unknown, api: unknown, target: unknown) => { dropped: string[] } }>(
  'src/webview/shared/messenger',
);
const { Sanitizer } = loadPage<{ Sanitizer: new (win: Win, o?: object) => unknown }>('src/webview/shared/sanitize');
const { MarkdownRenderer } = loadPage<{ MarkdownRenderer: new (s: unknown, doc: El, o?: object) => { render(md: string): El } }>(
  'src/webview/shared/markdown',
);
const { ChatController } = loadPage<{ ChatController: new (doc: El, m: unknown, s: unknown, r: unknown) => { start(app: El): void } }>(
  'src/webview/chat/controller',
);

const citations: ChatCitation[] = [
  {
    index: 1,
    clueId: 'clue-1',
    source: 'document',
    title: 'employee-handbook.pdf',
    pageNo: 3,
    knowledgeBaseId: 'kb-1',
    text: 'New employees receive 10 days of paid leave after six months.',
  },
  {
    index: 2,
    clueId: 'clue-2',
    source: 'faq',
    title: 'How do I request leave?',
    faqId: 'faq-9',
    text: '<p>Use the <b>HR portal</b>.</p><script>alert(1)</script>',
  },
];

function turn(over: Partial<Turn> = {}): Turn {
  return {
    id: 't1',
    question: 'How many days of paid leave do new employees get?',
    answer: '',
    citations: [],
    stateful: false,
    status: 'done',
    askedAt: 1,
    seq: 0,
    ...over,
  };
}

function conversation(turns: Turn[] = [], over: Partial<Conversation> = {}): Conversation {
  return { id: 'c1', title: turns[0]?.question ?? 'New chat', createdAt: 1, updatedAt: 2, options: defaultChatOptions(), turns, ...over };
}

/** The chat page in jsdom with a fake VS Code API in place of the host; Markdown renders are counted. */
function mount(state?: unknown, sanitizeOptions: object = {}, strings: ChatStrings = chatStrings(), lang = 'en') {
  const win = makeWindow('<main id="app"></main>', undefined, strings, lang);
  const api = new FakeVsCodeApi(state);
  const messenger = new Messenger(chatProtocol, api, win);
  const sanitizer = new Sanitizer(win, sanitizeOptions);
  const md = new MarkdownRenderer(sanitizer, win.document, { html: true });
  const renders: string[] = [];
  new ChatController(win.document, messenger, sanitizer, { render: (m: string) => (renders.push(m), md.render(m)) }).start(
    win.document.getElementById('app'),
  );
  const $ = (sel: string): El => win.document.querySelector(sel);
  const $$ = (sel: string): El[] => Array.from(win.document.querySelectorAll(sel));
  const notify = (type: string, payload: unknown): void => deliver(win, { kind: 'notify', type, payload });
  const init = (c: Conversation, ownUserIdSet = true, connection = { id: 'local', name: 'Local' }): void =>
    notify('init', {
      conversation: c,
      conversations: [{ id: c.id, title: c.title, updatedAt: 2, turns: c.turns.length }],
      ownUserIdSet,
      connection,
    });
  const sent = (type: string): any[] => api.sent('notify', type).map((m) => m.payload);
  const key = (el: El, k: string, extra: object = {}): void =>
    void el.dispatchEvent(new win.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...extra }));
  return { win, api, messenger, $, $$, notify, init, sent, key, renders };
}

describe('Chat page (jsdom)', () => {
  it('says ready, then shows a finished answer: citation markers link to the numbered sources, follow-up chip, model label', async () => {
    const p = mount();
    assert.deepEqual(p.api.posted[0], { kind: 'ready' });
    const answer = 'New employees get **10 days** of paid leave [1]. Request it in the HR portal [2, 3].\n\n`[1]` in code stays as it is.';
    p.init(conversation([turn({ answer, citations, fuQuestion: 'Does unused leave carry over?', model: 'local-extractive' })]));
    await tick();
    const links = p.$$('.kd-answer-body a.kd-cite-link');
    assert.deepEqual(
      links.map((a) => [a.textContent, a.getAttribute('href')]),
      [
        ['1', '#src-t1-1'],
        ['2', '#src-t1-2'],
      ],
    );
    assert.match(p.$$('.kd-answer-body sup.kd-cite')[1].textContent, /^2,3$/, '[3] has no citation: shown without a link');
    assert.equal(p.$('.kd-answer-body code').textContent, '[1]');
    const sources = p.$$('.kd-source-item');
    assert.deepEqual(
      sources.map((li) => li.id),
      ['src-t1-1', 'src-t1-2'],
    );
    assert.match(sources[0].textContent, /employee-handbook\.pdf.*Document · page 3.*10 days of paid leave/);
    assert.match(sources[1].textContent, /How do I request leave\?.*Q&A.*Use the HR portal\./);
    assert.doesNotMatch(p.$('.kd-sources').innerHTML, /<script|<b>/, 'cited HTML is shown as plain text');
    assert.equal(p.$('.kd-followup').textContent, 'Does unused leave carry over?');
    assert.equal(p.$('.kd-model').textContent, 'local-extractive');
    assert.equal(p.$('.kd-hint').hidden, true);
    assert.equal(p.renders.length, 1, 'a finished turn renders once');
  });

  it('streams: appends each delta (O(1) DOM work per chunk, no whole-answer render) and renders Markdown once at the end', async () => {
    const p = mount();
    p.init(conversation());
    await tick();
    p.notify('turnStarted', { conversationId: 'c1', turn: turn({ status: 'streaming' }) });
    await tick();
    assert.equal(p.$('[data-action="stop"]').hidden, false, 'Stop while streaming');
    assert.equal(p.$('[data-action="send"]').hidden, true);
    const body = p.$('.kd-answer-body');
    const observer = new p.win.MutationObserver(() => undefined);
    observer.observe(body, { childList: true, subtree: true, characterData: true });
    const chunks = Array.from({ length: 60 }, (_, i) => `Sentence ${i} [1].${i % 3 === 2 ? '\n\n' : ' '}`);
    const perChunk: number[] = [];
    chunks.forEach((text, i) => {
      deliver(p.win, { kind: 'notify', type: 'delta', payload: { requestId: 't1', seq: i + 1, text, replaced: false } });
      perChunk.push(observer.takeRecords().length);
    });
    assert.ok(Math.max(...perChunk) <= 3, `mutations per chunk: ${perChunk}`);
    assert.equal(p.renders.length, 20, 'one render per finished paragraph, none per chunk');
    assert.ok(
      p.renders.every((r) => r.length < 80),
      'never the whole answer while streaming',
    );
    assert.match(body.textContent, /Sentence 58 1\. Sentence 59 1\.\n$/, 'every finished paragraph is shown, markers as superscripts');
    assert.equal(body.querySelectorAll('sup.kd-cite').length, 60);
    assert.equal(body.querySelectorAll('a.kd-cite-link').length, 0, 'no links before the citations are known');
    const full = chunks.join('');
    p.notify('turnFinished', { conversationId: 'c1', turn: turn({ status: 'done', answer: full, citations, seq: 60 }) });
    await tick();
    assert.equal(p.renders.length, 21);
    assert.equal(p.renders.at(-1), full);
    assert.equal(p.$$('.kd-answer-body a.kd-cite-link').length, 60);
    assert.equal(p.$('[data-action="send"]').hidden, false);
  });

  it('ignores deltas it already has (page reloaded mid-stream) and asks for a resync after a gap', async () => {
    const p = mount();
    p.init(conversation([turn({ status: 'streaming', answer: 'First part. ', seq: 3 })]));
    await tick();
    p.notify('delta', { requestId: 't1', seq: 3, text: 'First part. ', replaced: false });
    p.notify('delta', { requestId: 't1', seq: 4, text: 'Second part.', replaced: false });
    p.notify('delta', { requestId: 'other', seq: 1, text: 'not this chat', replaced: false });
    await tick();
    assert.equal(p.$('.kd-answer-body').textContent, 'First part. Second part.');
    p.notify('delta', { requestId: 't1', seq: 9, text: 'lost', replaced: false });
    await tick();
    assert.equal(p.sent('resync').length, 1);
    p.notify('delta', { requestId: 't1', seq: 10, text: 'Whole answer, rendered anew.', replaced: true });
    await tick();
    assert.equal(p.$('.kd-answer-body').textContent, 'Whole answer, rendered anew.');
  });

  it('renders answers inert: no script, handler, javascript: link or remote image; https images only when allowed', async () => {
    const evil = [
      'Safe **text** [1].',
      '',
      '<script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2"> <a href="javascript:alert(1)">html link</a>',
      '',
      '[md link](javascript:alert(2)) ![tracker](https://evil.example/t.png) <svg onload="alert(3)"></svg><iframe src="https://evil.example"></iframe>',
    ].join('\n');
    for (const allowRemoteImages of [false, true]) {
      const p = mount(undefined, { allowRemoteImages });
      p.init(conversation());
      await tick();
      p.notify('turnStarted', { conversationId: 'c1', turn: turn({ status: 'streaming' }) });
      p.notify('delta', { requestId: 't1', seq: 1, text: evil, replaced: false });
      const inert = (): void => {
        assert.deepEqual(
          p.$$('#app script, #app iframe, #app svg:not(.kd-icon), #app object, #app embed').map((e) => e.outerHTML),
          [],
        );
        assert.deepEqual(
          allAttributes(p.$('#app')).filter((a) => /@on|javascript:/i.test(a)),
          [],
        );
      };
      inert(); // the block rendered while streaming is sanitized, the unfinished one is text
      p.notify('turnFinished', { conversationId: 'c1', turn: turn({ answer: evil, citations, seq: 1 }) });
      await tick();
      const html = p.$('.kd-answer-body').innerHTML;
      assert.match(html, /<strong>text<\/strong>/);
      assert.doesNotMatch(html, /<script|\son\w+=|href="javascript:|<iframe|<svg/i);
      inert();
      const remote = p.$$('.kd-answer-body img').filter((i) => /^https:/.test(i.getAttribute('src')));
      assert.equal(remote.length, allowRemoteImages ? 1 : 0);
      assert.ok(p.$$('.kd-blocked-image').length >= (allowRemoteImages ? 1 : 2), 'relative (and remote) images become placeholders');
      assert.equal((p.win as { pwned?: unknown }).pwned, undefined);
    }
  });

  it("a source shows its passage's excerpt: a Markdown page's headings and syntax removed, one line (src/core/excerpt.ts)", async () => {
    const p = mount();
    const page = {
      ...citations[0],
      text: '# 経費精算ガイド\n\n出張にかかった費用の**精算方法**をまとめています。\n\n## 申請期限\n\n- 帰着後14日以内に申請してください。',
    };
    p.init(conversation([turn({ answer: '帰着後14日以内です [1]。', citations: [page] })]));
    await tick();
    assert.equal(
      p.$('#src-t1-1 .kd-source-snippet').textContent,
      '出張にかかった費用の精算方法をまとめています。帰着後14日以内に申請してください。',
    );
  });

  it('a marker click focuses its source; a source click posts openCitation with the citation and its clue id', async () => {
    const p = mount();
    p.init(conversation([turn({ answer: 'Ten days [1]. Portal [2].', citations })]));
    await tick();
    p.$$('a.kd-cite-link')[1].click();
    assert.equal(p.win.document.activeElement, p.$('#src-t1-2 .kd-source'));
    p.$('#src-t1-1 .kd-source').click();
    assert.deepEqual(p.sent('openCitation'), [{ turnId: 't1', citation: citations[0] }]);
    assert.equal(p.sent('openCitation')[0].citation.clueId, 'clue-1');
  });

  it('Enter sends the question with the options (Shift+Enter and IME composition do not); Stop sends abort with the request id', async () => {
    const p = mount();
    p.init(conversation());
    await tick();
    const input = p.$('#chat-question');
    input.value = '有給休暇は何日？';
    p.key(input, 'Enter', { shiftKey: true });
    p.key(input, 'Enter', { isComposing: true });
    assert.equal(p.sent('ask').length, 0);
    p.key(input, 'Enter');
    assert.deepEqual(p.sent('ask'), [{ conversationId: 'c1', question: '有給休暇は何日？', options: defaultChatOptions() }]);
    assert.equal(input.value, '', 'the box is cleared');
    p.notify('turnStarted', { conversationId: 'c1', turn: turn({ id: 'r-42', question: '有給休暇は何日？', status: 'streaming' }) });
    p.notify('delta', { requestId: 'r-42', seq: 1, text: '入社6か月後に', replaced: false });
    await tick();
    p.$('[data-action="stop"]').click();
    assert.deepEqual(p.sent('abort'), [{ requestId: 'r-42' }]);
    p.notify('turnFinished', {
      conversationId: 'c1',
      turn: turn({ id: 'r-42', question: '有給休暇は何日？', status: 'stopped', answer: '入社6か月後に', seq: 1 }),
    });
    await tick();
    assert.equal(p.$('.kd-answer-body').textContent.trim(), '入社6か月後に', 'the partial answer stays');
    assert.match(p.$('.kd-turn-note').textContent, /Stopped/);
    assert.equal(p.$('[data-action="stop"]').hidden, true);
  });

  it('counts the question near 2,000 characters and refuses to send past it, in plain words (English and Japanese)', async () => {
    for (const lang of ['en', 'ja'] as const) {
      const p = lang === 'ja' ? mount(undefined, {}, japanese(chatStrings()), 'ja') : mount();
      p.init(conversation());
      await tick();
      const input = p.$('#chat-question');
      const count = p.$('#chat-question-count');
      const type = (text: string): void => {
        input.value = text;
        input.dispatchEvent(new p.win.Event('input', { bubbles: true }));
      };
      type('How many days of paid leave?');
      assert.equal(count.hidden, true, 'far from the limit: no count');
      // Code points: an emoji outside the Basic Multilingual Plane counts once.
      type(`${'a'.repeat(1_949)}😀`);
      assert.equal(count.textContent, lang === 'ja' ? '1,950 / 2,000 文字' : '1,950 / 2,000 characters');
      assert.equal(input.getAttribute('aria-invalid'), null);
      assert.match(input.getAttribute('aria-describedby'), /chat-question-count/);
      // Pasted: 20,000 characters.
      const long = 'x'.repeat(20_000);
      type(long);
      const said =
        lang === 'ja'
          ? '質問は 20,000 文字あります。送信できるのは 2,000 文字までです。短くしてから送信してください。'
          : 'The question is 20,000 characters long; at most 2,000 can be sent. Shorten it, then send it.';
      assert.equal(count.textContent, lang === 'ja' ? '20,000 / 2,000 文字' : '20,000 / 2,000 characters');
      assert.equal(count.classList.contains('kd-over'), true);
      assert.equal(input.getAttribute('aria-invalid'), 'true');
      p.key(input, 'Enter');
      p.$('[data-action="send"]').click();
      assert.deepEqual(p.sent('ask'), [], 'not sent');
      assert.equal(p.$('.kd-notice').hidden, false);
      assert.equal(p.$('.kd-notice .kd-banner-text').textContent, said);
      assert.equal(input.value, long, 'kept, to be shortened');
      assert.doesNotMatch(visible(p), /String must contain|character\(s\)/);
      const snap = (await requestSnapshot(p)) as { questionCount: string; notice: string };
      assert.equal(snap.questionCount, count.textContent);
      assert.equal(snap.notice, said);
      // Exactly at the limit it goes.
      type('y'.repeat(2_000));
      p.key(input, 'Enter');
      assert.equal(p.sent('ask').length, 1);
      assert.equal(p.sent('ask')[0].question.length, 2_000);
      assert.equal(count.hidden, true, 'sent: the box and its count are cleared');
    }
  });

  it('keeps a broken answer with its error; Retry re-asks the same question in place; next steps run allowed commands', async () => {
    const p = mount();
    const error = {
      message: 'The service is rate limiting requests. Try again in 3 s. The part of the answer that arrived is kept above.',
      actions: [{ label: 'Set API Key', command: 'knowledgeDesk.setApiKey' }],
    };
    p.init(conversation([turn({ status: 'error', answer: 'Ten days of', error })]));
    await tick();
    assert.equal(p.$('.kd-answer-body').textContent.trim(), 'Ten days of');
    assert.match(p.$('.kd-turn-error').textContent, /rate limiting/);
    assert.equal(p.$('.kd-turn-error').getAttribute('role'), 'alert');
    p.$('[data-action="retry"]').click();
    assert.deepEqual(p.sent('ask'), [{ conversationId: 'c1', question: turn().question, options: defaultChatOptions(), retryOf: 't1' }]);
    p.$$('.kd-turn-error button')
      .find((b) => b.textContent === 'Set API Key')
      .click();
    assert.deepEqual(p.sent('runAction'), [{ command: 'knowledgeDesk.setApiKey' }]);
    p.notify('turnStarted', { conversationId: 'c1', turn: turn({ id: 't2', status: 'streaming' }), replaces: 't1' });
    await tick();
    assert.deepEqual(
      p.$$('.kd-turn').map((t) => t.getAttribute('data-turn-id')),
      ['t2'],
      "the retry takes the failed turn's place",
    );
  });

  it('asks the follow-up from its chip, and shows the thread hint until an Own user ID is set', async () => {
    const p = mount();
    p.init(conversation([turn({ answer: 'Ten days [1].', citations, fuQuestion: 'Does unused leave carry over?' })]), false);
    await tick();
    assert.equal(p.$('.kd-hint').hidden, false);
    assert.match(p.$('.kd-hint').textContent, /Follow-ups start a new thread until an Own user ID is set/);
    p.$('[data-action="setIdentity"]').click();
    assert.equal(p.sent('setIdentity').length, 1);
    p.notify('identity', { ownUserIdSet: true });
    await tick();
    assert.equal(p.$('.kd-hint').hidden, true);
    p.$('.kd-followup').click();
    assert.equal(p.sent('ask')[0].question, 'Does unused leave carry over?');
  });

  it('options: changes go to the host and to webview state; the host can set the scope; Choose… asks the host', async () => {
    const p = mount();
    p.init(conversation());
    await tick();
    const web = p.$('#chat-src-web');
    web.checked = true;
    web.dispatchEvent(new p.win.Event('change', { bubbles: true }));
    const model = p.$('#chat-model');
    model.value = 'gpt-4o';
    model.dispatchEvent(new p.win.Event('change', { bubbles: true }));
    const last = p.sent('optionsChanged').at(-1);
    assert.deepEqual(last.options.sources, { document: true, qna: true, web: true });
    assert.equal(last.options.model, 'gpt-4o');
    assert.equal((p.api.state as { options: { model: string } }).options.model, 'gpt-4o');
    p.$('[data-action="chooseScope"]').click();
    assert.equal(p.sent('chooseScope').length, 1);
    p.notify('options', {
      conversationId: 'c1',
      options: { ...last.options, scope: [{ id: 'f-1', name: 'Handbook', kind: 'folder' }] },
      focus: true,
    });
    await tick();
    assert.equal(p.$('.kd-options').open, true);
    assert.match(p.$('.kd-scope-list').textContent, /Handbook/);
    assert.match(p.$('.kd-options-summary').textContent, /^Handbook · documents \+ Q&A \+ web · gpt-4o$/);
    p.$('.kd-scope-list .kd-chip-remove').click();
    assert.deepEqual(p.sent('optionsChanged').at(-1).options.scope, []);
    assert.match(p.$('.kd-scope-list').textContent, /Whole knowledge base/);
  });

  it('restores the unsent question and options from webview state', async () => {
    const options = { ...defaultChatOptions(), hashtags: ['経費'], temperature: 0.4 };
    const p = mount({ conversationId: 'c1', options, draft: 'half-typed question', optionsOpen: true });
    assert.equal(p.$('#chat-question').value, 'half-typed question');
    assert.equal(p.$('#chat-hashtags').value, '経費');
    assert.equal(p.$('.kd-options').open, true);
    p.init(conversation([], { options }));
    await tick();
    assert.equal(p.$('#chat-temperature').value, '0.4');
    assert.equal(p.$('#chat-question').value, 'half-typed question');
  });

  it('keeps its connection in webview state for a restart, and puts a question the host did not send back in the box', async () => {
    const p = mount();
    p.init(conversation(), true, { id: 'beta', name: 'Beta' });
    await tick();
    p.$('#chat-question').value = 'Only Beta knows this?';
    p.key(p.$('#chat-question'), 'Enter');
    assert.equal(p.sent('ask').length, 1);
    assert.equal(p.$('#chat-question').value, '', 'cleared when sent');
    const message = 'The connection "Beta" this chat asks was removed, so your question was not sent.';
    p.notify('notice', { message, kind: 'warning', unsent: 'Only Beta knows this?' });
    await tick();
    assert.equal(p.$('#chat-question').value, 'Only Beta knows this?');
    assert.equal(p.$('.kd-notice .kd-banner-text').textContent, message);
    const state = p.api.state as { connection: { id: string; name: string }; draft: string };
    assert.deepEqual(state.connection, { id: 'beta', name: 'Beta' });
    assert.equal(state.draft, 'Only Beta knows this?');
    // Something typed since is not overwritten.
    p.$('#chat-question').value = 'Another question';
    p.notify('notice', { message, kind: 'warning', unsent: 'Only Beta knows this?' });
    await tick();
    assert.equal(p.$('#chat-question').value, 'Another question');
  });

  it('drops messages that do not match the protocol, and refuses to send invalid ones', async () => {
    const p = mount();
    deliver(p.win, { kind: 'notify', type: 'init', payload: { conversation: { id: 'c1' } } });
    deliver(p.win, { kind: 'notify', type: 'delta', payload: { requestId: 't1', seq: -1, text: 'x', replaced: false } });
    deliver(p.win, { kind: 'notify', type: 'evil', payload: '<img src=x onerror=alert(1)>' });
    deliver(p.win, 'not even an object');
    await tick();
    assert.equal(p.$$('.kd-turn').length, 0);
    assert.equal(p.messenger.dropped.length, 4);
    const rpc = p.messenger as unknown as { notify(type: string, payload: unknown): void };
    assert.throws(
      () => rpc.notify('ask', { conversationId: 'c1', question: '   ', options: defaultChatOptions() }),
      /does not match the protocol/,
    );
    assert.throws(() => rpc.notify('abort', {}), /does not match the protocol/);
  });
});

/** The page's texts as the host builds them in Japanese: each English text looked up in l10n/bundle.l10n.ja.json. */
function japanese<T extends Record<string, string>>(english: T): T {
  const ja = JSON.parse(readFileSync('l10n/bundle.l10n.ja.json', 'utf8')) as Record<string, string>;
  return Object.fromEntries(Object.entries(english).map(([k, v]) => [k, ja[v] ?? `MISSING ${v}`])) as T;
}

/** Waits (bounded) until `ok` holds: the live region is set in the next animation frame. */
async function until(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100 && !ok(); i++) await tick(5);
  assert.ok(ok(), what);
}

describe('Chat page: keyboard, screen readers and the display language (jsdom)', () => {
  it('the live region says a finished answer once, never a streamed chunk; a stop is said once too', async () => {
    const p = mount();
    p.init(conversation([turn({ answer: 'Earlier answer [1].', citations })]));
    await tick(30);
    const region = p.$('.kd-chat > [role="status"][aria-live="polite"]');
    assert.ok(region, 'a polite status region');
    assert.equal(region.getAttribute('aria-atomic'), 'true');
    assert.equal(region.textContent, '', 'a conversation shown on load is not read out');
    assert.equal(p.$('.kd-answer').getAttribute('aria-live'), null, 'the answer itself is not a live region');
    const changes: string[] = [];
    new p.win.MutationObserver(() => region.textContent && changes.push(region.textContent)).observe(region, {
      childList: true,
      characterData: true,
      subtree: true,
    });
    p.notify('turnStarted', { conversationId: 'c1', turn: turn({ id: 't2', status: 'streaming' }) });
    for (let i = 1; i <= 30; i++) p.notify('delta', { requestId: 't2', seq: i, text: `Part ${i}. `, replaced: false });
    await tick(50);
    assert.deepEqual(changes, [], 'nothing said while streaming');
    const answer = Array.from({ length: 30 }, (_, i) => `Part ${i + 1}.`).join(' ') + ' See [1] and [2].';
    p.notify('turnFinished', { conversationId: 'c1', turn: turn({ id: 't2', status: 'done', answer, citations, seq: 30 }) });
    await until(() => changes.length > 0, 'the finished answer is said');
    await tick(50);
    assert.equal(changes.length, 1, `said once: ${JSON.stringify(changes)}`);
    assert.match(changes[0], /^Answer finished: Part 1\. Part 2\..*Part 30\. See 1 and 2\. 2 sources\.$/);
    const snap = (await requestSnapshot(p)) as { announced: string; announcements: number };
    assert.equal(snap.announcements, 1);
    assert.equal(snap.announced, changes[0]);

    p.notify('turnStarted', { conversationId: 'c1', turn: turn({ id: 't3', status: 'streaming' }) });
    p.notify('delta', { requestId: 't3', seq: 1, text: 'Half', replaced: false });
    p.notify('turnFinished', { conversationId: 'c1', turn: turn({ id: 't3', status: 'stopped', answer: 'Half', seq: 1 }) });
    await until(() => changes.length > 1, 'the stop is said');
    await tick(50);
    assert.deepEqual(changes.slice(1), ['Answer stopped. What arrived is kept.']);
  });

  it('Escape stops a streaming answer from anywhere in the page, and does nothing otherwise or while composing', async () => {
    const p = mount();
    p.init(conversation());
    await tick();
    const input = p.$('#chat-question');
    p.key(input, 'Escape');
    assert.equal(p.sent('abort').length, 0, 'nothing streams: nothing to stop');
    input.value = 'How many days?';
    p.key(input, 'Enter');
    assert.equal(p.sent('ask').length, 1, 'Enter sent it');
    p.notify('turnStarted', { conversationId: 'c1', turn: turn({ id: 'r-1', status: 'streaming' }) });
    await tick();
    p.key(input, 'Escape', { isComposing: true });
    assert.equal(p.sent('abort').length, 0, 'Escape that ends an IME composition does not stop the answer');
    p.key(p.$('[data-action="newChat"]'), 'Escape');
    assert.deepEqual(p.sent('abort'), [{ requestId: 'r-1' }], 'Escape on a header button stops it');
    // The stop button had the focus when the answer ended: the focus goes back to the question box.
    p.$('[data-action="stop"]').focus();
    p.notify('turnFinished', { conversationId: 'c1', turn: turn({ id: 'r-1', status: 'stopped', answer: '', seq: 0 }) });
    await tick();
    assert.equal(p.win.document.activeElement, input);
  });

  it('sources: one Tab stop, arrow keys, Home and End move between them, Enter opens the focused one', async () => {
    const three = [...citations, { index: 3, title: 'Travel policy', source: 'document', knowledgeBaseId: 'kb-2', pageNo: 1 }];
    const p = mount();
    p.init(conversation([turn({ answer: 'A [1]. B [2]. C [3].', citations: three })]));
    await tick();
    const buttons = p.$$('.kd-source');
    assert.deepEqual(
      buttons.map((b) => b.tabIndex),
      [0, -1, -1],
      'one stop in the Tab order',
    );
    const list = p.$('.kd-sources-list');
    assert.equal(p.win.document.getElementById(list.getAttribute('aria-describedby')).textContent, chatStrings().sourceListHelp);
    buttons[0].focus();
    p.key(buttons[0], 'ArrowDown');
    assert.equal(p.win.document.activeElement, buttons[1]);
    assert.deepEqual(
      buttons.map((b) => b.tabIndex),
      [-1, 0, -1],
      'Tab comes back to the source left last',
    );
    p.key(buttons[1], 'End');
    assert.equal(p.win.document.activeElement, buttons[2]);
    p.key(buttons[2], 'ArrowDown');
    assert.equal(p.win.document.activeElement, buttons[2], 'no wrap past the end');
    p.key(buttons[2], 'Home');
    assert.equal(p.win.document.activeElement, buttons[0]);
    p.key(buttons[0], 'ArrowUp');
    assert.equal(p.win.document.activeElement, buttons[0]);
    // Enter on the focused source, as the drive request presses it (keydown, then the button's activation).
    const snap = await requestDrive(p, { focus: { source: 2 }, press: { key: 'Enter' } });
    assert.equal(snap.focused, 'source:t1:2');
    assert.deepEqual(
      p.sent('openCitation').map((o) => o.citation.index),
      [2],
    );
    // Enter in the question box is the box's own (send), not a click of anything.
    const typed = await requestDrive(p, { focus: 'question', type: 'Next?', press: { key: 'Enter' } });
    assert.equal(typed.draft, '');
    assert.equal(p.sent('ask').length, 1);
  });

  it('every button and field has an accessible name; 👍/👎 are buttons with aria-pressed', async () => {
    const p = mount();
    p.init(conversation([turn({ answer: 'Ten days [1].', citations, answerHash: 'h1', documentId: 'kb-1' })]));
    await tick();
    const unnamed = p
      .$$('button, input, select, textarea')
      .filter((el) => !el.getAttribute('aria-label') && !el.textContent.trim() && !(el.id && p.$(`label[for="${el.id}"]`)));
    assert.deepEqual(
      unnamed.map((el) => el.outerHTML.slice(0, 80)),
      [],
    );
    const up = p.$('[data-action="feedbackUp"]');
    const down = p.$('[data-action="feedbackDown"]');
    assert.equal(up.tagName, 'BUTTON');
    assert.notEqual(up.tabIndex, -1, 'reachable with Tab');
    assert.deepEqual([up.getAttribute('aria-pressed'), down.getAttribute('aria-pressed')], ['false', 'false']);
    assert.equal(up.getAttribute('aria-label'), 'Helpful');
    up.click();
    assert.deepEqual(p.sent('feedback'), [{ turnId: 't1', positive: true }]);
    p.notify('feedback', { turnId: 't1', feedback: { positive: true, positiveCount: 1200, negativeCount: 3 }, offered: true });
    await tick();
    const pressed = p.$('[data-action="feedbackUp"]');
    assert.equal(pressed.getAttribute('aria-pressed'), 'true');
    assert.equal(pressed.getAttribute('aria-label'), 'Helpful (press again to cancel), 1,200 in all');
    assert.equal(p.$('[data-action="feedbackDown"]').getAttribute('aria-pressed'), 'false');
  });

  it('shows the Japanese texts the host gives it, with numbers in the display language', async () => {
    const ja = japanese(chatStrings());
    assert.deepEqual(
      Object.entries(ja).filter(([, v]) => v.startsWith('MISSING')),
      [],
    );
    const p = mount(undefined, {}, ja, 'ja');
    p.init(
      conversation([turn({ answer: '入社後10日です [1]。申請はポータルから [2]。', citations, answerHash: 'h', documentId: 'kb-1' })]),
    );
    await tick();
    assert.equal(p.$('[data-action="send"]').textContent, '送信');
    assert.equal(p.$('[data-action="stop"]').textContent.trim(), '停止');
    assert.equal(p.$('#chat-question').getAttribute('placeholder'), 'ナレッジベースについて質問してください…');
    assert.equal(p.$('#chat-question').getAttribute('aria-label'), '質問');
    assert.equal(p.$('.kd-compose-help').textContent, 'Enter で送信 · Shift+Enter で改行 · Escape で回答を停止');
    assert.equal(p.$('.kd-sources-title').textContent, '出典 (2)');
    assert.match(p.$('.kd-source-item').textContent, /ドキュメント · 3 ページ/);
    assert.equal(p.$('a.kd-cite-link').getAttribute('aria-label'), '出典 1');
    assert.equal(p.$('[data-action="feedbackUp"]').getAttribute('aria-label'), '役に立った');
    assert.equal(p.$('.kd-options summary .kd-label').textContent, 'オプション');
    assert.equal(p.$('.kd-turn').getAttribute('aria-label'), `質問: ${turn().question}`);
    // Nothing of the page's own shows in English (identifiers, the answer and the service's titles aside).
    const shown = [
      ...p.$$('button, label, summary, h1, h3, .kd-description, .kd-hint span').map((el) => el.textContent.trim()),
      ...p
        .$$('[aria-label], [title], [placeholder]')
        .flatMap((el) => ['aria-label', 'title', 'placeholder'].map((a) => el.getAttribute(a) ?? '')),
    ].filter((t) => /\b(the|to|of|this|your|and|with|for)\b/i.test(t) && !/employee-handbook|How do I|How many days/.test(t));
    assert.deepEqual(shown, []);
  });
});

/** The text of the page a person sees. */
function visible(p: ReturnType<typeof mount>): string {
  return p.win.document.body.textContent ?? '';
}

async function requestSnapshot(p: ReturnType<typeof mount>): Promise<unknown> {
  return request(p, 'snapshot', {});
}

async function requestDrive(p: ReturnType<typeof mount>, params: object): Promise<{ focused: string | null; draft: string }> {
  return (await request(p, 'drive', params)) as { focused: string | null; draft: string };
}

async function request(p: ReturnType<typeof mount>, type: string, params: unknown): Promise<unknown> {
  const id = Math.floor(Math.random() * 1e9);
  deliver(p.win, { kind: 'request', id, type, params });
  for (let i = 0; i < 200 && !p.api.sent('response').some((r: { id: number }) => r.id === id); i++) await tick(2);
  const response = p.api.sent('response').find((r: { id: number }) => r.id === id) as { ok: boolean; result?: unknown; error?: unknown };
  assert.ok(response?.ok, `${type}: ${JSON.stringify(response)}`);
  return response.result;
}
