// The local service as the extension starts it in Production (no `testHooks`): the test routes do not exist and
// the stream-delay header is ignored; /_local/info (the extension's check that a service answers) stays.
import assert from 'node:assert/strict';
import { request } from 'undici';
import { SAMPLES } from '../../fixtures/retrieval/seededService';
import { startTestService, type TestService } from '../support/localService';

const QUESTION = 'How many days of paid leave do new employees get in their first year?';

describe('Local service without the test option (the production wiring)', () => {
  let prod: TestService;
  let test: TestService;
  before(async () => {
    prod = await startTestService({ seedDir: SAMPLES, fsync: false, testHooks: false });
    test = await startTestService({ fsync: false });
    await prod.service.processingIdle();
  });
  after(async () => {
    await prod?.stop();
    await test?.stop();
  });

  async function call(t: TestService, method: 'GET' | 'POST', route: string, headers: Record<string, string> = {}, body?: string) {
    const res = await request(`${t.service.url}${route}`, {
      method,
      headers: { 'API-KEY': t.service.apiKey, 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: res.statusCode, text: await res.body.text() };
  }

  for (const [method, route, body] of [
    ['POST', '/_local/faults', JSON.stringify({ script: ['500', '500', '500'] })],
    ['POST', '/_local/echo', JSON.stringify({ status: 418, body: { hello: 'world' } })],
    ['GET', '/_local/whoami', undefined],
    ['POST', '/_local/stream-delay', JSON.stringify({ ms: 0 })],
  ] as const) {
    it(`answers 404 to ${method} ${route}, which the service started with the test option serves`, async () => {
      const res = await call(prod, method, route, {}, body);
      assert.equal(res.status, 404, res.text);
      assert.match(res.text, new RegExp(`No operation at ${route}`));
      const served = await call(test, method, route, {}, body);
      assert.notEqual(served.status, 404, `with testHooks ${route} is served: ${served.text}`);
    });
  }

  it('injects no fault: a fault script sent anyway changes nothing', async () => {
    await call(prod, 'POST', '/_local/faults', {}, JSON.stringify({ script: ['500'] }));
    const res = await call(prod, 'POST', '/webapi/v2/knowledge_base_nodes/search', {}, '{}');
    assert.equal(res.status, 200, res.text);
  });

  it('still serves /_local/info, without test counters', async () => {
    const res = await call(prod, 'GET', '/_local/info');
    assert.equal(res.status, 200, res.text);
    const counts = (JSON.parse(res.text) as { counts: Record<string, number> }).counts;
    assert.ok('http.inFlight' in counts, res.text);
    assert.ok(!Object.keys(counts).some((k) => k.startsWith('faults.') || k.startsWith('echo.')), res.text);
  });

  it('ignores X-Local-Stream-Delay-Ms: the stream is written without pauses', async () => {
    const started = performance.now();
    const res = await call(
      prod,
      'POST',
      '/webapi/generative_answer',
      { 'X-Local-Stream-Delay-Ms': '2000' },
      JSON.stringify({ query: QUESTION, answerFormat: 'MARKDOWN', mode: 'stream' }),
    );
    const elapsed = performance.now() - started;
    assert.equal(res.status, 200, res.text);
    const lines = res.text.trim().split('\n');
    // Honoured, the header would hold each line after the first back by 2 s: at least 4 s for these lines.
    assert.ok(lines.length >= 3, `${lines.length} lines`);
    assert.ok(elapsed < 2000, `the stream took ${elapsed.toFixed(0)} ms: the delay header was honoured`);
  });
});
