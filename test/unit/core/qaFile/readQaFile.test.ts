import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { detectMapping, readQaFile } from '../../../../src/core/qaFile/readQaFile';
import { assertEveryRecordAccountedFor, fixture, useTempDir, writeXlsxFixture } from './helpers';

describe('readQaFile: well-formed files', () => {
  const tmp = useTempDir();

  it('reads a CSV with English headers: quotes, commas, multi-line cells, similar questions, hashtags, status, folder, memo', async () => {
    const r = await readQaFile(fixture('good-en.csv'), 'good-en.csv');
    assert.equal(r.encoding, 'utf-8');
    assert.equal(r.delimiter, ',');
    assert.deepEqual(r.headers, ['question', 'answer', 'similar_questions', 'hashtags', 'status', 'folder', 'memo']);
    assert.deepEqual(r.mapping, { question: 0, answer: 1, similarQuestions: 2, hashtags: 3, status: 4, folder: 5, memo: 6 });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.rows, [
      {
        row: 2,
        question: 'How do I reset my password?',
        answer: 'Open Settings, then choose "Reset password".',
        similarQuestions: ['Forgot password', 'Password reset'],
        hashtags: ['account', 'security'],
        status: 'on',
        folder: 'Account',
        memo: 'Checked 2024',
      },
      {
        row: 3,
        question: 'What are the office hours?',
        answer: 'Weekdays 9:00-18:00.\nClosed on public holidays.',
        similarQuestions: ['When are you open?', 'Opening hours'],
        hashtags: ['hours'],
        status: 'off',
      },
      {
        row: 6,
        question: 'Can I pay by invoice?',
        answer: 'Yes.',
        similarQuestions: [],
        hashtags: ['billing', 'invoice'],
        status: 'on',
        folder: 'Billing/Payments',
      },
      {
        row: 7,
        question: 'Where is the office?',
        answer: 'Tokyo, Japan',
        similarQuestions: [],
        hashtags: [],
        status: 'on',
        statusBlank: true,
      },
    ]);
  });

  it('reads Japanese headers in UTF-8 with BOM and CRLF; CRLF inside cells becomes LF; 、 and ， separate hashtags', async () => {
    const r = await readQaFile(fixture('good-ja-bom.csv'), 'good-ja-bom.csv');
    assert.equal(r.encoding, 'utf-8-bom');
    assert.deepEqual(r.headers, ['質問', '回答', '類似質問', 'ハッシュタグ', 'ステータス', 'フォルダ', 'メモ']);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.rows, [
      {
        row: 2,
        question: 'パスワードを忘れました',
        answer: '設定画面から再設定してください。',
        similarQuestions: ['パスワード再設定', 'ログインできない'],
        hashtags: ['アカウント', 'セキュリティ'],
        status: 'on',
        folder: 'アカウント',
      },
      {
        row: 3,
        question: '営業時間は？',
        answer: '平日9時から18時です。\n土日祝は休みです。',
        similarQuestions: [],
        hashtags: ['営業時間'],
        status: 'off',
        memo: '社内向け',
      },
      {
        row: 5,
        question: '請求書払いはできますか？',
        answer: 'はい、できます。',
        similarQuestions: ['請求書', '後払い'],
        hashtags: ['請求', '支払い'],
        status: 'on',
        folder: '経理',
      },
    ]);
  });

  it('reads Shift_JIS (no BOM, not valid UTF-8)', async () => {
    const r = await readQaFile(fixture('shift-jis.csv'), 'shift-jis.csv');
    assert.equal(r.encoding, 'shift_jis');
    assert.deepEqual(r.headers, ['質問', '回答', 'ハッシュタグ', 'ステータス']);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.rows, [
      {
        row: 2,
        question: 'パスワードを忘れました',
        answer: '設定画面から再設定してください。',
        similarQuestions: [],
        hashtags: ['アカウント'],
        status: 'on',
      },
      {
        row: 3,
        question: '営業時間は？',
        answer: '平日9時から18時です。\n土日祝は休みです。',
        similarQuestions: [],
        hashtags: ['営業時間'],
        status: 'off',
      },
    ]);
  });

  it('reads TSV by extension, header names in any case', async () => {
    const r = await readQaFile(fixture('tab.tsv'), 'tab.tsv');
    assert.equal(r.delimiter, '\t');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.rows, [
      {
        row: 2,
        question: 'Is there a mobile app?',
        answer: 'Yes, for iOS and Android.',
        similarQuestions: [],
        hashtags: ['app', 'mobile'],
        status: 'on',
      },
      {
        row: 3,
        question: 'How do I contact support?',
        answer: 'Email support@example.com\nor call us.',
        similarQuestions: [],
        hashtags: ['support'],
        status: 'off',
      },
    ]);
  });

  it('sniffs tabs in a .csv header and commas in a .txt file', async () => {
    const tsvText = await readFile(fixture('tab.tsv'));
    const asCsv = await readQaFile(await tmp.file('tabs.csv', tsvText), 'tabs.csv');
    assert.equal(asCsv.delimiter, '\t');
    assert.equal(asCsv.rows.length, 2);
    const asTxt = await readQaFile(await tmp.file('qa.txt', '"question","answer","tab\there"\nQ,"A, with comma"\n'), 'qa.txt');
    assert.equal(asTxt.delimiter, ',');
    assert.deepEqual(
      asTxt.rows.map((x) => x.answer),
      ['A, with comma'],
    );
  });

  it('reads CRLF, LF and CR line ends mixed in one file, with correct rows', async () => {
    const r = await readQaFile(fixture('mixed-eol.csv'), 'mixed-eol.csv');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      r.rows.map((x) => [x.row, x.question, x.answer]),
      [
        [2, 'Q1', 'A1'],
        [3, 'Q2', 'A2 line1\nline2'],
        [5, 'Q3', 'A3'],
        [6, 'Q4', 'A4'],
      ],
    );
  });

  it('reads the first sheet of an XLSX: rich text, formula results, hyperlinks, dates, numbers, booleans; sheet row numbers', async () => {
    const file = `${tmp.dir()}/qa.xlsx`;
    await writeXlsxFixture(file);
    const r = await readQaFile(file, 'qa.xlsx');
    assert.equal(r.encoding, 'xlsx');
    assert.equal(r.delimiter, undefined);
    assert.deepEqual(r.headers, ['Question', 'Answer', 'Similar Questions', 'Hashtags', 'Status', 'Folder', 'Memo']);
    assert.deepEqual(r.rows, [
      {
        row: 2,
        question: 'How do I reset my password?',
        answer: 'Open Settings, then "Reset".',
        similarQuestions: ['Forgot password', 'Password reset'],
        hashtags: ['account', 'security'],
        status: 'on',
        folder: 'Account',
        memo: '2024-01-31',
      },
      {
        row: 3,
        question: '営業時間は？',
        answer: '平日9時から18時です。\n土日祝は休みです。',
        similarQuestions: [],
        hashtags: ['営業時間'],
        status: 'off',
      },
      { row: 5, question: '12345', answer: 'Call us', similarQuestions: [], hashtags: ['support'], status: 'on' },
    ]);
    assert.deepEqual(
      r.problems.map((p) => [p.row, p.code]),
      [[6, 'missing-question']],
    );
    assertEveryRecordAccountedFor(r, [2, 3, 5, 6]);
  });

  it('reads an XLSX date-time cell with its time, and keeps line breaks in a cell (as the document extraction does)', async () => {
    const file = `${tmp.dir()}/when.xlsx`;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Q&A');
    sheet.addRow(['Question', 'Answer', 'Memo']);
    sheet.addRow(['When is the audit?', 'Monday\nin room 4', new Date(Date.UTC(2024, 0, 2, 13, 45))]);
    await workbook.xlsx.writeFile(file);
    const r = await readQaFile(file, 'when.xlsx');
    assert.deepEqual(
      r.rows.map((x) => [x.answer, x.memo]),
      [['Monday\nin room 4', '2024-01-02 13:45']],
    );
  });

  it('removes the CSV-injection apostrophe the export adds (only before = + - @ tab CR)', async () => {
    const file = await tmp.file('inj.csv', "question,answer\n'=1+2,'-5 degrees\n'plain,'@home\n");
    const r = await readQaFile(file, 'inj.csv');
    assert.deepEqual(
      r.rows.map((x) => [x.question, x.answer]),
      [
        ['=1+2', '-5 degrees'],
        ["'plain", '@home'],
      ],
    );
  });

  it('uses an explicit mapping instead of the header names (the header is still row 1)', async () => {
    const file = await tmp.file('custom.csv', 'Q,A,Tags\nWhat?,That.,x\n');
    const detected = await readQaFile(file, 'custom.csv');
    assert.deepEqual(
      detected.problems.map((p) => [p.row, p.code]),
      [[1, 'missing-header']],
    );
    const mapped = await readQaFile(file, 'custom.csv', { mapping: { question: 0, answer: 1, hashtags: 2 } });
    assert.deepEqual(mapped.problems, []);
    assert.deepEqual(mapped.rows, [{ row: 2, question: 'What?', answer: 'That.', similarQuestions: [], hashtags: ['x'], status: 'on' }]);
    assert.deepEqual(mapped.headers, ['Q', 'A', 'Tags']);
  });

  it('warns about unrecognised and repeated columns, and ignores them', async () => {
    const file = await tmp.file('cols.csv', 'question,answer,Anser,Question\nQ1,A1,x,y\n');
    const r = await readQaFile(file, 'cols.csv');
    assert.deepEqual(
      r.problems.map((p) => [p.row, p.severity, p.code]),
      [
        [1, 'warning', 'unknown-column'],
        [1, 'warning', 'unknown-column'],
      ],
    );
    assert.match(r.problems[0].message, /Column C "Anser" is not a Q&A column/);
    assert.match(r.problems[1].message, /Column D "Question" repeats column A/);
    assert.deepEqual(
      r.rows.map((x) => [x.question, x.answer]),
      [['Q1', 'A1']],
    );
  });

  it('rejects with AbortError when aborted, and with the fs error when the file is missing', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(readQaFile(fixture('good-en.csv'), 'good-en.csv', { signal: controller.signal }), { name: 'AbortError' });
    await assert.rejects(readQaFile(fixture('nope.csv'), 'nope.csv'), { code: 'ENOENT' });
  });
});

describe('detectMapping', () => {
  it('matches English and Japanese names case-insensitively, ignoring spaces, hyphens and underscores', () => {
    assert.deepEqual(detectMapping(['\uFEFFQUESTION', ' Answer ', 'Similar Questions', 'hash-tags', 'Status', 'フォルダー', 'メモ']), {
      mapping: { question: 0, answer: 1, similarQuestions: 2, hashtags: 3, status: 4, folder: 5, memo: 6 },
      unknown: [],
      missing: [],
    });
    assert.deepEqual(detectMapping(['回答', '質問', '類似質問', 'ハッシュタグ', 'ステータス', 'フォルダ']).mapping, {
      answer: 0,
      question: 1,
      similarQuestions: 2,
      hashtags: 3,
      status: 4,
      folder: 5,
    });
  });

  it('lists unused headers (unknown names, repeats) and missing required fields', () => {
    assert.deepEqual(detectMapping(['question', 'notes', 'question', '']), {
      mapping: { question: 0 },
      unknown: ['notes', 'question'],
      missing: ['answer'],
    });
    assert.deepEqual(detectMapping([]), { mapping: {}, unknown: [], missing: ['question', 'answer'] });
  });
});
