// Q&A CSV written by the extension: the import's columns, Excel-friendly, CSV-injection escaped.

/** = + - @ tab CR. */
function isFormulaStart(c: number): boolean {
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
}

const NEEDS_QUOTES = /[",\r\n]/;
const QUOTES = /"/g;

/**
 * One CSV cell. A cell starting with `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'`
 * so spreadsheets show it as text instead of running it as a formula (readQaFile removes that `'`
 * again; a cell that itself starts with `'` and one of those gets one more, so it reads back as it was); a cell containing a comma, a double quote or a line break is quoted, inner quotes doubled.
 */
export function escapeCsvCell(value: string): string {
  const c = value.charCodeAt(0);
  const safe = isFormulaStart(c) || (c === 39 && isFormulaStart(value.charCodeAt(1))) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(QUOTES, '""')}"` : safe;
}

export const QA_CSV_HEADER = ['question', 'answer', 'similar_questions', 'hashtags', 'status', 'folder'] as const;

/** One exported Q&A. */
export interface QaCsvRow {
  question: string;
  answer: string;
  similarQuestions?: string[];
  hashtags?: string[];
  status?: 'on' | 'off';
  folder?: string;
}

/**
 * One similar question per line. A lone one containing `|` ends with a line break: in a one-line cell `|`
 * separates similar questions, in a cell with line breaks it is text (text.ts, splitSimilarQuestions).
 */
function similarCell(list: readonly string[]): string {
  return list.length === 1 && list[0].includes('|') ? `${list[0]}\n` : list.join('\n');
}

/**
 * Q&As as CSV text: English header row, CRLF line ends, a UTF-8 BOM first so Excel opens Japanese
 * correctly (write the string as UTF-8). Similar questions one per line in their cell, hashtags
 * comma separated. readQaFile reads it back to the same rows, and importing it changes nothing.
 */
export function qaCsv(rows: QaCsvRow[]): string {
  const lines = [QA_CSV_HEADER.join(',')];
  for (const r of rows) {
    lines.push(
      [r.question, r.answer, similarCell(r.similarQuestions ?? []), (r.hashtags ?? []).join(', '), r.status ?? 'on', r.folder ?? '']
        .map(escapeCsvCell)
        .join(','),
    );
  }
  return '\uFEFF' + lines.join('\r\n') + '\r\n';
}
