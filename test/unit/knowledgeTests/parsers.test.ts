import assert from 'node:assert/strict';
import { parseTestCsv } from '../../../src/core/knowledgeTests/csvTests';
import type { Diagnostic } from '../../../src/core/knowledgeTests/testSchema';
import { parseTestYaml } from '../../../src/core/knowledgeTests/yamlTests';
import { decodeTestFile, parseTestFile } from '../../../src/core/knowledgeTests/testFile';

/** "line:column message" of each diagnostic: the position is the point of these tests. */
const at = (diagnostics: Diagnostic[]): string[] => diagnostics.map((d) => `${d.start.line}:${d.start.column} ${d.message}`);

describe('Knowledge test files: YAML', () => {
  it('reads tests with their options and assertions, each at its line', () => {
    const { tests, diagnostics } = parseTestYaml(
      [
        'tests:',
        '  - question: How many days of paid leave?',
        '    sources: [document]',
        '    hashtags: [hr]',
        '    assert:',
        '      - cites: { document: employee-handbook.pdf, page: 1 }',
        '      - contains: 15 days',
        '  - name: VPN page',
        '    question: VPN server?',
        '    mode: retrieval',
        '    assert:',
        '      - retrieves: { document: vpn-setup.docx, top: 3 }',
      ].join('\n'),
    );
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(
      tests.map((t) => [t.title, t.mode, t.start.line, t.assert.map((a) => `${a.kind}@${a.start.line}`)]),
      [
        ['How many days of paid leave?', 'answer', 2, ['cites@6', 'contains@7']],
        ['VPN page', 'retrieval', 8, ['retrieves@12']],
      ],
    );
    assert.deepEqual(tests[0].assert[1].assertion, { contains: ['15 days'] });
    assert.deepEqual(tests[0].sources, ['document']);
  });

  it('reports an unknown assertion, an empty question and a 2,001-character question at their positions; the good test still runs', () => {
    const long = 'あ'.repeat(2_001);
    const { tests, diagnostics } = parseTestYaml(
      [
        'tests:',
        '  - question: ""',
        '    assert:',
        '      - contains: x',
        '  - question: fine',
        '    assert:',
        '      - citez: handbook.pdf',
        `  - question: ${long}`,
        '    assert:',
        '      - contains: x',
        '  - question: still runs',
        '    assert:',
        '      - contains: y',
      ].join('\n'),
    );
    assert.deepEqual(at(diagnostics), [
      '2:15 question: the question is empty',
      '7:9 Unknown assertion "citez" (known: cites, contains, containsAny, notContains, matchesQna, noAnswer, minConfidence, retrieves).',
      '8:15 question: the question has 2001 characters; the service accepts at most 2000',
    ]);
    assert.deepEqual(
      tests.map((t) => t.question),
      ['still runs'],
    );
  });

  it('a YAML syntax error spoils only the test it is in', () => {
    const { tests, diagnostics } = parseTestYaml(
      [
        'tests:',
        '  - question: one',
        '    assert:',
        '      - contains: a: b',
        '  - question: two',
        '    assert:',
        '      - contains: b',
      ].join('\n'),
    );
    assert.deepEqual(at(diagnostics), ['4:19 YAML: Nested mappings are not allowed in compact mappings']);
    assert.deepEqual(
      tests.map((t) => t.question),
      ['two'],
    );
  });

  it('reports wrong values and fields at the value or key, and an assertion the mode cannot check', () => {
    const { tests, diagnostics } = parseTestYaml(
      [
        'tests:',
        '  - question: q',
        '    mode: retrieval',
        '    colour: blue',
        '    assert:',
        '      - retrieves: { document: a, top: 0 }',
        '      - minConfidence: 0.5',
        '  - question: q2',
        '    assert:',
        '      - noAnswer: false',
        '      - minConfidence: 2',
      ].join('\n'),
    );
    assert.deepEqual(at(diagnostics), [
      '4:5 Unknown field "colour".',
      '6:40 retrieves: Number must be greater than or equal to 1',
      '7:9 "minConfidence" cannot be checked in mode retrieval; it applies to mode answer or qna.',
      '10:19 noAnswer: noAnswer takes true',
      '11:24 minConfidence: Number must be less than or equal to 1',
    ]);
    assert.deepEqual(tests, []);
  });

  it('a file that is not a mapping with a tests list says so', () => {
    assert.deepEqual(at(parseTestYaml('- question: q').diagnostics), ['1:1 A knowledge test file is a mapping with a "tests" list.']);
    assert.deepEqual(at(parseTestYaml('tests: []\nextra: 1').diagnostics), [
      '2:1 Unknown field "extra" (a file has "tests" and an optional "description").',
    ]);
  });
});

describe('Knowledge test files: CSV', () => {
  it('reads one test a row, the question column named as in bulk processing input, several values one per line', () => {
    const { tests, diagnostics } = parseTestCsv(
      [
        'question,cites,contains,noAnswer,mode,retrieves,top',
        'How many days?,employee-handbook.pdf#1,"15 days',
        'paid leave",,,,',
        'VPN?,,,,retrieval,vpn-setup.docx#1,3',
        'Capital of Mongolia?,,,yes,,,',
      ].join('\r\n'),
    );
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(
      tests.map((t) => [t.question, t.start.line, t.assert.map((a) => a.assertion)]),
      [
        ['How many days?', 2, [{ cites: { document: 'employee-handbook.pdf', page: 1 } }, { contains: ['15 days', 'paid leave'] }]],
        ['VPN?', 4, [{ retrieves: { document: 'vpn-setup.docx', page: 1, top: 3 } }]],
        ['Capital of Mongolia?', 5, [{ noAnswer: true }]],
      ],
    );
    assert.deepEqual(parseTestCsv('質問,cites\n経費は?,qna:経費の締め日\n').tests[0].assert[0].assertion, {
      cites: { qna: '経費の締め日' },
    });
  });

  it('reports bad cells at their line and column; the good rows still run', () => {
    const { tests, diagnostics } = parseTestCsv(
      ['question,contains,minConfidence,colour', '"",x,,', 'ok,"a ""quoted"" word",high,', 'fine,y,0.5,'].join('\n'),
    );
    assert.deepEqual(at(diagnostics), [
      '1:33 Unknown column "colour" (known: name, question, mode, scope, sources, hashtags, hashtagsOperator, top, cites, contains, containsAny, notContains, matchesQna, noAnswer, minConfidence, retrieves).',
      '2:1 question: the question is empty',
      '3:24 minConfidence: Expected number, received string',
    ]);
    assert.deepEqual(
      tests.map((t) => t.question),
      ['fine'],
    );
  });

  it('a CSV without a question column says so at its first cell', () => {
    assert.deepEqual(at(parseTestCsv('ask,contains\nq,x\n').diagnostics), [
      '1:1 Unknown column "ask" (known: name, question, mode, scope, sources, hashtags, hashtagsOperator, top, cites, contains, containsAny, notContains, matchesQna, noAnswer, minConfidence, retrieves).',
      '1:1 The first row names the columns, one of them "question".',
    ]);
  });
});

describe('Knowledge test files: as the CLI and the Test Explorer read them', () => {
  it('decodes UTF-8 with or without a BOM, else Shift_JIS (an Excel CSV), and parses by the file name', () => {
    const sjis = Uint8Array.from([113, 117, 101, 115, 116, 105, 111, 110, 10, 142, 191, 150, 226, 10]); // "question\n質問\n"
    assert.equal(decodeTestFile(sjis), 'question\n質問\n');
    assert.equal(decodeTestFile(new TextEncoder().encode('\uFEFFquestion\n質問\n')), 'question\n質問\n');
    assert.deepEqual(
      parseTestFile('answers.CSV', 'question,contains\n質問,答\n').tests.map((t) => t.question),
      ['質問'],
    );
    assert.deepEqual(
      parseTestFile('answers.kdtest.yaml', 'tests:\n  - question: 質問\n    assert:\n      - contains: 答\n').tests.map((t) => t.question),
      ['質問'],
    );
  });
});
