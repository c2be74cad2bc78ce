// The pure parts of the Test Explorer side (src/features/knowledgeTests): the history model and its words, the
// failure messages and run output, and the file Generate Tests from Q&As writes.
import assert from 'node:assert/strict';
import type { TestOutcome } from '../../../src/ai/knowledgeTestRunner';
import { evaluate } from '../../../src/core/knowledgeTests/evaluate';
import { parseTestYaml } from '../../../src/core/knowledgeTests/yamlTests';
import { fileDescription, historyMarkdown, testDescription } from '../../../src/features/knowledgeTests/historyView';
import { generatedFileName, qnaTestsYaml } from '../../../src/features/knowledgeTests/qnaTests';
import {
  MAX_RUNS,
  emptyHistory,
  passRate,
  recordRun,
  restoreHistory,
  type HistoryState,
} from '../../../src/features/knowledgeTests/testHistory';
import { citationsMarkdown, failureMessages, outputText } from '../../../src/features/knowledgeTests/testMessages';
import type { QaElement } from '../../../src/features/qna/qnaTreeModel';
import { qaRowsOf, type QaRowElement } from '../../../src/platform/tree/qaRowElement';

const A = 'tests/hr.kdtest.yaml::Paid leave';
const B = 'tests/hr.kdtest.yaml::VPN';
const C = 'tests/other.kdtest.yaml::Hours';
const time = (ms: number): string => `t${ms}`;

describe('Knowledge tests in VS Code: history', () => {
  it('records the last outcome, the last pass → fail flip and its run, per file pass rates', () => {
    let h = emptyHistory();
    h = recordRun(h, { time: 100, results: { [A]: { status: 'passed' }, [B]: { status: 'passed' }, [C]: { status: 'failed' } } });
    h = recordRun(h, { time: 200, results: { [A]: { status: 'failed', message: 'contains: no' }, [B]: { status: 'passed' } } });
    h = recordRun(h, { time: 300, results: { [A]: { status: 'failed' }, [C]: { status: 'passed' } } });
    assert.deepEqual(h.flips[A], { seq: 2, time: 200 }, 'A flipped in run 2 and stays failing in run 3');
    assert.equal(h.flips[C], undefined, 'C went fail → pass: not a flip');
    assert.equal(h.last[A].seq, 3);
    assert.deepEqual(passRate(h, 'tests/hr.kdtest.yaml'), { passed: 3, total: 5, runs: 3 });
    assert.deepEqual(passRate(h, 'tests/other.kdtest.yaml'), { passed: 1, total: 2, runs: 2 });
    assert.equal(testDescription(h, A, time), 'failing since run 2 (t200)');
    assert.equal(testDescription(h, B, time), 'passed in run 2');
    assert.equal(fileDescription(h, 'tests/hr.kdtest.yaml'), '60% passed over 3 runs');
    const md = historyMarkdown(h, time);
    assert.match(md, /## tests\/hr\.kdtest\.yaml/);
    assert.match(md, /\| Paid leave \| failed, run 3 \(t300\) \| run 2 \(t200\) \|/);
    assert.match(md, /Pass rate: 60% \(3 of 5 results over 3 runs\)/);
  });

  it('keeps only the last runs, survives a store round trip, and starts over on a foreign shape', () => {
    let h: HistoryState = emptyHistory();
    for (let i = 0; i < MAX_RUNS + 5; i++) h = recordRun(h, { time: i, results: { [A]: { status: i % 2 ? 'passed' : 'failed' } } });
    assert.equal(h.runs.length, MAX_RUNS);
    assert.equal(h.runs[0].seq, 6);
    const back = restoreHistory(JSON.parse(JSON.stringify(h)));
    assert.deepEqual(back, h);
    assert.deepEqual(restoreHistory({ version: 7 }), emptyHistory());
    assert.deepEqual(restoreHistory(undefined), emptyHistory());
    assert.equal(recordRun(h, { time: 1, results: {} }), h, 'a run where nothing ran is not recorded');
  });
});

function outcomeOf(yaml: string, observed: TestOutcome['observed']): TestOutcome {
  const { tests } = parseTestYaml(yaml);
  const test = tests[0];
  const assertions = test.assert.map((a) => evaluate(a, observed!));
  return { file: 'x', test, status: assertions.every((a) => a.passed) ? 'passed' : 'failed', durationMs: 5, assertions, observed };
}

describe('Knowledge tests in VS Code: messages and output', () => {
  const yaml = 'tests:\n  - question: Paid leave?\n    assert:\n      - contains: 20 days\n      - cites: employee-handbook.pdf\n';
  const observed = {
    mode: 'answer' as const,
    text: 'New employees get 15 days.\nAfter a year, 20 days? No.',
    confidence: 0.8,
    citations: [{ title: 'employee-handbook.pdf', pageNo: 1, knowledgeBaseId: 'doc-1' }],
  };

  it('a failing assertion is a message at its own line with expected and actual for the diff', () => {
    const failing = outcomeOf(yaml.replace('20 days', '30 days'), observed);
    assert.equal(failing.status, 'failed');
    assert.deepEqual(failureMessages(failing), [
      {
        message: 'contains: The answer does not contain "30 days".',
        expected: 'contains "30 days"',
        actual: observed.text,
        line: 4,
      },
    ]);
    const errored: TestOutcome = { ...failing, status: 'errored', assertions: [], observed: undefined, error: 'HTTP 503' };
    assert.deepEqual(failureMessages(errored), [{ message: 'The request failed: HTTP 503', line: 2 }]);
  });

  it('the output has CRLF line endings, the answer, the confidence and each citation with its link', () => {
    const out = outputText(outcomeOf(yaml, observed), (c) => `kd://doc/${c.knowledgeBaseId}?page=${c.pageNo}`);
    assert.ok(!/[^\r]\n/.test(out), 'every line ends in CRLF');
    assert.match(out, /^✓ Paid leave\?\r\n/);
    assert.match(out, /\r\n {4}New employees get 15 days\.\r\n {4}After a year/);
    assert.match(out, /Confidence: 0\.80/);
    assert.match(out, /\[1\] employee-handbook\.pdf p\.1 {2}kd:\/\/doc\/doc-1\?page=1/);
    const md = citationsMarkdown(outcomeOf(yaml, observed), (c) => `command:open?${encodeURIComponent(JSON.stringify([{ citation: c }]))}`);
    assert.match(md ?? '', /1\. \[employee-handbook\.pdf p\.1\]\(command:open\?%5B%7B%22citation/);
  });
});

describe('Knowledge tests in VS Code: Generate Tests from Q&As', () => {
  it('asks each question and its similar questions as a Q&A search asserting matchesQna; the file parses cleanly', () => {
    const yaml = qnaTestsYaml(
      [
        {
          id: 'q1',
          question: 'How do I reset my password?',
          similarQuestions: ['I forgot my password', 'How do I reset my password?', ''],
        },
        { id: 'q2', question: 'Where is the office: Tokyo?', similarQuestions: ['x'.repeat(2001)] },
      ],
      'Generated.',
    );
    const parsed = parseTestYaml(yaml);
    assert.deepEqual(parsed.diagnostics, []);
    assert.deepEqual(
      parsed.tests.map((t) => [t.question, t.mode, t.assert.map((a) => a.assertion)]),
      [
        ['How do I reset my password?', 'qna', [{ matchesQna: 'How do I reset my password?' }]],
        ['I forgot my password', 'qna', [{ matchesQna: 'How do I reset my password?' }]],
        ['Where is the office: Tokyo?', 'qna', [{ matchesQna: 'Where is the office: Tokyo?' }]],
      ],
    );
    const taken = new Set(['qna-2026-11-27.kdtest.yaml']);
    assert.equal(
      generatedFileName(new Date('2026-11-27T10:00:00Z'), (n) => taken.has(n)),
      'qna-2026-11-27-2.kdtest.yaml',
    );
  });

  it('reads the Q&A tree rows a command receives: the selection, else the row clicked; other rows are ignored', () => {
    const row = (id: string): QaRowElement => ({ kind: 'qa', item: { id, question: `Q ${id}` } });
    // The Q&A tree's rows have the shared shape (a compile-time check).
    const treeRow: QaRowElement = {} as QaElement;
    void treeRow;
    assert.deepEqual(qaRowsOf(row('1'), [row('1'), { kind: 'group' }, row('2'), row('1')]), [
      { id: '1', question: 'Q 1' },
      { id: '2', question: 'Q 2' },
    ]);
    assert.deepEqual(qaRowsOf(row('3'), undefined), [{ id: '3', question: 'Q 3' }]);
    assert.deepEqual(qaRowsOf({ kind: 'node' }, undefined), []);
  });
});
