// Excel workbooks through exceljs: one page per worksheet, rows as tab-separated cells.
import ExcelJS from 'exceljs';
import { DecodeBudget, decodeLimits } from './decodeLimits';
import { brokenOffice, checkOfficeContainer } from './officeFile';
import { checkOfficeParts } from './officeParts';
import { checkPageCount, throwIfAborted } from './paginate';
import { ExtractionError, type ExtractedPage, type Extraction, type ExtractOptions } from './types';

export async function extractXlsx(filePath: string, options: ExtractOptions): Promise<Extraction> {
  await checkOfficeContainer(filePath, 'XLSX');
  await checkOfficeParts(filePath, new DecodeBudget(decodeLimits(options), 'Excel workbook'));
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(filePath);
  } catch (error) {
    throw brokenOffice('XLSX', error);
  }
  if (workbook.worksheets.length === 0) throw brokenOffice('XLSX', new Error('no worksheets'));
  checkPageCount(workbook.worksheets.length, options, 'sheets');
  const pages: ExtractedPage[] = [];
  for (const sheet of workbook.worksheets) {
    throwIfAborted(options);
    pages.push({ pageNo: pages.length + 1, text: sheetText(sheet) });
  }
  if (pages.every((p) => !p.text.includes('\n'))) {
    throw new ExtractionError('empty', 'The workbook contains no cell values.');
  }
  return { kind: 'xlsx', pages };
}

function sheetText(sheet: ExcelJS.Worksheet): string {
  const lines = [sheet.name];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    for (let col = 1; col <= row.cellCount; col++) {
      const cell = row.getCell(col);
      // exceljs gives every cell of a merged range the master's value: print it once, at the master.
      cells.push(cell.isMerged && cell.master !== cell ? '' : cellText(cell.value));
    }
    while (cells.length && !cells[cells.length - 1]) cells.pop();
    if (cells.length) lines.push(cells.join('\t'));
  });
  return lines.join('\n');
}

export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.replace(/\r?\n/g, ' ').trim();
  // 15 significant digits is what Excel shows; it hides binary noise such as 0.30000000000000004.
  if (typeof value === 'number') return String(Number(value.toPrecision(15)));
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return isoDate(value);
  if ('richText' in value)
    return value.richText
      .map((r) => r.text)
      .join('')
      .replace(/\r?\n/g, ' ')
      .trim();
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
