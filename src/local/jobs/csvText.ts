// CSV written by the local service's jobs: RFC 4180 (CRLF line ends; a cell holding a comma, a double
// quote or a line break is quoted, inner quotes doubled), UTF-8 without BOM so the header is exactly the
// column names. Cells are the service's text unchanged: the extension escapes spreadsheet formulas when
// it writes a result to disk (docs/api.md#upload-a-qa-file), and answers must stay verbatim quotes.

const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number): string {
  const s = typeof value === 'number' ? String(value) : value;
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvText(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) lines.push(row.map(csvCell).join(','));
  return lines.join('\r\n') + '\r\n';
}
