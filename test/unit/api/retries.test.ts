import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { z } from 'zod';
import { ApiAbortError, ApiConnectionError, InternalServerError, RateLimitError } from '../../../src/api/errors';
import { parseRetryAfter, retryDelay, defaultRetryPolicy, isRetryable } from '../../../src/api/retry';
import { startTestService, type TestService } from '../support/localService';

type Counts = { counts: Record<string, number> };

describe('Retries under injected faults (real local service)', () => {
  let t: TestService;
  before(async () => (t = await startTestService()));
  after(() => t.stop());
  afterEach(() => t.admin('POST', '/_local/faults', {}));

  const faults = (script: string[], extra: Record<string, unknown> = {}) => t.admin('POST', '/_local/faults', { script, ...extra });
  const served = async (kind: string) => (await t.admin<Counts>('GET', '/_local/info')).counts[`faults.${kind}`];

  it('retries an idempotent GET through 500s and dropped connections, then succeeds', async () => {
    await faults(['500', 'drop']);
    assert.deepEqual(await t.client().faq.embeddingStatus(), { total: 0, pending: 0, ready: 0 });
    assert.equal(await served('500'), 1);
    assert.equal(await served('drop'), 1);
    assert.equal(await served('none'), 1, 'exactly one request got through');
  });

  it('gives up after maxRetries (2 by default) with the last error', async () => {
    await faults(['500', '500', '500', '500']);
    const error = await t
      .client()
      .faq.embeddingStatus()
      .catch((e) => e);
    assert.ok(error instanceof InternalServerError, inspect(error));
    assert.equal(await served('500'), 3, 'one attempt plus two retries');
  });

  it('never resends a non-idempotent POST after a 500 or a dropped connection', async () => {
    // A search declared non-idempotent: the handler answers with JSON, so dropAfter cuts after it ran.
    const echo = {
      operation: 'test.post',
      method: 'POST' as const,
      path: '/webapi/v2/knowledge_base_nodes/search',
      json: {},
      schema: z.unknown(),
      idempotent: false,
    };
    await faults(['500']);
    assert.ok(
      (await t
        .client()
        .request(echo)
        .catch((e) => e)) instanceof InternalServerError,
    );
    await faults(['dropAfter']);
    const dropped = await t
      .client()
      .request(echo)
      .catch((e) => e);
    assert.ok(dropped instanceof ApiConnectionError, inspect(dropped));
    assert.equal(await served('none'), 0, 'no second attempt reached the service');
  });

  /** A client whose logger records each retry it schedules ("retry 1/2 in 1000 ms"). */
  const recordingClient = (overrides: Parameters<TestService['client']>[0] = {}) => {
    const retries: number[] = [];
    const waiters: Array<() => void> = [];
    const logger = {
      debug: () => {},
      warn: () => {},
      info: (message: string) => {
        const m = / in (\d+) ms$/.exec(message);
        if (!m) return;
        retries.push(Number(m[1]));
        waiters.splice(0).forEach((wake) => wake());
      },
    };
    const retryScheduled = () => new Promise<void>((resolve) => (retries.length ? resolve() : waiters.push(resolve)));
    return { client: t.client({ ...overrides, logger }), retries, retryScheduled };
  };

  it('retries a rate-limited (429) POST, honouring Retry-After', async () => {
    await faults(['429'], { retryAfterSeconds: 1 });
    const { client, retries } = recordingClient();
    const started = Date.now();
    const result = await client.request({
      operation: 'test.post',
      method: 'POST',
      path: '/_local/echo',
      json: { body: { ok: 1 } },
      schema: z.unknown(),
    });
    const waited = Date.now() - started;
    assert.deepEqual(result, { ok: 1 });
    // The delay comes from Retry-After, not from the (shorter) backoff; a slow machine can only wait longer.
    assert.deepEqual(retries, [1000], 'one retry, scheduled after exactly the Retry-After');
    assert.ok(waited >= 950, `waited only ${waited} ms despite Retry-After: 1`);
    assert.equal(await served('429'), 1);
  });

  it('fails fast with RateLimitError when Retry-After is longer than the policy allows', async () => {
    await faults(['429'], { retryAfterSeconds: 600 });
    const { client, retries } = recordingClient();
    const error = await client.faq.embeddingStatus().catch((e) => e);
    assert.ok(error instanceof RateLimitError, inspect(error));
    assert.equal(error.retryAfterMs, 600_000);
    assert.deepEqual(retries, [], 'no retry was scheduled (it would have waited 10 minutes)');
    assert.equal(await served('429'), 1);
  });

  it('stops waiting between retries when the caller aborts', async () => {
    await faults(['500', '500', '500'], {});
    const controller = new AbortController();
    // A 10-minute backoff: only an interrupted sleep lets this test end before its timeout.
    const { client, retries, retryScheduled } = recordingClient({ retry: { baseDelayMs: 600_000, maxDelayMs: 600_000 } });
    const pending = client.faq.embeddingStatus({ signal: controller.signal }).catch((e) => e);
    await retryScheduled();
    controller.abort();
    const error = await pending;
    assert.ok(error instanceof ApiAbortError, inspect(error));
    assert.equal(retries.length, 1, 'aborted during the first backoff sleep');
    assert.ok(retries[0] >= 300_000, `backoff ${retries[0]} ms`);
    assert.equal(await served('500'), 1, 'no second attempt was sent');
  });

  it('survives a 30% fault rate on idempotent calls: every call ends in success or a typed error', async () => {
    await t.admin('POST', '/_local/faults', { rate500: 0.15, rateDrop: 0.15, seed: 7 });
    const client = t.client({ retry: { maxRetries: 4, baseDelayMs: 1, maxDelayMs: 5 } });
    const results = await Promise.all(
      Array.from({ length: 60 }, () =>
        client.kbNodes.search().then(
          () => 'ok',
          (e) => e.name,
        ),
      ),
    );
    const ok = results.filter((r) => r === 'ok').length;
    assert.ok(ok >= 57, `only ${ok}/60 calls succeeded with 4 retries: ${results.filter((r) => r !== 'ok').join(', ')}`);
    for (const r of results) assert.ok(['ok', 'InternalServerError', 'ApiConnectionError'].includes(r), r);
  });
});

describe('Retry policy (pure)', () => {
  it('parses Retry-After as seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter('3'), 3000);
    assert.equal(parseRetryAfter('0.5'), 500);
    const now = Date.parse('2026-11-21T10:00:00Z');
    assert.equal(parseRetryAfter('Sat, 21 Nov 2026 10:00:07 GMT', now), 7000);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(''), undefined);
  });

  it('backs off exponentially with jitter in [50%, 100%], capped', () => {
    const p = defaultRetryPolicy;
    assert.equal(
      retryDelay(1, p, undefined, () => 0),
      250,
    );
    assert.equal(
      retryDelay(1, p, undefined, () => 1 - 1e-9),
      500,
    );
    assert.equal(
      retryDelay(3, p, undefined, () => 1 - 1e-9),
      2000,
    );
    assert.equal(
      retryDelay(10, p, undefined, () => 1 - 1e-9),
      8000,
    );
    assert.equal(retryDelay(1, p, '2'), 2000);
    assert.equal(retryDelay(1, p, '61'), undefined);
  });

  it('retries 408/429/5xx and connection failures only when safe', () => {
    assert.equal(isRetryable({ kind: 'status', status: 429 }, false), true);
    assert.equal(isRetryable({ kind: 'status', status: 503 }, false), false);
    assert.equal(isRetryable({ kind: 'status', status: 503 }, true), true);
    assert.equal(isRetryable({ kind: 'status', status: 408 }, true), true);
    assert.equal(isRetryable({ kind: 'status', status: 501 }, true), false);
    assert.equal(isRetryable({ kind: 'status', status: 400 }, true), false);
    assert.equal(isRetryable({ kind: 'connection' }, false), false);
    assert.equal(isRetryable({ kind: 'timeout' }, true), true);
  });
});
