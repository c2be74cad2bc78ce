// Excel workbooks through exceljs: one page per worksheet, rows as tab-separated cells.
import ExcelJS from 'exceljs';
import { cellText } from '../../core/xlsxCell';
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
      cells.push(cell.isMerged && cell.master !== cell ? '' : lineCell(cell.value));
    }
    while (cells.length && !cells[cells.length - 1]) cells.pop();
    if (cells.length) lines.push(cells.join('\t'));
  });
  return lines.join('\n');
}

/** A cell on a tab-separated line: its line breaks become spaces, so that one row stays one line. */
function lineCell(value: ExcelJS.CellValue): string {
  return cellText(value).replace(/\r?\n/g, ' ').trim();
}
