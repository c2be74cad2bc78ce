// XLSX Q&A files: the first sheet through exceljs; row numbers are the sheet's row numbers.
import * as l10n from '@vscode/l10n';
import ExcelJS from 'exceljs';
import { cellText } from '../xlsxCell';
import type { QaCollector } from './collector';
import { normalizeNewlines } from './text';

/** Reads the first worksheet into the collector; a file exceljs cannot open becomes a file-level problem. */
export async function readXlsx(path: string, sink: QaCollector, signal?: AbortSignal): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(path);
  } catch (error) {
    signal?.throwIfAborted();
    if (isFsError(error)) throw error;
    sink.fileProblem(
      'unreadable',
      l10n.t('The file could not be read as an Excel workbook (.xlsx): {0}', error instanceof Error ? error.message : String(error)),
    );
    return;
  }
  signal?.throwIfAborted();
  const sheet = workbook.worksheets[0];
  if (!sheet) {
    sink.fileProblem('empty-file', l10n.t('The workbook has no worksheet.'));
    return;
  }
  let seen = 0;
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (sink.stopped) return;
    if (++seen % 1000 === 0) signal?.throwIfAborted();
    const values = row.values as ExcelJS.CellValue[];
    const cells: string[] = new Array(Math.max(0, values.length - 1));
    for (let i = 1; i < values.length; i++) cells[i - 1] = normalizeNewlines(cellText(values[i]));
    sink.record(cells, rowNumber);
  });
}

function isFsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}
