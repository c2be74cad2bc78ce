// Q&A CSV written by the extension: the import's columns, Excel-friendly, CSV-injection escaped.

const NEEDS_QUOTES = /[",\r\n]/;
const QUOTES = /"/g;

/**
 * One CSV cell. A cell starting with `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'`
 * so spreadsheets show it as text instead of running it as a formula (readQaFile removes that `'`
 * again); a cell containing a comma, a double quote or a line break is quoted, inner quotes doubled.
 */
export function escapeCsvCell(value: string): string {
  const c = value.charCodeAt(0);
  const safe = c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13 ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(QUOTES, '""')}"` : safe;
}

export const QA_CSV_HEADER = ['question', 'answer', 'similar_questions', 'hashtags', 'status', 'folder'] as const;

/**
 * Q&As as CSV text: English header row, CRLF line ends, a UTF-8 BOM first so Excel opens Japanese
 * correctly (write the string as UTF-8). Similar questions one per line in their cell, hashtags
 * comma separated. readQaFile reads it back to the same rows (a similar question containing `|` is
 * split there, as the column layout defines `|` as a separator).
 */
export function qaCsv(
  rows: Array<{
    question: string;
    answer: string;
    similarQuestions?: string[];
    hashtags?: string[];
    status?: 'on' | 'off';
    folder?: string;
  }>,
): string {
  const lines = [QA_CSV_HEADER.join(',')];
  for (const r of rows) {
    lines.push(
      [r.question, r.answer, (r.similarQuestions ?? []).join('\n'), (r.hashtags ?? []).join(', '), r.status ?? 'on', r.folder ?? '']
        .map(escapeCsvCell)
        .join(','),
    );
  }
  return '\uFEFF' + lines.join('\r\n') + '\r\n';
}
