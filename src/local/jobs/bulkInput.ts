// The CSV of a bulk-processing run (columns question, model, search_type; docs/api.md#bulk-processing). A header row is
// required; names are matched case-insensitively (質問 also names the question column); only `question` is
// required, `model` and `search_type` are optional per row. UTF-8 (with or without BOM) or Shift_JIS; comma
// or tab separated. Every problem is a 400 on the `file` field saying what is wrong.
import { parse } from 'csv-parse/sync';
import { decodeText } from '../extract/text';
import { badRequest, HttpError } from '../http/errors';

export const MAX_BULK_ROWS = 10_000;
export const MAX_BULK_BYTES = 20 * 1024 * 1024;
/** Columns the result adds; an input column of the same name is replaced. */
export const RESULT_COLUMNS = ['answer', 'confidence', 'sources'] as const;

export interface BulkRow {
  question: string;
  model: string;
  searchType: string;
  /** The row's cells under the kept input columns. */
  cells: string[];
}

export interface BulkInput {
  /** Input columns kept in the result, in their order and spelling. */
  columns: string[];
  rows: BulkRow[];
}

const fileError = (message: string): HttpError => badRequest(`file: ${message}`, 'file');

export function parseBulkCsv(bytes: Uint8Array): BulkInput {
  const text = bytes.length ? decodeText(bytes) : '';
  if (!text.trim()) throw fileError('the CSV file is empty; it needs a header row with a "question" column and one question per row');
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  let records: string[][];
  try {
    records = parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (error) {
    throw fileError(`the CSV cannot be read: ${(error as Error).message}`);
  }
  const header = (records[0] ?? []).map((h) => h.trim());
  const find = (...names: string[]): number => header.findIndex((h) => names.includes(h.toLowerCase()));
  const q = find('question', '質問');
  if (q < 0) {
    const found =
      header
        .filter(Boolean)
        .map((h) => JSON.stringify(h.slice(0, 40)))
        .slice(0, 10)
        .join(', ') || 'nothing';
    throw fileError(
      `the CSV has no "question" column: the first row must be a header naming the columns question, model, search_type (found ${found})`,
    );
  }
  const m = find('model', 'モデル');
  const s = find('search_type', 'searchtype');
  const keep = header.map((h, i) => ({ h, i })).filter(({ h }) => !(RESULT_COLUMNS as readonly string[]).includes(h.toLowerCase()));
  const rows: BulkRow[] = [];
  for (const record of records.slice(1)) {
    if (record.every((c) => !c.trim())) continue;
    const cell = (i: number): string => (i >= 0 ? (record[i] ?? '').trim() : '');
    rows.push({ question: cell(q), model: cell(m), searchType: cell(s), cells: keep.map(({ i }) => record[i] ?? '') });
  }
  if (!rows.length) throw fileError('the CSV has a header but no rows of questions');
  if (rows.length > MAX_BULK_ROWS) throw fileError(`the CSV has ${rows.length} rows; at most ${MAX_BULK_ROWS} are accepted in one run`);
  return { columns: keep.map(({ h }) => h), rows };
}
