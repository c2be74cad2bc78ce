import assert from 'node:assert/strict';
import { readQaFile } from '../../../../src/core/qaFile/readQaFile';
import { QA_LIMITS } from '../../../../src/core/qaFile/limits';
import { assertEveryRecordAccountedFor, fixture, useTempDir } from './helpers';

const codes = (r: { problems: Array<{ row: number; line?: number; severity: string; code: string }> }) =>
  r.problems.map((p) => [p.row, ...(p.line ? [p.line] : []), p.severity, p.code]);

describe('readQaFile: malformed files give row-numbered problems', () => {
  const tmp = useTempDir();

  it('unbalanced quotes: each broken record is reported on the line it starts on, and reading resumes on the next line', async () => {
    const r = await readQaFile(fixture('unbalanced-quotes.csv'), 'unbalanced-quotes.csv');
    assert.deepEqual(codes(r), [
      [3, 'error', 'bad-quote'], // Q2,"A2 has a "quoted" word"
      [4, 'error', 'bad-quote'], // Q3 a 5" screen,A3 (quote inside an unquoted cell)
      [6, 8, 'error', 'bad-quote'], // "Q5 stray quote… runs on until the quote of line 8
      [10, 'error', 'unclosed-quote'], // Q9,"A9 never closed
    ]);
    assert.deepEqual(
      r.rows.map((x) => [x.row, x.question]),
      [
        [2, 'Q1'],
        [5, 'Q4'],
        [7, 'Q6'],
        [8, 'Q7'],
        [9, 'Q8'],
        [11, 'Q10'],
      ],
    );
    assert.deepEqual(
      r.problems.map((p) => p.column),
      ['answer', 'question', 'question', 'answer'],
    );
    assert.match(r.problems[2].message, /quoted from line 6, runs on to line 8.*reading resumed on line 7/);
    assert.match(r.problems[3].message, /never closed.*reading resumed on line 11/);
  });

  it('ragged rows: extra non-empty cells warn, a row too short for a required column is an error, shorter rows are fine', async () => {
    const r = await readQaFile(fixture('ragged.csv'), 'ragged.csv');
    assert.deepEqual(codes(r), [
      [3, 'error', 'missing-answer'],
      [4, 'warning', 'extra-cells'],
      [6, 'error', 'missing-question'],
      [7, 'warning', 'extra-cells'],
    ]);
    assert.match(r.problems[0].message, /the row has 1 cell; the answer is in column B/);
    assert.match(r.problems[1].message, /extra cell in column D is ignored/);
    assert.match(r.problems[3].message, /column E/);
    assert.deepEqual(
      r.rows.map((x) => [x.row, x.question, x.status]),
      [
        [2, 'Q1', 'on'],
        [4, 'Q3', 'on'],
        [5, 'Q4', 'off'],
        [7, 'Q6', 'on'],
      ],
    );
  });

  it('empty and blank lines (also before the header) are skipped without problems and still counted in row numbers', async () => {
    const r = await readQaFile(fixture('empty-lines.csv'), 'empty-lines.csv');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      r.rows.map((x) => [x.row, x.question]),
      [
        [4, 'Q1'],
        [7, 'Q2'],
        [10, 'Q3'],
      ],
    );
  });

  it('a file without a header row gives one file-level error at row 1 naming the columns in English and Japanese', async () => {
    const r = await readQaFile(fixture('no-header.csv'), 'no-header.csv');
    assert.deepEqual(codes(r), [[1, 'error', 'missing-header']]);
    assert.deepEqual(r.rows, []);
    for (const name of [
      'question (質問)',
      'answer (回答)',
      'similar_questions (類似質問)',
      'hashtags (ハッシュタグ)',
      'status (ステータス)',
      'folder (フォルダ)',
      'memo (メモ)',
      'No rows were read',
    ]) {
      assert.ok(r.problems[0].message.includes(name), name);
    }
  });

  it('a header broken by a quote is reported, then the next row is taken as the header', async () => {
    const r = await readQaFile(await tmp.file('broken-header.csv', '"question,answer\nQ1,A1\n'), 'broken-header.csv');
    assert.deepEqual(codes(r), [
      [1, 'error', 'unclosed-quote'],
      [2, 'error', 'missing-header'],
    ]);
    assert.match(r.problems[1].message, /^Row 2 should be the header/);
  });

  it('a header without an answer column is a file-level error', async () => {
    const r = await readQaFile(await tmp.file('q-only.csv', 'question,memo\nQ1,m\n'), 'q-only.csv');
    assert.deepEqual(codes(r), [[1, 'error', 'missing-column']]);
    assert.match(r.problems[0].message, /No answer column \(answer \/ 回答\)/);
  });

  it('accepts a 1 MB cell, then flags it as too long; the next row is read normally', async () => {
    const big = 'a'.repeat(1024 * 1024);
    const r = await readQaFile(await tmp.file('big.csv', `question,answer\nQ1,"${big}"\nQ2,A2\n`), 'big.csv');
    assert.deepEqual(
      r.problems.map((p) => [p.row, p.code, p.column]),
      [[2, 'too-long', 'answer']],
    );
    assert.equal(r.problems[0].message, 'The answer is 1,048,576 characters long; the limit is 50,000.');
    assert.equal(r.problems[0].question, 'Q1');
    assert.deepEqual(
      r.rows.map((x) => x.row),
      [3],
    );
    assertEveryRecordAccountedFor(r, [2, 3]);
  });

  it('duplicates: the later row is an error naming the first one (case, spacing and full-width forms ignored)', async () => {
    const r = await readQaFile(fixture('duplicates.csv'), 'duplicates.csv');
    assert.deepEqual(codes(r), [
      [4, 'error', 'duplicate-in-file'],
      [5, 'error', 'duplicate-in-file'],
      [6, 'error', 'duplicate-in-file'],
      [7, 'error', 'missing-answer'],
    ]);
    assert.deepEqual(
      r.problems.slice(0, 3).map((p) => p.message),
      [
        'Same question as row 2; only row 2 is imported.',
        'Same question as row 2; only row 2 is imported.',
        'Same question as row 3; only row 3 is imported.',
      ],
    );
    // Row 7 cannot be imported, so row 8 with the same question is the first valid one.
    assert.deepEqual(
      r.rows.map((x) => [x.row, x.answer]),
      [
        [2, 'A1'],
        [3, 'A2'],
        [8, 'A7'],
      ],
    );
  });

  it('status: on/off, true/false, 1/0, 有効/無効, オン/オフ (any case, full width); anything else is invalid', async () => {
    const r = await readQaFile(fixture('invalid-status.csv'), 'invalid-status.csv');
    assert.deepEqual(codes(r), [
      [8, 'error', 'invalid-status'],
      [11, 'error', 'invalid-status'],
    ]);
    assert.match(r.problems[1].message, /Status "yes" is not valid: use on or off \(also true\/false, 1\/0, 有効\/無効, オン\/オフ\)/);
    assert.deepEqual(
      r.rows.map((x) => x.status),
      ['on', 'off', 'on', 'off', 'on', 'off', 'on', 'on'],
    );
  });

  it('too-long and too-many name the field and the limit; lengths are counted in characters, not UTF-16 units', async () => {
    const limits = { question: 10, answer: 20, similarQuestion: 5, similarQuestions: 2, hashtag: 4, hashtags: 2, folder: 3, memo: 4 };
    const text = [
      'question,answer,similar_questions,hashtags,folder,memo',
      'Q1,A1,a|b,x,f,m',
      'Q that is too long,A2,,,,',
      'Q3,an answer that is far too long,,,,',
      'Q4,A4,a|b|c,,,',
      'Q5,A5,abcdefgh|ok,,,',
      'Q6,A6,,"a,b,c",,',
      'Q7,A7,,#toolong,,',
      'Q8,A8,,,folder,memo too long',
      '😀😀😀😀😀😀😀😀😀😀,A9,,,,',
    ].join('\n');
    const r = await readQaFile(await tmp.file('limits.csv', text), 'limits.csv', { limits });
    assert.deepEqual(
      r.problems.map((p) => [p.row, p.code, p.column, p.message]),
      [
        [3, 'too-long', 'question', 'The question is 18 characters long; the limit is 10.'],
        [4, 'too-long', 'answer', 'The answer is 30 characters long; the limit is 20.'],
        [5, 'too-many', 'similarQuestions', '3 similar questions; at most 2 are allowed.'],
        [6, 'too-long', 'similarQuestions', 'The 1st similar question is 8 characters long; the limit is 5.'],
        [7, 'too-many', 'hashtags', '3 hashtags; at most 2 are allowed.'],
        [8, 'too-long', 'hashtags', 'The 1st hashtag is 7 characters long; the limit is 4.'],
        [9, 'too-long', 'folder', 'The folder is 6 characters long; the limit is 3.'],
        [9, 'too-long', 'memo', 'The memo is 13 characters long; the limit is 4.'],
      ],
    );
    assert.deepEqual(
      r.rows.map((x) => x.row),
      [2, 10],
    );
    assertEveryRecordAccountedFor(r, [2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('the default limits are the service limits', () => {
    assert.deepEqual(
      { ...QA_LIMITS },
      { question: 1000, answer: 50000, similarQuestion: 1000, similarQuestions: 100, hashtag: 100, hashtags: 50, folder: 200, memo: 5000 },
    );
  });

  it('an empty file, a header without rows, UTF-16, an old .xls and a broken .xlsx are reported, not thrown', async () => {
    const empty = await readQaFile(await tmp.file('empty.csv', ''), 'empty.csv');
    assert.deepEqual(codes(empty), [[1, 'error', 'empty-file']]);
    const headerOnly = await readQaFile(await tmp.file('header.csv', 'question,answer\r\n\r\n'), 'header.csv');
    assert.deepEqual(codes(headerOnly), [[1, 'warning', 'no-rows']]);
    const utf16 = await readQaFile(await tmp.file('u16.csv', Buffer.from('\uFEFFquestion,answer\n', 'utf16le')), 'u16.csv');
    assert.deepEqual(codes(utf16), [[1, 'error', 'unsupported-encoding']]);
    const xls = await readQaFile(await tmp.file('old.xls', Buffer.from('d0cf11e0a1b11ae1000000', 'hex')), 'old.xls');
    assert.deepEqual(codes(xls), [[1, 'error', 'unsupported-format']]);
    const broken = await readQaFile(
      await tmp.file('broken.xlsx', Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(100)])),
      'broken.xlsx',
    );
    assert.deepEqual(codes(broken), [[1, 'error', 'unreadable']]);
    assert.equal(broken.encoding, 'xlsx');
  });

  it('bytes of a Shift_JIS file that are not Shift_JIS are replaced, with one warning', async () => {
    const sjis = Buffer.from('83708358838f815b8368', 'hex'); // パスワード
    const bytes = Buffer.concat([Buffer.from('question,answer\n'), sjis, Buffer.from(',A\xff\n', 'latin1')]);
    const r = await readQaFile(await tmp.file('bad.csv', bytes), 'bad.csv');
    assert.equal(r.encoding, 'shift_jis');
    assert.equal(r.rows[0]?.question, 'パスワード');
    assert.deepEqual(codes(r), [[1, 'warning', 'encoding']]);
    assert.equal(r.rows.length, 1);
  });
});
