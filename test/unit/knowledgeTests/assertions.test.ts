import assert from 'node:assert/strict';
import { evaluate, fold, type Observation } from '../../../src/core/knowledgeTests/evaluate';
import { ASSERTION_VALUES, assertionKind, type Assertion, type LocatedAssertion } from '../../../src/core/knowledgeTests/testSchema';

/** An assertion as the file reader would hand it over (values parsed by the same schema). */
function located(raw: Record<string, unknown>): LocatedAssertion {
  const [kind, value] = Object.entries(raw)[0] as [keyof typeof ASSERTION_VALUES, unknown];
  const assertion = { [kind]: ASSERTION_VALUES[kind].parse(value) } as Assertion;
  return { assertion, kind: assertionKind(assertion), start: { line: 7, column: 9 } };
}

const answer: Observation = {
  mode: 'answer',
  text: 'New employees get 15 days of paid leave. The VPN server is vpn.example.',
  confidence: 0.82,
  citations: [
    { title: 'employee-handbook.pdf', pageNo: 1, knowledgeBaseId: 'doc-1' },
    { title: 'How do I reset my password?', faqId: 'qna-7' },
  ],
};
const noAnswer: Observation = {
  mode: 'answer',
  text: 'No answer was found in the knowledge base for this question.',
  confidence: 0,
  citations: [],
};
const qna: Observation = {
  mode: 'qna',
  results: [
    { id: 'qna-7', question: 'How do I reset my password?', answer: 'Use the self-service portal.', confidence: 0.91 },
    { id: 'qna-8', question: 'Where is the Wi-Fi password?', answer: 'At the front desk.', confidence: 0.4 },
  ],
};
const retrieval: Observation = {
  mode: 'retrieval',
  pages: [
    { title: 'vpn-setup.docx', pageNo: 1, documentId: 'doc-2', text: 'Connect to vpn.example' },
    { title: 'employee-handbook.pdf', pageNo: 3, documentId: 'doc-1', text: 'Expenses' },
  ],
};

function check(raw: Record<string, unknown>, observed: Observation) {
  return evaluate(located(raw), observed);
}

describe('Knowledge test assertions', () => {
  it('fold compares ignoring case and full-width/half-width forms', () => {
    assert.equal(fold('ＶＰＮ Ｓｅｒｖｅｒ'), fold('vpn server'));
    assert.equal(fold('ｶﾀｶﾅ'), fold('カタカナ'));
    assert.equal(fold('２，０００円'), '2,000円');
  });

  it('cites: passes on a cited document (by name, id, or name and page) and fails naming what was cited', () => {
    assert.equal(check({ cites: 'employee-handbook.pdf' }, answer).passed, true);
    assert.equal(check({ cites: 'doc-1' }, answer).passed, true);
    assert.equal(check({ cites: { document: 'EMPLOYEE-HANDBOOK.PDF', page: 1 } }, answer).passed, true);
    assert.equal(check({ cites: { qna: 'qna-7' } }, answer).passed, true);
    const fail = check({ cites: { document: 'employee-handbook.pdf', page: 2 } }, answer);
    assert.equal(fail.passed, false);
    assert.equal(fail.message, 'The answer does not cite employee-handbook.pdf p.2.');
    assert.equal(fail.expected, 'cites employee-handbook.pdf p.2');
    assert.equal(fail.actual, 'employee-handbook.pdf p.1\nQ&A qna-7 (How do I reset my password?)');
    assert.equal(fail.line, 7);
  });

  it('contains: every text must appear, folded; the message lists the missing ones', () => {
    assert.equal(check({ contains: ['１５ DAYS', 'paid leave'] }, answer).passed, true);
    const fail = check({ contains: ['15 days', '20 days', 'sick'] }, answer);
    assert.equal(fail.passed, false);
    assert.equal(fail.message, 'The answer does not contain "20 days", "sick".');
    assert.equal(fail.actual, answer.mode === 'answer' ? answer.text : '');
  });

  it('containsAny: one text is enough; fails when none appears', () => {
    assert.equal(check({ containsAny: ['20 days', 'ＶＰＮ.EXAMPLE'] }, answer).passed, true);
    const fail = check({ containsAny: ['20 days', 'thirty'] }, answer);
    assert.equal(fail.passed, false);
    assert.equal(fail.message, 'The answer contains none of "20 days", "thirty".');
    assert.equal(fail.expected, 'contains "20 days" or "thirty"');
  });

  it('notContains: fails on a forbidden text, folded, naming it', () => {
    assert.equal(check({ notContains: 'Osaka' }, answer).passed, true);
    const fail = check({ notContains: ['Osaka', 'PAID LEAVE'] }, answer);
    assert.equal(fail.passed, false);
    assert.equal(fail.message, 'The answer contains "PAID LEAVE", which it must not.');
  });

  it('matchesQna: the top Q&A (mode qna) by id or question; a cited Q&A (mode answer)', () => {
    assert.equal(check({ matchesQna: 'qna-7' }, qna).passed, true);
    assert.equal(check({ matchesQna: 'how do i reset my password?' }, qna).passed, true);
    assert.equal(check({ matchesQna: 'qna-7' }, answer).passed, true);
    const fail = check({ matchesQna: 'qna-8' }, qna);
    assert.equal(fail.passed, false);
    assert.equal(fail.message, 'The top Q&A is not "qna-8".');
    assert.equal(fail.actual, 'How do I reset my password? (id qna-7, confidence 0.91)');
    assert.equal(check({ matchesQna: 'qna-9' }, answer).message, 'The answer does not come from the Q&A "qna-9".');
  });

  it('noAnswer: passes when the answer cites nothing (or no Q&A reaches 0.5); fails when the service answered', () => {
    assert.equal(check({ noAnswer: true }, noAnswer).passed, true);
    assert.equal(
      check({ noAnswer: true }, { mode: 'qna', results: [{ id: 'q', question: 'Wi-Fi?', answer: 'Desk.', confidence: 0.4 }] }).passed,
      true,
    );
    const fail = check({ noAnswer: true }, answer);
    assert.equal(fail.passed, false);
    assert.equal(fail.message, 'The service answered a question it must not answer (the answer cites sources).');
    const failQna = check({ noAnswer: true }, qna);
    assert.equal(failQna.message, 'A Q&A matched a question the service must not answer.');
    assert.equal(failQna.actual, 'How do I reset my password? (confidence 0.91)');
  });

  it('minConfidence: the answer or top Q&A confidence against the minimum', () => {
    assert.equal(check({ minConfidence: 0.8 }, answer).passed, true);
    assert.equal(check({ minConfidence: 0.9 }, qna).passed, true);
    const fail = check({ minConfidence: 0.5 }, noAnswer);
    assert.equal(fail.passed, false);
    assert.equal(fail.message, 'The confidence 0.00 is below 0.5.');
    assert.equal(fail.expected, 'confidence ≥ 0.5');
  });

  it('retrieves: the document (and page) within the top k pages', () => {
    assert.equal(check({ retrieves: 'vpn-setup.docx' }, retrieval).passed, true);
    assert.equal(check({ retrieves: { document: 'doc-1', page: 3 } }, retrieval).passed, true);
    const fail = check({ retrieves: { document: 'employee-handbook.pdf', page: 3, top: 1 } }, retrieval);
    assert.equal(fail.passed, false);
    assert.equal(fail.message, 'employee-handbook.pdf p.3 is not in the top 1 pages.');
    assert.equal(fail.actual, 'vpn-setup.docx p.1');
  });

  it('a passing assertion carries no message', () => {
    assert.equal(check({ contains: '15 days' }, answer).message, '');
  });
});
