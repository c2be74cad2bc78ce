import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { jsonReport, junitReport, textReport, type RunReport } from '../../../src/core/knowledgeTests/reporters';
import { ASSERTION_KINDS } from '../../../src/core/knowledgeTests/testSchema';

const ROOT = path.resolve(__dirname, '../../..');
const test = (title: string, line: number) => ({ title, question: title, mode: 'answer', start: { line, column: 5 } });

const run: RunReport = {
  durationMs: 1_500,
  problems: [
    {
      file: 'bad.kdtest.yaml',
      diagnostic: {
        severity: 'error',
        message: 'question: the question is empty',
        start: { line: 3, column: 15 },
        end: { line: 3, column: 17 },
      },
    },
  ],
  outcomes: [
    { file: 'hr.kdtest.yaml', test: test('Paid leave <days> & "carry over"', 2), status: 'passed', durationMs: 120, assertions: [] },
    {
      file: 'hr.kdtest.yaml',
      test: test('VPN', 9),
      status: 'failed',
      durationMs: 300,
      assertions: [
        {
          kind: 'contains',
          line: 12,
          passed: false,
          message: 'The answer does not contain "port 443".',
          expected: 'contains "port 443"',
          actual: 'Use vpn.example\u0001',
        },
      ],
    },
    { file: 'hr.kdtest.yaml', test: test('Down', 15), status: 'errored', durationMs: 5, assertions: [], error: 'connect ECONNREFUSED' },
  ],
};

describe('Knowledge test reporters', () => {
  it('JUnit: well-formed XML of testsuites > testsuite > testcase with failure and error, counts and lines', () => {
    const xml = junitReport(run);
    const doc = new new JSDOM('').window.DOMParser().parseFromString(xml, 'application/xml');
    assert.equal(doc.getElementsByTagName('parsererror').length, 0, 'well-formed');
    const root = doc.documentElement;
    assert.equal(root.tagName, 'testsuites');
    assert.deepEqual(
      ['tests', 'failures', 'errors'].map((a) => root.getAttribute(a)),
      ['4', '2', '1'],
    );
    const suites = [...root.children];
    assert.deepEqual(
      suites.map((s) => [s.tagName, s.getAttribute('name'), s.getAttribute('tests'), s.getAttribute('failures'), s.getAttribute('errors')]),
      [
        ['testsuite', 'bad.kdtest.yaml', '1', '1', '0'],
        ['testsuite', 'hr.kdtest.yaml', '3', '1', '1'],
      ],
    );
    const cases = [...suites[1].children];
    assert.deepEqual(
      cases.map((c) => [c.tagName, c.getAttribute('name'), c.getAttribute('line'), [...c.children].map((x) => x.tagName).join()]),
      [
        ['testcase', 'Paid leave <days> & "carry over"', '2', ''],
        ['testcase', 'VPN', '9', 'failure'],
        ['testcase', 'Down', '15', 'error'],
      ],
    );
    const failure = cases[1].children[0];
    assert.equal(failure.getAttribute('message'), 'The answer does not contain "port 443".');
    assert.match(failure.textContent ?? '', /expected: contains "port 443"\nactual: Use vpn.example\uFFFD/);
    assert.equal(suites[0].children[0].children[0].getAttribute('message'), 'question: the question is empty');
    for (const c of root.getElementsByTagName('testcase'))
      assert.ok(c.getAttribute('classname') && c.getAttribute('time'), 'classname and time');
  });

  it('text: problems at file:line:column, each failure with expected and actual, then the totals', () => {
    const text = textReport(run);
    assert.match(text, /^bad\.kdtest\.yaml:3:15: error: question: the question is empty$/m);
    assert.match(
      text,
      /^FAIL {2}VPN {2}\(hr\.kdtest\.yaml:9, 300 ms\)\n {4}✗ contains \(line 12\): The answer does not contain "port 443"\.\n {6}expected: contains "port 443"\n {6}actual: {3}Use vpn/m,
    );
    assert.match(text, /^ERROR {2}Down/m);
    assert.match(text, /3 tests: 1 passed, 1 failed, 1 errored; 1 problems in test files \(1\.5 s\)\n$/);
  });

  it('json: totals, problems and tests as data', () => {
    const data = JSON.parse(jsonReport(run)) as {
      totals: Record<string, number>;
      problems: unknown[];
      tests: Array<{ status: string; line: number }>;
    };
    assert.deepEqual(data.totals, { tests: 3, passed: 1, failed: 1, errored: 1, problems: 1 });
    assert.deepEqual(
      data.tests.map((t) => [t.status, t.line]),
      [
        ['passed', 2],
        ['failed', 9],
        ['errored', 15],
      ],
    );
  });

  it('the JSON schema for *.kdtest.yaml names the same assertions, and package.json contributes it for the YAML editor', () => {
    const schema = JSON.parse(readFileSync(path.join(ROOT, 'schemas/kdtest.schema.json'), 'utf8')) as {
      definitions: { assertion: { oneOf: Array<{ required: string[] }> } };
    };
    assert.deepEqual(
      schema.definitions.assertion.oneOf.map((a) => a.required[0]),
      [...ASSERTION_KINDS],
    );
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      contributes: { yamlValidation: Array<{ fileMatch: string; url: string }> };
    };
    assert.deepEqual(pkg.contributes.yamlValidation, [{ fileMatch: '*.kdtest.yaml', url: './schemas/kdtest.schema.json' }]);
    assert.deepEqual(pkg.bin, { 'knowledge-desk': 'dist/cli.js' });
    assert.match(readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8'), /^!schemas\/\*\.json$/m);
  });
});
