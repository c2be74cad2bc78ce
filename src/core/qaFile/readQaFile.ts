// Reads a Q&A file (CSV, TSV or XLSX) into rows and row-numbered problems. Malformed content never
// throws: it becomes problems. Only I/O errors (missing file, no permission) and aborts reject.
import * as l10n from '@vscode/l10n';
import { open } from 'node:fs/promises';
import { QaCollector } from './collector';
import { detectMapping } from './columns';
import { readCsv } from './csvReader';
import { scanCsv } from './csvScan';
import { QA_LIMITS, type QaLimits } from './limits';
import type { ColumnMapping, QaFileEncoding, QaFileRead, QaRow } from './types';

export { detectMapping };

export interface ReadQaOptions {
  /** Use this mapping instead of the one detected from the header (the header row is still row 1). */
  mapping?: ColumnMapping;
  signal?: AbortSignal;
  limits?: QaLimits;
  /** More data rows than this: TooManyRowsError, thrown before any row reaches `onRows`. */
  maxRows?: number;
  /**
   * Streaming: valid rows are handed over as they are read (awaited, so reading waits for the consumer) instead
   * of being collected; the result's `rows` and `keys` are then empty.
   */
  onRows?: (rows: QaRow[]) => Promise<void>;
}

/** The file has more data rows than `ReadQaOptions.maxRows`. */
export class TooManyRowsError extends Error {
  constructor(
    readonly rows: number,
    readonly maxRows: number,
  ) {
    super(`The file has ${rows} rows; at most ${maxRows} are accepted per file`);
    this.name = 'TooManyRowsError';
  }
}

export async function readQaFile(path: string, fileName: string, options: ReadQaOptions = {}): Promise<QaFileRead> {
  const { rows, problems, mapping, headers, encoding, delimiter } = await collectQaFile(path, fileName, options);
  return { rows, problems, mapping, headers, encoding, ...(delimiter ? { delimiter } : {}) };
}

/** readQaFile plus what the dry run needs: each row's normalised question and the counts. */
export interface CollectedQaFile extends QaFileRead {
  keys: string[];
  total: number;
  willUpdate: number;
  duplicates: number;
}

export async function collectQaFile(
  path: string,
  fileName: string,
  options: ReadQaOptions & { existing?: ReadonlySet<string> },
): Promise<CollectedQaFile> {
  const newSink = (): QaCollector =>
    new QaCollector({ mapping: options.mapping, limits: options.limits ?? QA_LIMITS, existing: options.existing });
  const kind = await fileKind(path, fileName);
  let sink: QaCollector;
  let encoding: QaFileEncoding = 'xlsx';
  let delimiter: ',' | '\t' | undefined;
  const { maxRows, onRows } = options;
  // Hands the rows collected so far to the consumer; `keys` (parallel to rows) go with them.
  const handOver = async (): Promise<void> => {
    const v = sink.validator;
    if (!onRows || !v || v.rows.length === 0) return;
    const rows = v.rows.splice(0);
    v.keys.length = 0;
    await onRows(rows);
  };
  if (kind === 'xlsx') {
    sink = newSink();
    await loadXlsxReader()(path, sink, options.signal);
    sink.finish();
    // exceljs holds the whole workbook anyway: the limit is checked once it is read, before any row is handed over.
    const total = sink.total;
    if (maxRows !== undefined && total > maxRows) throw new TooManyRowsError(total, maxRows);
    await handOver();
  } else if (kind === 'xls') {
    sink = newSink();
    sink.fileProblem(
      'unsupported-format',
      l10n.t('Excel 97-2003 workbooks (.xls) are not supported: save the file as .xlsx or CSV UTF-8.'),
    );
  } else {
    const scan = await scanCsv(path, options.signal);
    // The header is one of the records the scan counts.
    if (maxRows !== undefined && scan.records - 1 > maxRows) throw new TooManyRowsError(scan.records - 1, maxRows);
    sink = newSink();
    const read = await readCsv(path, kind === 'tsv', scan, sink, { signal: options.signal, afterChunk: onRows && handOver });
    ({ encoding, delimiter } = read);
    await handOver();
  }
  const v = sink.validator;
  return {
    rows: v?.rows ?? [],
    keys: v?.keys ?? [],
    problems: sink.problems,
    mapping: sink.mapping,
    headers: sink.headers,
    encoding,
    ...(delimiter ? { delimiter } : {}),
    total: sink.total,
    willUpdate: v?.willUpdate ?? 0,
    duplicates: v?.duplicates ?? 0,
  };
}

/** Data rows of a CSV/TSV file as the first pass counts them (cheap, bounded memory); undefined for other files. */
export async function countCsvRows(path: string, fileName: string, signal?: AbortSignal): Promise<number | undefined> {
  const kind = await fileKind(path, fileName);
  if (kind !== 'csv' && kind !== 'tsv') return undefined;
  return Math.max(0, (await scanCsv(path, signal)).records - 1);
}

/** By content first (ZIP container → XLSX, OLE → old .xls), then by extension. */
async function fileKind(path: string, fileName: string): Promise<'xlsx' | 'xls' | 'tsv' | 'csv'> {
  const head = Buffer.alloc(8);
  const handle = await open(path, 'r');
  try {
    await handle.read(head, 0, 8, 0);
  } finally {
    await handle.close();
  }
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'xlsx';
  if (head.readUInt32BE(0) === 0xd0cf11e0 && head.readUInt32BE(4) === 0xa1b11ae1) return 'xls';
  const lower = fileName.toLowerCase();
  return lower.endsWith('.tsv') || lower.endsWith('.tab') ? 'tsv' : 'csv';
}

/**
 * exceljs and its dependencies are large: loaded on the first XLSX, not when the extension (or
 * the local service) starts. The bundles keep it in a file of its own (esbuild.mjs, dist/xlsxReader.js).
 */
function loadXlsxReader(): typeof import('./xlsxReader').readXlsx {
  // require, not import(): dist/main.js runs through a vm.Script (src/platform/codeCache.ts), where import()
  // needs a loader some hosts' Node does not offer.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on the first XLSX, not at activation
  return (require('./xlsxReader') as typeof import('./xlsxReader')).readXlsx;
}
