import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as l10n from '@vscode/l10n';
import { qaEditorProtocol, type QaRecord } from '../../../src/features/qna/editor/protocol';
import { emptyDraft } from '../../../src/features/qna/editor/qaDraft';
import { qaEditorStrings } from '../../../src/features/qna/editor/qaEditorStrings';
import { sharedPageStrings } from '../../../src/platform/webview/pageStrings';
import { deliver, FakeVsCodeApi, loadPage, makeWindow, tick, type El, type Win } from './support/page';

const { Messenger } = loadPage<{ Messenger: new (p: unknown, api: unknown, target: unknown) => unknown }>('src/webview/shared/messenger');
const { Sanitizer } = loadPage<{ Sanitizer: new (win: Win, o?: object) => unknown }>('src/webview/shared/sanitize');
const { EditorController } = loadPage<{ EditorController: new (doc: El, m: unknown, s: unknown) => { start(app: El): void } }>(
  'src/webview/qaEditor/controller',
);

const record: QaRecord = {
  id: 'faq-1',
  values: {
    ...emptyDraft(),
    question: '経費精算の締め日は？',
    answer: '<p>毎月25日です。</p>',
    hashtags: ['経費'],
    similarQuestions: ['締め日はいつ？'],
  },
  userFeedback: { positiveCount: 1, negativeCount: 0 },
  agentFeedback: { positiveCount: 2, negativeCount: 1 },
  createdDate: '2025-01-02',
  lastUpdatedDate: '2025-01-05',
  agentEditor: [],
  agentViewer: [],
};

/** The page's texts as the host builds them with VS Code in Japanese (the bundle handed to @vscode/l10n). */
function japaneseStrings(): Record<string, string> {
  l10n.config({ contents: JSON.parse(readFileSync('l10n/bundle.l10n.ja.json', 'utf8')) as Record<string, string> });
  try {
    return { ...sharedPageStrings(), ...qaEditorStrings() };
  } finally {
    l10n.config({ contents: {} });
  }
}

/** The editor page in jsdom, with a fake VS Code API in place of the host (English texts unless told). */
function mount(state?: unknown, options: { strings?: Record<string, string>; lang?: string } = {}) {
  const win = makeWindow('<main id="app"></main>', undefined, options.strings ?? qaEditorStrings(), options.lang);
  const api = new FakeVsCodeApi(state);
  const messenger = new Messenger(qaEditorProtocol, api, win);
  new EditorController(win.document, messenger, new Sanitizer(win)).start(win.document.getElementById('app'));
  const $ = (sel: string): El => win.document.querySelector(sel);
  const notify = (type: string, payload: unknown): void => deliver(win, { kind: 'notify', type, payload });
  const respond = (id: number, result: unknown): void => deliver(win, { kind: 'response', id, ok: true, result });
  const type = (sel: string, value: string): void => {
    const el = $(sel);
    el.value = value;
    el.dispatchEvent(new win.Event('input', { bubbles: true }));
  };
  /** Presses a key on the focused element, as a person would; returns whether the page took it (default prevented). */
  const press = (key: string, init: Record<string, unknown> = {}): boolean => {
    const target = win.document.activeElement;
    const e = new win.KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
    target.dispatchEvent(e);
    return e.defaultPrevented;
  };
  const focused = (): El => win.document.activeElement;
  return { win, api, $, notify, respond, type, press, focused };
}

describe('Q&A editor page (jsdom)', () => {
  it('says ready once its listeners are set, then shows a new prefilled Q&A with a memo field', async () => {
    const p = mount();
    assert.deepEqual(p.api.posted[0], { kind: 'ready' });
    p.notify('init', {
      target: { kind: 'new', key: 'k1' },
      record: null,
      prefill: { question: '休暇の申請方法', similarQuestions: ['有給の取り方'] },
      loading: false,
    });
    await tick();
    assert.equal(p.$('#qa-title').textContent, 'New Q&A');
    assert.equal(p.$('#qa-question').value, '休暇の申請方法');
    assert.equal(p.$('#qa-similar input').value, '有給の取り方');
    assert.equal(p.$('#qa-memo').closest('.kd-field').hidden, false);
    assert.equal(p.$('[data-action="delete"]').hidden, true, 'nothing to delete yet');
    assert.deepEqual(p.api.sent('notify', 'dirty').at(-1).payload, { dirty: true, question: '休暇の申請方法' });
  });

  it('labels every control', async () => {
    const p = mount();
    p.notify('init', { target: { kind: 'existing', id: 'faq-1' }, record, prefill: null, loading: false });
    await tick();
    const controls = Array.from(p.win.document.querySelectorAll('input, textarea, select')) as El[];
    const unlabeled = controls.filter(
      (c) =>
        !c.getAttribute('aria-label') &&
        !c.getAttribute('aria-labelledby') &&
        !(c.id && p.win.document.querySelector(`label[for="${c.id}"]`)),
    );
    assert.deepEqual(
      unlabeled.map((c) => c.outerHTML),
      [],
    );
  });

  it('shows errors next to the fields and does not send an invalid draft', async () => {
    const p = mount();
    p.notify('init', { target: { kind: 'new', key: 'k2' }, record: null, prefill: null, loading: false });
    await tick();
    p.type('#qa-question', 'x'.repeat(1001));
    p.$('[data-action="save"]').click();
    await tick();
    assert.equal(p.$('#qa-question-error').hidden, false);
    assert.match(p.$('#qa-question-error').textContent, /1,001 characters/);
    assert.equal(p.$('#qa-answer-error').textContent, 'Enter the answer.');
    assert.equal(p.$('#qa-question').hasAttribute('aria-invalid'), true);
    assert.equal(p.api.sent('request', 'save').length, 0);
    assert.equal(p.win.document.activeElement, p.$('#qa-question'), 'focus moves to the first error');
    p.type('#qa-question', 'ok?');
    assert.equal(p.$('#qa-question-error').hidden, true, 'errors clear as they are fixed');
  });

  it('saves a valid new Q&A (Ctrl+S too) and becomes that Q&A', async () => {
    const p = mount();
    p.notify('init', { target: { kind: 'new', key: 'k3' }, record: null, prefill: null, loading: false });
    await tick();
    p.type('#qa-question', record.values.question);
    p.type('#qa-answer', record.values.answer);
    p.type('#qa-memo', 'for agents');
    p.win.document.dispatchEvent(new p.win.KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true }));
    await tick();
    const [save] = p.api.sent('request', 'save');
    assert.equal(save.params.draft.question, record.values.question);
    assert.equal(save.params.draft.memo, 'for agents');
    assert.equal(p.$('[data-action="save"]').disabled, true, 'busy while saving');
    p.respond(save.id, { outcome: 'saved', record, created: true });
    await tick();
    assert.equal(p.$('#qa-title').textContent, record.values.question);
    assert.equal(p.$('#qa-memo').closest('.kd-field').hidden, true, 'the memo cannot be edited after creation');
    assert.equal(p.$('[data-action="delete"]').hidden, false);
    assert.match(p.$('.kd-meta').textContent, /ID faq-1/);
    assert.deepEqual((p.api.state as { target: unknown }).target, { kind: 'existing', id: 'faq-1' });
    assert.deepEqual(p.api.sent('notify', 'dirty').at(-1).payload, { dirty: false, question: record.values.question });
  });

  it('renders the answer preview sanitized (script, onerror and javascript: links inert)', async () => {
    const p = mount();
    p.notify('init', { target: { kind: 'existing', id: 'faq-1' }, record, prefill: null, loading: false });
    await tick();
    p.type('#qa-answer', '<p>OK</p><script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">link</a>');
    await tick(200);
    const preview = p.$('#qa-preview');
    assert.match(preview.innerHTML, /<p>OK<\/p>/);
    assert.doesNotMatch(preview.innerHTML, /<script|onerror|javascript:/i);
    assert.equal(preview.querySelector('a').hasAttribute('href'), false);
  });

  it('shows feedback counts and updates them from the host', async () => {
    const p = mount();
    p.notify('init', { target: { kind: 'existing', id: 'faq-1' }, record, prefill: null, loading: false });
    await tick();
    assert.equal(p.$('[data-action="helpful"] .kd-count').textContent, '3');
    assert.equal(p.$('[data-action="notHelpful"] .kd-count').textContent, '1');
    assert.equal(p.$('[data-action="helpful"]').getAttribute('aria-label'), 'Helpful, 3 helpful (agents 2, users 1)');
    p.$('[data-action="helpful"]').click();
    await tick();
    const [fb] = p.api.sent('request', 'feedback');
    assert.deepEqual(fb.params, { isPositive: true });
    p.respond(fb.id, { userFeedback: { positiveCount: 1, negativeCount: 0 }, agentFeedback: { positiveCount: 3, negativeCount: 1 } });
    await tick();
    assert.equal(p.$('[data-action="helpful"] .kd-count').textContent, '4');
  });

  it('restores an unsaved draft from webview state (hide/restore, restart)', async () => {
    const draft = { ...record.values, answer: '<p>edited but not saved</p>' };
    const p = mount({ target: { kind: 'existing', id: 'faq-1' }, draft });
    p.notify('init', { target: { kind: 'existing', id: 'faq-1' }, record: null, prefill: null, loading: true });
    await tick();
    assert.equal(p.$('#qa-answer').value, draft.answer);
    p.notify('record', { record });
    await tick();
    assert.equal(p.$('#qa-answer').value, draft.answer, 'the loaded record does not overwrite the draft');
    assert.equal(p.$('.kd-badge-dirty').hidden, false);
    assert.match(p.$('.kd-banner-info').textContent, /Restored your unsaved changes/);
  });

  it('keeps the connection the host names in its state, so a restart reopens the editor there (issue 27)', async () => {
    const beta = { id: 'conn-beta', name: 'Beta' };
    const p = mount();
    p.notify('init', { target: { kind: 'existing', id: 'faq-1' }, record, prefill: null, loading: false, connection: beta });
    await tick();
    p.type('#qa-answer', '<p>edited</p>');
    await tick();
    assert.deepEqual((p.api.state as { connection?: unknown }).connection, beta);
    // A host from before connections names none: nothing is kept, and the serializer uses the active connection.
    const q = mount();
    q.notify('init', { target: { kind: 'existing', id: 'faq-1' }, record, prefill: null, loading: false });
    await tick();
    q.type('#qa-answer', '<p>edited</p>');
    await tick();
    assert.equal('connection' in (q.api.state as object), false);
  });

  it('turns a host error into a message above the form', async () => {
    const p = mount();
    p.notify('init', { target: { kind: 'existing', id: 'faq-1' }, record, prefill: null, loading: false });
    await tick();
    p.$('[data-action="toggle"]').click();
    await tick();
    const [toggle] = p.api.sent('request', 'toggle');
    deliver(p.win, { kind: 'response', id: toggle.id, ok: false, error: { message: 'Access denied: the project is inactive.' } });
    await tick();
    assert.equal(p.$('.kd-banner-error').hidden, false);
    assert.match(p.$('.kd-banner-error').textContent, /Access denied/);
  });

  it('ignores messages that do not match the protocol', async () => {
    const p = mount();
    deliver(p.win, { kind: 'notify', type: 'init', payload: { target: { kind: 'existing' } } });
    deliver(p.win, { kind: 'notify', type: 'evil', payload: '<img src=x onerror=alert(1)>' });
    deliver(p.win, 'not even an object');
    await tick();
    assert.equal(p.$('#qa-title').textContent, 'Loading Q&A…');
  });

  it('shows the Japanese texts the host gives it, with numbers and dates in Japanese', async () => {
    const ja = japaneseStrings();
    assert.notEqual(ja.save, 'Save', 'the Japanese bundle was used');
    const p = mount(undefined, { strings: ja, lang: 'ja' });
    p.notify('init', { target: { kind: 'existing', id: 'faq-1' }, record, prefill: null, loading: false });
    await tick();
    assert.equal(p.$('[data-action="save"] .kd-button-label').textContent, '保存');
    assert.equal(p.$('[data-action="toggle"] .kd-button-label').textContent, 'オフにする');
    assert.equal(p.$('.kd-badge:not(.kd-badge-dirty)').textContent, 'オン');
    assert.equal(p.$('label[for="qa-question"]').textContent, '質問');
    assert.equal(p.$('#qa-hashtags-choose').textContent, '選択…');
    assert.equal(p.$('#qa-hashtags').getAttribute('placeholder'), 'ハッシュタグを入力して Enter');
    assert.equal(p.$('#qa-similar input').getAttribute('aria-label'), '類似質問 1');
    assert.equal(p.$('[data-action="helpful"]').getAttribute('aria-label'), '役に立った、役に立った 3 件（エージェント 2、ユーザー 1）');
    // 2025-01-02 in Japanese is 2025/01/02; the day stays the day whatever the time zone.
    assert.match(p.$('.kd-meta').textContent, /作成 2025\/01\/02/);
    assert.match(p.$('.kd-meta').textContent, /更新 2025\/01\/05/);
    // No English left in what the page shows (the question and answer are the Q&A's own, in Japanese).
    const shown = [
      p.$('.kd-page').textContent,
      ...Array.from(p.win.document.querySelectorAll('[aria-label], [title], [placeholder]')).flatMap((e) =>
        ['aria-label', 'title', 'placeholder'].map((a) => (e as El).getAttribute(a) ?? ''),
      ),
    ]
      .join('\n')
      .replaceAll(record.id, '');
    const english =
      shown.match(/\b(?!ID\b|Enter\b|Delete\b|Ctrl\b|HTML\b|knowledgeDesk\b|webview\b|allowRemoteImages\b)[A-Za-z]{3,}\b/g) ?? [];
    assert.deepEqual(english, [], 'English words on the Japanese page');
    // Errors next to the fields are Japanese too, with Japanese digits grouping.
    p.type('#qa-question', 'x'.repeat(1001));
    p.type('#qa-answer', '');
    p.$('[data-action="save"]').click();
    await tick();
    assert.equal(p.$('#qa-question-error').textContent, '質問が 1,001 文字あります。上限は 1,000 文字です。');
    assert.equal(p.$('#qa-answer-error').textContent, '回答を入力してください。');
  });

  it('"Choose…" asks the host for the hashtag picker and puts the chosen hashtags in the field', async () => {
    const p = mount();
    p.notify('init', { target: { kind: 'existing', id: 'faq-1' }, record, prefill: null, loading: false });
    await tick();
    const choose = p.$('#qa-hashtags-choose');
    assert.equal(choose.getAttribute('aria-label'), 'Choose from the hashtags in use');
    p.type('#qa-hashtags', 'typed');
    choose.click();
    await tick();
    const [first] = p.api.sent('request', 'chooseHashtags');
    assert.deepEqual(first.params, { current: ['経費', 'typed'] }, 'the chips and what is typed, ticked in the picker');
    assert.equal(choose.disabled, true, 'one picker at a time');
    choose.click();
    await tick();
    assert.equal(p.api.sent('request', 'chooseHashtags').length, 1);
    p.respond(first.id, { hashtags: ['経費', '精算'] });
    await tick();
    assert.deepEqual(
      Array.from(p.win.document.querySelectorAll('.kd-chip')).map((c) => (c as El).textContent),
      ['#経費', '#精算'],
    );
    assert.equal(p.$('#qa-hashtags').value, '', 'the typed text became a choice');
    assert.equal(choose.disabled, false);
    assert.equal(p.$('[role="status"]').textContent, '2 hashtags chosen.', 'announced');
    assert.deepEqual(p.api.sent('notify', 'dirty').at(-1).payload.dirty, true);
    // Cancelled: nothing changes.
    choose.click();
    await tick();
    const second = p.api.sent('request', 'chooseHashtags')[1];
    assert.deepEqual(second.params, { current: ['経費', '精算'] });
    p.respond(second.id, { hashtags: null });
    await tick();
    assert.equal(p.win.document.querySelectorAll('.kd-chip').length, 2);
    // A failure of the host shows above the form.
    choose.click();
    await tick();
    const third = p.api.sent('request', 'chooseHashtags')[2];
    deliver(p.win, { kind: 'response', id: third.id, ok: false, error: { message: 'Could not read the hashtags in use.' } });
    await tick();
    assert.match(p.$('.kd-banner-error').textContent, /Could not read the hashtags/);
    assert.equal(choose.disabled, false);
    // An answer that is not a list of strings is refused by the protocol, and the field stays as it was.
    choose.click();
    await tick();
    const fourth = p.api.sent('request', 'chooseHashtags')[3];
    p.respond(fourth.id, { hashtags: [42] });
    await tick();
    assert.equal(p.win.document.querySelectorAll('.kd-chip').length, 2);
    assert.equal(choose.disabled, false);
  });

  it('moves between similar questions with Up and Down', async () => {
    const p = mount();
    p.notify('init', {
      target: { kind: 'existing', id: 'faq-1' },
      record: { ...record, values: { ...record.values, similarQuestions: ['one', 'two', 'three'] } },
      prefill: null,
      loading: false,
    });
    await tick();
    const rows = Array.from(p.win.document.querySelectorAll('#qa-similar input')) as El[];
    rows[0].focus();
    assert.equal(p.press('ArrowDown'), true);
    assert.equal(p.focused(), rows[1]);
    p.press('ArrowDown');
    assert.equal(p.focused(), rows[2]);
    assert.equal(p.press('ArrowDown'), false, 'the last row lets the key go (no trap)');
    assert.equal(p.focused(), rows[2]);
    p.press('ArrowUp');
    assert.equal(p.focused(), rows[1]);
    assert.equal(p.press('ArrowDown', { shiftKey: true }), false, 'Shift+Down selects text as usual');
    assert.equal(p.focused(), rows[1]);
  });

  it('hashtag chips: one tab stop, Left from the box, arrows, Home/End, Delete and Escape', async () => {
    const p = mount();
    p.notify('init', {
      target: { kind: 'existing', id: 'faq-1' },
      record: { ...record, values: { ...record.values, hashtags: ['a', 'b', 'c'] } },
      prefill: null,
      loading: false,
    });
    await tick();
    const chips = (): El[] => Array.from(p.win.document.querySelectorAll('.kd-chip-remove'));
    assert.deepEqual(
      chips().map((b) => b.tabIndex),
      [0, -1, -1],
      'the chips are one stop in the tab order',
    );
    assert.deepEqual(
      chips().map((b) => b.getAttribute('aria-label')),
      ['Remove hashtag a', 'Remove hashtag b', 'Remove hashtag c'],
    );
    const box = p.$('#qa-hashtags');
    box.focus();
    box.value = 'x';
    box.setSelectionRange(1, 1);
    assert.equal(p.press('ArrowLeft'), false, 'inside typed text Left moves the caret');
    box.value = '';
    assert.equal(p.press('ArrowLeft'), true);
    assert.equal(p.focused(), chips()[2]);
    assert.deepEqual(
      chips().map((b) => b.tabIndex),
      [-1, -1, 0],
      'the tab stop follows',
    );
    p.press('ArrowLeft');
    assert.equal(p.focused(), chips()[1]);
    p.press('Home');
    assert.equal(p.focused(), chips()[0]);
    p.press('ArrowLeft');
    assert.equal(p.focused(), chips()[0], 'stays on the first');
    p.press('End');
    assert.equal(p.focused(), chips()[2]);
    p.press('ArrowRight');
    assert.equal(p.focused(), box, 'Right from the last chip goes back to the box');
    p.press('ArrowLeft');
    p.press('ArrowLeft');
    assert.equal(p.press('Delete'), true);
    assert.deepEqual(
      Array.from(p.win.document.querySelectorAll('.kd-chip')).map((c) => (c as El).textContent),
      ['#a', '#c'],
    );
    assert.equal(p.focused(), chips()[1], 'focus goes to the chip that took its place');
    assert.equal(p.api.sent('notify', 'dirty').at(-1).payload.dirty, true);
    p.press('Escape');
    assert.equal(p.focused(), box);
    p.press('ArrowLeft');
    p.press('Backspace');
    p.press('Backspace');
    assert.equal(p.win.document.querySelectorAll('.kd-chip').length, 0);
    assert.equal(p.focused(), box, 'with no chip left, focus is back in the box');
  });

  it('the hashtag box splits typed text by the one hashtag rule (src/core/hashtags.ts): ; and , make chips, a plain space does not', async () => {
    const p = mount();
    p.notify('init', { target: { kind: 'existing', id: 'faq-1' }, record, prefill: null, loading: false });
    await tick();
    const chips = (): string[] => Array.from(p.win.document.querySelectorAll('.kd-chip')).map((c) => (c as El).textContent ?? '');
    p.type('#qa-hashtags', 'debian;apt');
    assert.deepEqual(chips(), ['#経費', '#debian'], '"debian;" became a chip');
    assert.equal(p.$('#qa-hashtags').value, 'apt', 'what follows the separator is still being typed');
    p.type('#qa-hashtags', 'apt #net');
    assert.deepEqual(chips(), ['#経費', '#debian', '#apt'], 'white space before # separates');
    assert.equal(p.$('#qa-hashtags').value, '#net');
    p.type('#qa-hashtags', 'local network');
    assert.deepEqual(chips(), ['#経費', '#debian', '#apt'], 'a plain space does not');
  });

  it('announces notices in a live region that is there before the notice', async () => {
    const p = mount();
    p.notify('init', { target: { kind: 'existing', id: 'faq-1' }, record, prefill: null, loading: false });
    await tick();
    const status = p.$('[role="status"]');
    assert.ok(status, 'the live region exists');
    assert.equal(status.hidden, false, 'never hidden itself (a hidden live region is not announced)');
    assert.equal(status.textContent, '');
    p.$('[data-action="copyId"]').click();
    await tick();
    const [copy] = p.api.sent('request', 'copyId');
    p.respond(copy.id, { copied: true });
    await tick();
    assert.equal(p.$('[role="status"]'), status, 'the same element');
    assert.equal(status.textContent, 'Copied the ID to the clipboard.');
  });

  it('gives every button an accessible name', async () => {
    const p = mount();
    p.notify('init', { target: { kind: 'existing', id: 'faq-1' }, record, prefill: null, loading: false });
    await tick();
    const nameless = (Array.from(p.win.document.querySelectorAll('button, [tabindex="0"]')) as El[]).filter(
      (b) => !b.closest('[hidden]') && !(b.getAttribute('aria-label') || b.getAttribute('aria-labelledby') || b.textContent.trim()),
    );
    assert.deepEqual(
      nameless.map((b) => b.outerHTML),
      [],
    );
  });
});
