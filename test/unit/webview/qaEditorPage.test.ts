import assert from 'node:assert/strict';
import { qaEditorProtocol, type QaRecord } from '../../../src/features/qna/editor/protocol';
import { emptyDraft } from '../../../src/features/qna/editor/qaDraft';
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

/** The editor page in jsdom, with a fake VS Code API in place of the host. */
function mount(state?: unknown) {
  const win = makeWindow('<main id="app"></main>');
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
  return { win, api, $, notify, respond, type };
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
});
