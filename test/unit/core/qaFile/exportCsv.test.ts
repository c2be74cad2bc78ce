import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { escapeCsvCell, qaCsv } from '../../../../src/core/qaFile/exportCsv';
import { readQaFile } from '../../../../src/core/qaFile/readQaFile';
import { useTempDir } from './helpers';

/** How a spreadsheet treats a CSV cell on opening: a leading = + - @ (tab, CR) makes it a formula. */
function excelSees(cell: string): 'formula' | 'text' {
  return /^[=+\-@\t\r]/.test(cell) ? 'formula' : 'text';
}

describe('escapeCsvCell', () => {
  it('prefixes cells starting with = + - @ tab or CR with an apostrophe (CSV injection)', () => {
    assert.equal(escapeCsvCell('=1+2'), "'=1+2");
    assert.equal(escapeCsvCell('+81 3 1234'), "'+81 3 1234");
    assert.equal(escapeCsvCell('-5 degrees'), "'-5 degrees");
    assert.equal(escapeCsvCell('@SUM(A1:A9)'), "'@SUM(A1:A9)");
    assert.equal(escapeCsvCell('\tcmd'), "'\tcmd");
    assert.equal(escapeCsvCell('\rcmd'), `"'\rcmd"`);
    assert.equal(escapeCsvCell('=HYPERLINK("http://evil.example","Click")'), `"'=HYPERLINK(""http://evil.example"",""Click"")"`);
  });

  it('quotes cells with commas, quotes or line breaks and leaves others alone', () => {
    assert.equal(escapeCsvCell('plain'), 'plain');
    assert.equal(escapeCsvCell(''), '');
    assert.equal(escapeCsvCell('1-2 = 3'), '1-2 = 3');
    assert.equal(escapeCsvCell('a,b'), '"a,b"');
    assert.equal(escapeCsvCell('say "hi"'), '"say ""hi"""');
    assert.equal(escapeCsvCell('two\nlines'), '"two\nlines"');
    assert.equal(escapeCsvCell('日本語、カンマ'), '日本語、カンマ');
  });
});

describe('qaCsv', () => {
  const tmp = useTempDir();

  it('writes a BOM, English headers and CRLF line ends', () => {
    const csv = qaCsv([
      { question: 'Q1', answer: 'A, with comma', similarQuestions: ['S1', 'S2'], hashtags: ['a', 'b'], status: 'off', folder: 'F' },
      { question: '=cmd', answer: 'plain' },
    ]);
    assert.equal(
      csv,
      '\uFEFFquestion,answer,similar_questions,hashtags,status,folder\r\nQ1,"A, with comma","S1\nS2","a, b",off,F\r\n\'=cmd,plain,,,on,\r\n',
    );
  });

  it('a spreadsheet opening the export sees every cell as text', () => {
    const csv = qaCsv([
      { question: '=1+2', answer: '+cmd', similarQuestions: ['-x', '@y'], hashtags: ['=z'], folder: '\tf' },
      { question: '\rq', answer: '@SUM(1)' },
    ]);
    const cells = (parse(csv, { bom: true }) as string[][]).slice(1).flat();
    assert.deepEqual(
      cells.filter((c) => excelSees(c) === 'formula'),
      [],
    );
    assert.deepEqual(cells.slice(0, 6), ["'=1+2", "'+cmd", "'-x\n@y", "'=z", 'on', "'\tf"]);
  });

  it('round trip: qaCsv → readQaFile gives the same rows (Japanese, commas, quotes, line breaks, formula-like text)', async () => {
    const input = [
      {
        question: 'How do I reset my password?',
        answer: 'Open Settings, then choose "Reset password".\nThen sign in again.',
        similarQuestions: ['Forgot password', 'Password, reset'],
        hashtags: ['account', 'security'],
        status: 'on' as const,
        folder: 'Account',
      },
      {
        question: '営業時間は？',
        answer: '平日9時から18時です。\r\n土日祝は休みです。',
        similarQuestions: ['何時まで開いていますか', '営業日'],
        hashtags: ['営業時間'],
        status: 'off' as const,
      },
      {
        question: '=SUM(A1:A3) shows #NAME?',
        answer: '- Check the formula\n- Save again',
        similarQuestions: ['+ sign'],
        hashtags: ['excel'],
        status: 'on' as const,
        folder: '経理/請求, 2024',
      },
      {
        question: '@mention',
        answer: '"Quoted" answer, with ""double"" quotes',
        similarQuestions: [],
        hashtags: [],
        status: 'on' as const,
      },
      {
        question: "'=already quoted?",
        answer: '<p>A | B</p>',
        similarQuestions: ['A | B or C?'],
        hashtags: ['c++', 'debian network'],
        status: 'on' as const,
      },
      {
        question: 'Pipes in several similar questions',
        answer: 'x',
        similarQuestions: ['yes|no', 'left | right'],
        hashtags: [],
        status: 'on' as const,
      },
    ];
    const file = await tmp.file('export.csv', Buffer.from(qaCsv(input), 'utf8'));
    const r = await readQaFile(file, 'export.csv');
    assert.equal(r.encoding, 'utf-8-bom');
    assert.deepEqual(
      r.problems.map((p) => [p.row, p.code]),
      [[11, 'hashtag-text']],
      'only the warning about the tag with a space',
    );
    const expected = input.map((x) => ({ ...x, answer: x.answer.replace(/\r\n/g, '\n') }));
    assert.deepEqual(
      r.rows.map(({ row: _row, ...rest }) => rest),
      expected,
    );
    // Rows point at the line each record starts on: answers and similar questions span lines.
    assert.deepEqual(
      r.rows.map((x) => x.row),
      [2, 5, 8, 10, 11, 13],
    );
  });
});
