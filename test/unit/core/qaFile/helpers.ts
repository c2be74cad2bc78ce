// Shared by the Q&A file tests: fixture paths, temp files, the XLSX fixture and the
// "no record vanishes" invariant.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { QaRow, RowProblem } from '../../../../src/core/qaFile/types';

export const FIXTURES = path.resolve(__dirname, '../../../fixtures/qa');

export function fixture(name: string): string {
  return path.join(FIXTURES, name);
}

/** A temp directory per suite: `const tmp = useTempDir();` then `await tmp.file('a.csv', text)`. */
export function useTempDir(): { dir: () => string; file: (name: string, content: string | Uint8Array) => Promise<string> } {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kd-qa-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    dir: () => dir,
    file: async (name, content) => {
      const file = path.join(dir, name);
      await writeFile(file, content);
      return file;
    },
  };
}

/** Problems that mean no row was read at all. */
export const FILE_LEVEL_ERRORS = new Set([
  'missing-header',
  'missing-column',
  'empty-file',
  'unreadable',
  'unsupported-format',
  'unsupported-encoding',
]);

/**
 * The invariant of every read: each record of the file (`records`: the rows where records start)
 * is either imported or has an error problem on its row, never both, and nothing else is imported.
 * A file-level error accounts for every record (its message says no rows were read).
 */
export function assertEveryRecordAccountedFor(result: { rows: QaRow[]; problems: RowProblem[] }, records: number[]): void {
  const imported = result.rows.map((r) => r.row);
  assert.equal(new Set(imported).size, imported.length, `a row was imported twice: ${imported.join(', ')}`);
  const errorRows = new Set(result.problems.filter((p) => p.severity === 'error').map((p) => p.row));
  for (const row of imported) {
    assert.ok(records.includes(row), `row ${row} is imported but no record starts there`);
    assert.ok(!errorRows.has(row), `row ${row} is imported and has an error`);
  }
  if (result.problems.some((p) => FILE_LEVEL_ERRORS.has(p.code))) {
    assert.deepEqual(imported, [], 'rows imported despite a file-level error');
    return;
  }
  const vanished = records.filter((r) => !imported.includes(r) && !errorRows.has(r));
  assert.deepEqual(vanished, [], `records neither imported nor reported: ${vanished.join(', ')}`);
}

/**
 * The XLSX fixture: a first sheet with rich text, a formula, a hyperlink, a date, a number, a boolean,
 * a blank row 4 and a row without a question; a second sheet that must be ignored.
 * Records start on rows 2, 3, 5 and 6.
 */
export async function writeXlsxFixture(file: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Q&A');
  sheet.getRow(1).values = ['Question', 'Answer', 'Similar Questions', 'Hashtags', 'Status', 'Folder', 'Memo'];
  sheet.getRow(2).values = [
    'How do I reset my password?',
    { richText: [{ text: 'Open ' }, { text: 'Settings', font: { bold: true } }, { text: ', then "Reset".' }] },
    'Forgot password\nPassword reset',
    '#account, #security',
    'on',
    'Account',
    new Date(Date.UTC(2024, 0, 31)),
  ];
  sheet.getRow(3).values = ['営業時間は？', '平日9時から18時です。\n土日祝は休みです。', null, '営業時間', false, null, null];
  sheet.getRow(5).values = [
    12345,
    { formula: 'CONCATENATE("Call ","us")', result: 'Call us' },
    null,
    { text: 'support', hyperlink: 'https://example.com/support' },
    1,
  ];
  sheet.getRow(6).values = ['', 'An answer without a question'];
  const notes = workbook.addWorksheet('Notes');
  notes.addRow(['question', 'answer']);
  notes.addRow(['from the second sheet', 'ignored']);
  await workbook.xlsx.writeFile(file);
}
