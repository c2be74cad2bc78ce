import assert from 'node:assert/strict';
import { z } from 'zod';
import { analyticsProtocol, analyticsQuerySchema } from '../../../src/features/qna/analytics/protocol';
import { emptyDraft } from '../../../src/features/qna/editor/qaDraft';
import { qaEditorProtocol, qaEditorStateSchema } from '../../../src/features/qna/editor/protocol';
import { parseIncoming, snapshotAndDrive, type Envelope } from '../../../src/platform/webview/protocol';
import { RpcEndpoint, RpcError } from '../../../src/platform/webview/rpc';

type Editor = typeof qaEditorProtocol;

/** Host and page endpoints wired to each other through JSON (as postMessage would copy). */
function pair(options: { pageTimeoutMs?: number } = {}) {
  const invalid: string[] = [];
  const copy = (m: Envelope): unknown => JSON.parse(JSON.stringify(m));
  // Each side posts to the other; the closures run later (microtasks), when both exist.
  const hostEnd: RpcEndpoint<Editor['toHost'], Editor['toPage']> = new RpcEndpoint({
    incoming: qaEditorProtocol.toHost,
    outgoing: qaEditorProtocol.toPage,
    post: (m) => queueMicrotask(() => pageEnd.receive(copy(m))),
    onInvalid: (p) => invalid.push(`host: ${p}`),
  });
  const pageEnd: RpcEndpoint<Editor['toPage'], Editor['toHost']> = new RpcEndpoint({
    incoming: qaEditorProtocol.toPage,
    outgoing: qaEditorProtocol.toHost,
    post: (m) => queueMicrotask(() => hostEnd.receive(copy(m))),
    onInvalid: (p) => invalid.push(`page: ${p}`),
    defaultTimeoutMs: options.pageTimeoutMs,
  });
  return { hostEnd, pageEnd, invalid };
}

describe('webview protocol validation', () => {
  it('rejects what is not a message', () => {
    for (const raw of [
      null,
      42,
      'ready',
      {},
      { kind: 'hello' },
      { kind: 'notify' },
      { kind: 'request', id: -1, type: 'save', params: {} },
      { kind: 'response', id: 'x', ok: true },
    ]) {
      const r = parseIncoming(raw, qaEditorProtocol.toHost);
      assert.equal(r.ok, false, JSON.stringify(raw));
    }
  });

  it('rejects unknown types and bad payloads, keeping the id of a request so it can be answered', () => {
    const unknown = parseIncoming({ kind: 'request', id: 7, type: 'format', params: {} }, qaEditorProtocol.toHost);
    assert.deepEqual(unknown, { ok: false, problem: 'unknown request "format"', requestId: 7 });
    const proto = parseIncoming({ kind: 'notify', type: '__proto__', payload: {} }, qaEditorProtocol.toHost);
    assert.equal(proto.ok, false);
    const bad = parseIncoming(
      { kind: 'request', id: 8, type: 'save', params: { draft: { ...emptyDraft(), question: 42 } } },
      qaEditorProtocol.toHost,
    );
    assert.equal(bad.ok, false);
    assert.equal(!bad.ok && bad.requestId, 8);
    assert.match(!bad.ok ? bad.problem : '', /draft\.question: Expected string/);
    const extra = parseIncoming({ kind: 'request', id: 9, type: 'delete', params: { id: 'someone-else' } }, qaEditorProtocol.toHost);
    assert.equal(extra.ok, false, 'strict empty params');
    const wrongWay = parseIncoming({ kind: 'notify', type: 'init', payload: {} }, qaEditorProtocol.toHost);
    assert.equal(wrongWay.ok, false, 'a host-to-page message is not accepted from the page');
  });

  it('accepts valid messages and returns the parsed payload', () => {
    const r = parseIncoming({ kind: 'notify', type: 'dirty', payload: { dirty: true, question: 'q', extra: 1 } }, qaEditorProtocol.toHost);
    assert.deepEqual(r, { ok: true, message: { kind: 'notify', type: 'dirty', payload: { dirty: true, question: 'q' } } });
    assert.deepEqual(parseIncoming({ kind: 'ready' }, qaEditorProtocol.toHost), { ok: true, message: { kind: 'ready' } });
  });

  it('caps sizes on the wire', () => {
    const big = { ...emptyDraft(), similarQuestions: Array.from({ length: 1001 }, () => 'q') };
    assert.equal(parseIncoming({ kind: 'request', id: 1, type: 'save', params: { draft: big } }, qaEditorProtocol.toHost).ok, false);
  });

  it('checks analytics queries: dates, order and topN', () => {
    assert.equal(analyticsQuerySchema.safeParse({ startDate: '2025-01-01', endDate: '2025-01-14', topN: 10 }).success, true);
    assert.equal(analyticsQuerySchema.safeParse({ startDate: '2025-01-15', endDate: '2025-01-14', topN: 10 }).success, false);
    assert.equal(analyticsQuerySchema.safeParse({ startDate: '2025-1-1', endDate: '2025-01-14', topN: 10 }).success, false);
    assert.equal(analyticsQuerySchema.safeParse({ startDate: '2025-01-01', endDate: '2025-01-14', topN: 3 }).success, false);
    assert.equal(
      parseIncoming(
        { kind: 'request', id: 1, type: 'load', params: { query: { startDate: 'x', endDate: 'y', topN: 5 } } },
        analyticsProtocol.toHost,
      ).ok,
      false,
    );
  });

  it('validates saved editor state (what the serializer restores)', () => {
    assert.equal(qaEditorStateSchema.safeParse({ target: { kind: 'existing', id: 'faq-1' }, draft: emptyDraft() }).success, true);
    assert.equal(qaEditorStateSchema.safeParse({ target: { kind: 'existing' } }).success, false);
    assert.equal(qaEditorStateSchema.safeParse({ apiKey: 'x' }).success, false);
  });
});

describe('webview request/response channel', () => {
  it('answers requests by id with validated results', async () => {
    const { hostEnd, pageEnd, invalid } = pair();
    hostEnd.handle('feedback', ({ isPositive }) => ({
      userFeedback: { positiveCount: 0, negativeCount: 0 },
      agentFeedback: { positiveCount: isPositive ? 1 : 0, negativeCount: isPositive === false ? 1 : 0 },
    }));
    const [a, b] = await Promise.all([
      pageEnd.request('feedback', { isPositive: true }),
      pageEnd.request('feedback', { isPositive: false }),
    ]);
    assert.equal(a.agentFeedback.positiveCount, 1);
    assert.equal(b.agentFeedback.negativeCount, 1);
    assert.deepEqual(invalid, []);
    assert.equal(pageEnd.pendingCount, 0);
  });

  it('turns a handler error into a rejected request with its message', async () => {
    const { hostEnd, pageEnd } = pair();
    hostEnd.handle('copyId', () => {
      throw new Error('This Q&A has not been saved yet.');
    });
    await assert.rejects(
      pageEnd.request('copyId', {}),
      (e: RpcError) => e instanceof RpcError && e.message === 'This Q&A has not been saved yet.',
    );
  });

  it('answers an invalid request with an error instead of leaving the page waiting', async () => {
    const { pageEnd, invalid } = pair();
    // Bypass the page-side check to put a bad request on the wire.
    await assert.rejects(pageEnd.request('save', { draft: { question: 1 } } as never), /does not match the protocol/);
    const raw = new RpcEndpoint<Editor['toHost'], Editor['toPage']>({
      incoming: qaEditorProtocol.toHost,
      outgoing: qaEditorProtocol.toPage,
      post: (m) => answers.push(m),
      onInvalid: (p) => invalid.push(p),
    });
    const answers: Envelope[] = [];
    raw.receive({ kind: 'request', id: 5, type: 'save', params: { draft: { question: 1 } } });
    assert.equal(answers.length, 1);
    assert.deepEqual({ ...answers[0], error: undefined }, { kind: 'response', id: 5, ok: false, error: undefined });
    assert.equal(invalid.length, 1);
  });

  it('rejects a result that does not match the protocol, on either side', async () => {
    const { hostEnd, pageEnd, invalid } = pair();
    hostEnd.handle('delete', () => ({ deleted: 'yes' }) as never);
    await assert.rejects(pageEnd.request('delete', {}), /Internal error answering "delete"/);
    assert.match(invalid.join('\n'), /result of "delete" does not match/);
  });

  it('chooseHashtags: the list the page sends and the answer of the host are both checked against the protocol', async () => {
    const { hostEnd, pageEnd, invalid } = pair();
    let answer: unknown = null;
    hostEnd.handle('chooseHashtags', ({ current }) => (answer === 'echo' ? { hashtags: [...current, '新規'] } : answer) as never);
    answer = 'echo';
    assert.deepEqual(await pageEnd.request('chooseHashtags', { current: ['経費', 'hr'] }), { hashtags: ['経費', 'hr', '新規'] });
    answer = { hashtags: null };
    assert.deepEqual(await pageEnd.request('chooseHashtags', { current: [] }), { hashtags: null }, 'null: the person cancelled');
    assert.deepEqual(invalid, []);
    // What the page sends: a list of strings, capped.
    const req = (params: unknown) => parseIncoming({ kind: 'request', id: 3, type: 'chooseHashtags', params }, qaEditorProtocol.toHost);
    assert.equal(req({ current: ['a'] }).ok, true);
    for (const bad of [
      {},
      { current: 'a b' },
      { current: [1] },
      { current: [null] },
      { current: Array.from({ length: 1001 }, () => 'x') },
    ]) {
      assert.equal(req(bad).ok, false, JSON.stringify(bad).slice(0, 80));
    }
    await assert.rejects(pageEnd.request('chooseHashtags', { current: [7] } as never), /does not match the protocol/);
    // What the host answers: a list or null, nothing else.
    for (const bad of [{ hashtags: 'hr' }, { hashtags: [1] }, {}, { hashtags: undefined }]) {
      answer = bad;
      await assert.rejects(pageEnd.request('chooseHashtags', { current: [] }), /Internal error answering "chooseHashtags"/);
    }
    assert.equal(invalid.filter((p) => /result of "chooseHashtags" does not match/.test(p)).length, 4);
  });

  it('times out when nobody answers', async () => {
    const { pageEnd } = pair({ pageTimeoutMs: 30 });
    await assert.rejects(pageEnd.request('reload', {}), (e: RpcError) => e.code === 'timeout' || e.code === 'no-handler');
    const lonely = new RpcEndpoint<Editor['toPage'], Editor['toHost']>({
      incoming: qaEditorProtocol.toPage,
      outgoing: qaEditorProtocol.toHost,
      post: () => undefined,
      defaultTimeoutMs: 20,
    });
    await assert.rejects(lonely.request('reload', {}), (e: RpcError) => e.code === 'timeout');
    assert.equal(lonely.pendingCount, 0);
  });

  it('validates outgoing notifications and drops unknown keys', () => {
    const sent: Envelope[] = [];
    const host = new RpcEndpoint<Editor['toHost'], Editor['toPage']>({
      incoming: qaEditorProtocol.toHost,
      outgoing: qaEditorProtocol.toPage,
      post: (m) => sent.push(m),
    });
    host.notify('busy', { busy: true, label: 'Save', apiKey: 'secret' } as never);
    assert.deepEqual(sent, [{ kind: 'notify', type: 'busy', payload: { busy: true, label: 'Save' } }]);
    assert.throws(() => host.notify('busy', { busy: 'yes' } as never), /does not match the protocol/);
  });

  it('delivers notifications to listeners, and ready to the ready listener', () => {
    const host = new RpcEndpoint<Editor['toHost'], Editor['toPage']>({
      incoming: qaEditorProtocol.toHost,
      outgoing: qaEditorProtocol.toPage,
      post: () => undefined,
    });
    const seen: unknown[] = [];
    let ready = 0;
    host.setReadyListener(() => ready++);
    const sub = host.onNotification('dirty', (p) => seen.push(p));
    host.receive({ kind: 'ready' });
    host.receive({ kind: 'notify', type: 'dirty', payload: { dirty: true, question: '経費' } });
    sub.dispose();
    host.receive({ kind: 'notify', type: 'dirty', payload: { dirty: false, question: '' } });
    assert.equal(ready, 1);
    assert.deepEqual(seen, [{ dirty: true, question: '経費' }]);
  });

  it('fails pending requests when disposed', async () => {
    const page = new RpcEndpoint<Editor['toPage'], Editor['toHost']>({
      incoming: qaEditorProtocol.toPage,
      outgoing: qaEditorProtocol.toHost,
      post: () => undefined,
    });
    const p = page.request('reload', {});
    page.dispose();
    await assert.rejects(p, /closed/);
    await assert.rejects(page.request('reload', {}), /closed/);
  });
});

describe('snapshotAndDrive: the test build requests of the pages', () => {
  it('snapshot takes no parameters, drive takes its own; both answer the same snapshot', () => {
    const shown = z.object({ page: z.number() });
    const { snapshot, drive } = snapshotAndDrive(shown, z.object({ go: z.number() }));
    assert.equal(snapshot.result, shown);
    assert.equal(drive.result, shown);
    assert.equal(snapshot.params.safeParse({}).success, true);
    assert.equal(snapshot.params.safeParse({ go: 1 }).success, false, 'snapshot is strict: no parameters');
    assert.equal(drive.params.safeParse({ go: 1 }).success, true);
    // The Q&A editor (as the chat, citation and Retrieval pages) declares its requests this way in the test build.
    assert.deepEqual(Object.keys(qaEditorProtocol.toPage.requests).sort(), ['drive', 'snapshot']);
  });
});
