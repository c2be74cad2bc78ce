// The text of one Excel cell, shared by the Q&A file reader (core/qaFile/xlsxReader.ts) and the local
// service's text extraction (local/extract/xlsx.ts), so that a workbook reads the same in both.
import type ExcelJS from 'exceljs';

/**
 * Formulas → their result, rich text → plain text, numbers as Excel shows them, dates as ISO dates with the
 * time when there is one. Line breaks inside a cell are kept: they are content (a multi-line Q&A answer);
 * a caller laying cells out on one line flattens them itself.
 */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  // 15 significant digits is what Excel shows; it hides binary noise such as 0.30000000000000004.
  if (typeof value === 'number') return String(Number(value.toPrecision(15)));
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return isoDate(value);
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return cellText((value.result ?? null) as ExcelJS.CellValue);
  if ('hyperlink' in value) return cellText(value.text as ExcelJS.CellValue);
  if ('error' in value) return String(value.error);
  return '';
}

/** Excel dates carry no time zone and exceljs reads them as UTC: print the date, and the time when there is one. */
function isoDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 16).replace('T', ' ');
}
