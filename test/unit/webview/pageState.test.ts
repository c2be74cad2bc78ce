// A page's state reaches the host as it changes (so a reload right after typing keeps it), and a restored page takes
// the host's copy when it is newer than its own (the web workbench can restore a page with an older state).
import assert from 'node:assert/strict';
import { chatProtocol, defaultChatOptions } from '../../../src/features/answers/chat/protocol';
import { PageStates } from '../../../src/platform/webview/pageStates';
import { FakeVsCodeApi, loadPage, makeWindow, tick, type El } from './support/page';

const { Messenger } = loadPage<{ Messenger: new (p: unknown, api: unknown, target: unknown) => unknown }>('src/webview/shared/messenger');
const { ChatController } = loadPage<{ ChatController: new (doc: El, m: unknown, s: unknown, r: unknown) => { start(app: El): void } }>(
  'src/webview/chat/controller',
);

/** The chat page as the host loads it, with its own webview state and (data-kd-state) the host's copy. */
function mount(own?: unknown, fromHost?: unknown) {
  const win = makeWindow('<main id="app"></main>');
  if (fromHost !== undefined) win.document.body.dataset.kdState = JSON.stringify(fromHost);
  const api = new FakeVsCodeApi(own);
  const messenger = new Messenger(chatProtocol, api, win);
  const sanitizer = { sanitize: (html: string) => html };
  new ChatController(win.document, messenger, sanitizer, { render: (m: string) => win.document.createTextNode(m) }).start(
    win.document.getElementById('app'),
  );
  const input: El = win.document.getElementById('chat-question');
  const type = (text: string): void => {
    input.value = text;
    input.dispatchEvent(new win.Event('input', { bubbles: true }));
  };
  return { api, input, type, sent: () => api.sent('notify', 'pageState').map((m) => m.payload) };
}

const chatState = (draft: string) => ({ options: defaultChatOptions(), draft, optionsOpen: false });

describe('Page state kept by the host', () => {
  it('a typed question goes to the host at once (one message per task), marked with the page id kept in its state', async () => {
    const p = mount();
    p.type('And how many');
    p.type('And how many unused days can I carry over?');
    await tick();
    const sent = p.sent();
    assert.equal(sent.length, 1, 'the two inputs of one task are sent together');
    assert.equal(sent[0].state.draft, 'And how many unused days can I carry over?');
    assert.deepEqual((p.api.state as { kdPanel: unknown }).kdPanel, { id: sent[0].id, at: sent[0].at });
    p.type('And how many unused days');
    await tick();
    assert.equal(p.sent().length, 2);
    assert.equal(p.sent()[1].id, sent[0].id, 'the same page keeps its id');
    assert.ok(p.sent()[1].at > sent[0].at);
  });

  it('a restored page shows the host copy when it is newer than its own state, and its own state otherwise', () => {
    const own = { ...chatState('And how'), kdPanel: { id: 'page-1', at: 1_000 } };
    const newer = { id: 'page-1', at: 2_000, state: { ...chatState('And how many unused days?'), kdPanel: { id: 'page-1', at: 2_000 } } };
    assert.equal(mount(own, newer).input.value, 'And how many unused days?');
    assert.equal(mount(own, { ...newer, at: 500 }).input.value, 'And how', 'an older host copy loses');
    assert.equal(mount(undefined, newer).input.value, 'And how many unused days?', 'a page whose own state was lost');
    assert.equal(mount(own, '<not a state>').input.value, 'And how');
  });
});

class FakeMemento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (JSON.parse(JSON.stringify(this.values.get(key))) as T) : fallback;
  }
  update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

describe('PageStates (the host copy in workspace state)', () => {
  it('restores the newer copy of the same page; a page without a mark takes the newest one no other page took', async () => {
    const memento = new FakeMemento();
    const states = new PageStates(memento);
    await states.keep('chat', { id: 'a', at: 10, state: { draft: 'old' } });
    await states.keep('chat', { id: 'a', at: 30, state: { draft: 'new' } });
    await states.keep('chat', { id: 'b', at: 20, state: { draft: 'other' } });
    await states.keep('editor', { id: 'e', at: 40, state: {} });
    // After a reload: a fresh object over the same workspace state.
    const restored = new PageStates(memento);
    assert.deepEqual(restored.newerThan('chat', { draft: 'saved', kdPanel: { id: 'a', at: 20 } }), {
      id: 'a',
      at: 30,
      state: { draft: 'new' },
    });
    assert.equal(restored.newerThan('chat', { draft: 'saved', kdPanel: { id: 'b', at: 25 } }), undefined, 'the saved state is newer');
    const again = new PageStates(memento);
    assert.equal(again.newerThan('chat', undefined)?.id, 'a');
    assert.equal(again.newerThan('chat', undefined)?.id, 'b');
    assert.equal(again.newerThan('chat', undefined), undefined);
  });
});
