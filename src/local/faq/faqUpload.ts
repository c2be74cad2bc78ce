// POST /webapi/upload_faq_file: a CSV, TSV or XLSX of Q&As (column layout: docs/api.md#upload-a-qa-file), or a ZIP holding
// any of these. Files are parsed by the shared reader of src/core/qaFile (the extension's CSV import uses it
// too); valid rows are registered with the rules of register_faq, rejected rows come back in notUploaded.
//
// In bounded memory (docs/local-service.md#qa-files): a file over the row limit is refused (413) before anything
// is applied; otherwise rows are streamed from the file and registered in batches of FAQ_UPLOAD_BATCH rows, one
// journal commit each (after a crash a batch is there whole or not at all), waiting for each to be durable and
// yielding to the event loop in between so other requests are answered during a long upload.
import { rm } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { countCsvRows, readQaFile, TooManyRowsError } from '../../core/qaFile/readQaFile';
import type { QaRow, RowProblem } from '../../core/qaFile/types';
import type { RequestContext } from '../http/context';
import { badRequest, HttpError } from '../http/errors';
import { DecodeBudget, DEFAULT_MAX_RATIO } from '../extract/decodeLimits';
import { checkOfficeParts } from '../extract/officeParts';
import { ExtractionError } from '../extract/types';
import { readZipToTemp, ZipImportError } from '../kb/zipImport';
import { registerSchema } from './faqSchemas';
import { fileRowFields } from './fileRowFields';
import type { FaqService } from './faqService';
import type { FaqFields } from './faqWrites';

type Kind = 'table' | 'zip';

/** Rows per journal commit: small enough that applying one keeps other requests waiting well under 100 ms. */
export const FAQ_UPLOAD_BATCH = 250;
/** Default largest number of data rows in one file (docs/local-service.md#qa-files says why). */
export const MAX_FAQ_FILE_ROWS = 100_000;
/**
 * Default largest size an XLSX's parts (sheets, shared strings) may expand to. exceljs reads a workbook whole:
 * 28 MB of parts (100,000 short rows) took 256 MB to read; 16 MB is about 55,000 such rows (docs/local-service.md).
 */
export const MAX_FAQ_XLSX_BYTES = 16 * 1024 * 1024;

/** By extension: the reader itself tells XLSX from CSV by content, but a ZIP archive looks like an XLSX. */
function kindOf(fileName: string): Kind | undefined {
  const ext = /\.([^./\\]+)$/.exec(fileName.toLowerCase())?.[1];
  if (ext === 'zip') return 'zip';
  if (ext === 'csv' || ext === 'tsv' || ext === 'tab' || ext === 'txt' || ext === 'xlsx') return 'table';
  return undefined;
}

export interface NotUploaded {
  question: string;
  state: string;
}

export interface FaqUploadOptions {
  tempPath: () => string;
  /** Largest number of data rows per file (default MAX_FAQ_FILE_ROWS). */
  maxRows?: number;
  /** Rows per commit (default FAQ_UPLOAD_BATCH; tests use fewer). */
  batchRows?: number;
  /** Largest decompressed size of an XLSX's parts (default MAX_FAQ_XLSX_BYTES). */
  maxXlsxBytes?: number;
}

export async function uploadFaqFile(ctx: RequestContext, faq: FaqService, options: FaqUploadOptions) {
  const { tempPath } = options;
  const maxRows = options.maxRows ?? MAX_FAQ_FILE_ROWS;
  const batchRows = options.batchRows ?? FAQ_UPLOAD_BATCH;
  const { files } = await ctx.multipart({ maxFiles: 1 });
  const temps = files.map((f) => f.tempPath);
  try {
    const file = files.find((f) => f.field === 'file');
    if (!file) throw badRequest('file: a file part named "file" is required', 'file');
    const kind = kindOf(file.fileName);
    if (!kind) throw badRequest(`file: ${JSON.stringify(file.fileName)} is not a Q&A file; use CSV, TSV, XLSX or a ZIP of them`, 'file');
    const sources: Array<{ path: string; name: string }> = [];
    if (kind === 'zip') {
      const contents = await readZipToTemp(file.tempPath, { tempPath, signal: ctx.signal }).catch((error: unknown) => {
        if (error instanceof ZipImportError) throw new HttpError(error.status, `file: ${error.message}`, { field: 'file' });
        throw error;
      });
      for (const f of contents.files) temps.push(f.tempPath);
      for (const entry of contents.files) {
        const name = entry.segments.join('/');
        if (kindOf(name) === 'table') sources.push({ path: entry.tempPath, name });
      }
      if (sources.length === 0) throw badRequest('file: the ZIP archive holds no CSV, TSV or XLSX file', 'file');
    } else {
      sources.push({ path: file.tempPath, name: file.fileName });
    }

    // Every file of a ZIP is checked before any is applied: an XLSX's size before exceljs reads it, its rows once
    // read (before they are applied); a CSV's rows by a first pass.
    for (const source of sources) {
      await checkXlsxSize(source, sources.length > 1, options.maxXlsxBytes ?? MAX_FAQ_XLSX_BYTES);
      const rows = await countCsvRows(source.path, source.name, ctx.signal);
      if (rows !== undefined && rows > maxRows) throw tooManyRows(sources.length > 1 ? source.name : undefined, rows, maxRows);
    }
    const notUploaded: NotUploaded[] = [];
    let uploaded = 0;
    for (const source of sources) {
      // Inside a ZIP of several files, say which file a rejected row came from.
      const prefix = sources.length > 1 ? `${source.name}: ` : '';
      const onRows = async (read: QaRow[]): Promise<void> => {
        for (let i = 0; i < read.length; i += batchRows) {
          const batch: FaqFields[] = [];
          for (const row of read.slice(i, i + batchRows)) {
            // The reader validates with the same limits; this keeps register's exact rules (hashtag #, repeats),
            // without zod for a valid row (fileRowFields.ts says why).
            const fields = fileRowFields(row);
            if (fields) {
              batch.push(fields);
              continue;
            }
            const parsed = registerSchema.safeParse({ ...row, memo: row.memo ?? null, folder: row.folder ?? null });
            if (parsed.success) batch.push(parsed.data);
            else notUploaded.push({ question: row.question, state: `${prefix}Row ${row.row}: ${describeIssue(parsed.error.issues[0])}` });
          }
          if (batch.length > 0) await faq.registerBatch(batch, ctx.identity);
          uploaded += batch.length;
          await yieldToEventLoop();
        }
      };
      const read = await readQaFile(source.path, source.name, { signal: ctx.signal, maxRows, onRows }).catch((error: unknown) => {
        if (error instanceof TooManyRowsError) throw tooManyRows(sources.length > 1 ? source.name : undefined, error.rows, error.maxRows);
        throw error;
      });
      for (const r of rejectedRows(read.problems)) notUploaded.push({ question: r.question, state: prefix + r.state });
    }
    if (uploaded === 0 && notUploaded.length === 0) notUploaded.push({ question: '', state: 'The file holds no Q&A rows.' });
    const result = notUploaded.length === 0 ? 'success' : uploaded > 0 ? 'partial' : 'failed';
    return { result, notUploaded };
  } finally {
    await Promise.all(temps.map((p) => rm(p, { force: true })));
  }
}

/**
 * Counts what an XLSX's parts inflate to, streamed and dropped (the check documents get, officeParts.ts), and
 * refuses one past `maxBytes` or the ratio rule of ZIP imports. A file that is not a ZIP passes untouched.
 */
async function checkXlsxSize(source: { path: string; name: string }, named: boolean, maxBytes: number): Promise<void> {
  const budget = new DecodeBudget({ maxDecodedBytes: maxBytes, maxRatio: DEFAULT_MAX_RATIO }, 'Excel workbook');
  await checkOfficeParts(source.path, budget).catch((error: unknown) => {
    if (!(error instanceof ExtractionError)) throw error;
    const which = named ? `${JSON.stringify(source.name)}: ` : '';
    // Its message says the cap (or the ratio) and to split the file; a CSV is the way around the cap.
    throw new HttpError(413, `file: ${which}${error.message} A CSV of the same rows is read in bounded memory.`, { field: 'file' });
  });
}

function tooManyRows(name: string | undefined, rows: number, maxRows: number): HttpError {
  const which = name ? `${JSON.stringify(name)} has` : 'the file has';
  const message = `file: ${which} ${rows} rows; at most ${maxRows} rows are accepted per file. Split it and upload the parts.`;
  return new HttpError(413, message, { field: 'file' });
}

/** One entry per row with an error-severity problem (its messages joined); warnings do not reject a row. */
function rejectedRows(problems: RowProblem[]): NotUploaded[] {
  const byRow = new Map<number, NotUploaded>();
  for (const p of problems) {
    if (p.severity !== 'error') continue;
    const entry = byRow.get(p.row);
    if (entry) {
      entry.state += ` ${p.message}`;
      if (!entry.question && p.question) entry.question = p.question;
    } else {
      // Parse errors carry no question: the row number is what lets a person find the line.
      byRow.set(p.row, { question: p.question ?? '', state: `Row ${p.row}: ${p.message}` });
    }
  }
  return [...byRow.values()];
}

function describeIssue(issue: { path: (string | number)[]; message: string }): string {
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
