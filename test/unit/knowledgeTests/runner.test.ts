import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answerRequest, runKnowledgeTests, type TestToRun } from '../../../src/ai/knowledgeTestRunner';
import { parseTestCsv } from '../../../src/core/knowledgeTests/csvTests';
import { parseTestYaml } from '../../../src/core/knowledgeTests/yamlTests';
import { SAMPLES } from '../../fixtures/retrieval/seededService';
import { startTestService, type TestService } from '../support/localService';

const ROOT = path.resolve(__dirname, '../../..');
const SAMPLE_TESTS = path.join(ROOT, 'samples/knowledge-tests');

const tests = (yaml: string): TestToRun[] => parseTestYaml(yaml).tests.map((test) => ({ file: 't.kdtest.yaml', test }));

describe('Knowledge test runner against the local service', function () {
  let service: TestService;
  let seed: string;

  before(async () => {
    seed = await mkdtemp(path.join(tmpdir(), 'kd-runner-seed-'));
    await cp(path.join(SAMPLES, 'faq-overview.md'), path.join(seed, 'faq-overview.md'));
    service = await startTestService({ seedDir: seed, fsync: false });
    await service.service.processingIdle();
  });
  after(async () => {
    await service?.stop();
    await rm(seed, { recursive: true, force: true });
  });

  it('runs each mode, evaluates the assertions and keeps the given order, at most `concurrency` at once', async () => {
    const items = tests(`tests:
  - question: What are the opening hours of the Tokyo office?
    assert:
      - cites: faq-overview.md
      - contains: ["8:00", "２１:００"]
  - question: What are the opening hours of the Tokyo office?
    mode: retrieval
    assert:
      - retrieves: { document: faq-overview.md, page: 1, top: 1 }
  - question: How do I reset my password?
    mode: qna
    assert:
      - noAnswer: true
  - question: What are the opening hours of the Tokyo office?
    assert:
      - contains: 24 hours
`);
    let running = 0;
    let most = 0;
    const outcomes = await runKnowledgeTests(service.client(), items, {
      concurrency: 2,
      onStart: () => (most = Math.max(most, ++running)),
      onOutcome: () => running--,
    });
    assert.deepEqual(
      outcomes.map((o) => [o.test.mode, o.status]),
      [
        ['answer', 'passed'],
        ['retrieval', 'passed'],
        ['qna', 'passed'],
        ['answer', 'failed'],
      ],
    );
    assert.equal(outcomes[3].assertions[0].message, 'The answer does not contain "24 hours".');
    assert.equal(most, 2, 'two at once, never more');
  });

  it('an aborted signal stops the run with its reason; a failed request is an errored test, not a failed one', async () => {
    const items = tests('tests:\n  - question: q\n    assert:\n      - contains: x\n');
    const abort = new AbortController();
    abort.abort(new Error('stop'));
    await assert.rejects(runKnowledgeTests(service.client(), items, { signal: abort.signal }), /stop/);
    const down = service.client({ baseUrl: 'http://127.0.0.1:9', retry: { maxRetries: 0 } });
    const [outcome] = await runKnowledgeTests(down, items);
    assert.equal(outcome.status, 'errored');
    assert.ok(outcome.error);
  });

  it('sends the chat’s options: sources, hashtags and scope', () => {
    const [{ test }] = tests(
      'tests:\n  - question: q\n    sources: [document]\n    hashtags: ["#hr"]\n    scope: [f1, f1]\n    assert:\n      - contains: x\n',
    );
    assert.deepEqual(answerRequest(test), {
      query: 'q',
      includeCitations: true,
      clues: true,
      temperature: 0,
      search_from: ['document'],
      hashtags: { docsInclude: ['hr'], docsIncludeOption: 'or' },
      source: { sharedKnowledgeBaseNodeIds: ['f1'] },
    });
  });

  it('the sample test files read without problems', async () => {
    for (const name of await readdir(SAMPLE_TESTS)) {
      const text = await readFile(path.join(SAMPLE_TESTS, name), 'utf8');
      const parsed = name.endsWith('.csv') ? parseTestCsv(text) : parseTestYaml(text);
      assert.deepEqual(parsed.diagnostics, [], name);
      assert.ok(parsed.tests.length >= 4, name);
    }
  });
});
