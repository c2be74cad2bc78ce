// Receives the records of a Q&A file in order: the first non-blank one is the header, the others
// go to the row validator. Shared by the CSV/TSV and XLSX readers. Problems' texts through @vscode/l10n
// (see rowValidator.ts).
import * as l10n from '@vscode/l10n';
import { columnLetter, detectMapping, expectedColumnsText, headerKey, QA_FIELDS, REQUIRED_FIELDS } from './columns';
import type { QaLimits } from './limits';
import { RowValidator } from './rowValidator';
import type { ColumnMapping, QaField, RowProblem } from './types';

export interface CollectOptions {
  mapping?: ColumnMapping;
  limits: QaLimits;
  /** Normalised questions that already exist (dry run): matching rows get an `exists` warning. */
  existing?: ReadonlySet<string>;
}

/** A CSV record the parser could not read; reading resumed on `resumedAt` (undefined: nothing left). */
export interface BrokenRecord {
  row: number;
  line?: number;
  kind: 'unclosed-quote' | 'bad-quote' | 'record-too-large';
  columnIndex?: number;
  resumedAt?: number;
  maxBytes?: number;
}

export class QaCollector {
  readonly problems: RowProblem[] = [];
  headers: string[] = [];
  mapping: ColumnMapping = {};
  validator?: RowValidator;
  /** True once the header is unusable: readers stop early. */
  stopped = false;
  private broken = 0;

  constructor(private readonly options: CollectOptions) {}

  /** Data records: rows read plus records the parser could not read. */
  get total(): number {
    return (this.validator?.records ?? 0) + this.broken;
  }

  record(cells: string[], row: number): void {
    if (this.stopped || isBlank(cells)) return;
    if (this.validator) this.validator.add(cells, row);
    else this.header(cells, row);
  }

  brokenRecord(b: BrokenRecord): void {
    if (this.stopped) return;
    if (this.validator) this.broken++;
    const field = b.columnIndex === undefined ? undefined : fieldAt(this.mapping, b.columnIndex);
    const header = b.columnIndex === undefined ? undefined : this.headers[b.columnIndex];
    const cell =
      b.columnIndex === undefined
        ? l10n.t('a cell')
        : header
          ? l10n.t('the "{0}" cell', header)
          : l10n.t('the column {0} cell', columnLetter(b.columnIndex));
    const elsewhere = b.line !== undefined && b.line !== b.row;
    const resumed =
      b.resumedAt === undefined ? l10n.t('The row is skipped.') : l10n.t('The row is skipped; reading resumed on line {0}.', b.resumedAt);
    let message: string;
    if (b.kind === 'unclosed-quote') {
      message = elsewhere
        ? l10n.t(
            'A double quote (") opening {0} on line {1} is never closed, so the rest of the file would be read as one cell. {2}',
            cell,
            b.line!,
            resumed,
          )
        : l10n.t('A double quote (") opening {0} is never closed, so the rest of the file would be read as one cell. {1}', cell, resumed);
    } else if (b.kind === 'record-too-large') {
      message = l10n.t(
        'The record is over {0} MB, usually because a double quote (") is never closed. {1}',
        Math.round((b.maxBytes ?? 0) / 1048576),
        resumed,
      );
    } else if (elsewhere) {
      message = l10n.t(
        '{0}, quoted from line {1}, runs on to line {2}, where a double quote (") is misplaced: check for a missing closing quote on line {1} or a quote not written twice ("") inside the cell. {3}',
        cap(cell),
        b.row,
        b.line!,
        resumed,
      );
    } else {
      message = l10n.t(
        'Misplaced double quote (") in {0}: wrap a cell containing quotes in double quotes and write each quote inside it twice (""). {1}',
        cell,
        resumed,
      );
    }
    this.problems.push({
      row: b.row,
      ...(b.line !== undefined && b.line !== b.row ? { line: b.line } : {}),
      ...(field ? { column: field } : {}),
      severity: 'error',
      code: b.kind,
      message,
    });
  }

  fileProblem(code: string, message: string, severity: 'error' | 'warning' = 'error', row = 1): void {
    this.problems.push({ row, severity, code, message });
    if (severity === 'error') this.stopped = true;
  }

  /** After the last record: an empty file or a header without rows is said so. */
  finish(): void {
    if (this.stopped) return;
    if (!this.validator)
      this.fileProblem('empty-file', l10n.t('The file has no header row. Expected columns: {0}.', expectedColumnsText()));
    else if (this.total === 0)
      this.problems.push({ row: 1, severity: 'warning', code: 'no-rows', message: l10n.t('The file has a header but no Q&A rows.') });
  }

  private header(cells: string[], row: number): void {
    this.headers = cells.map((c, i) => (i === 0 ? c.replace(/^\uFEFF/, '') : c).trim());
    const detected = detectMapping(this.headers);
    const explicit = this.options.mapping;
    const mapping = explicit ? sanitize(explicit) : detected.mapping;
    this.mapping = mapping;
    const missing = REQUIRED_FIELDS.filter((f) => mapping[f] === undefined);
    if (missing.length) {
      const found = this.headers
        .filter(Boolean)
        .slice(0, 8)
        .map((h) => `"${h}"`)
        .join(', ');
      if (!explicit && QA_FIELDS.every((f) => mapping[f] === undefined)) {
        this.fileProblem(
          'missing-header',
          l10n.t(
            'Row {0} should be the header but no column is named question (質問) or answer (回答). Expected columns: {1}. Row {0} reads: {2}. No rows were read.',
            row,
            expectedColumnsText(),
            found || l10n.t('(empty cells)'),
          ),
          'error',
          row,
        );
      } else {
        this.fileProblem(
          'missing-column',
          missing.length === 2
            ? l10n.t(
                'No question or answer column (question / 質問; answer / 回答). Expected columns: {0}. No rows were read.',
                expectedColumnsText(),
              )
            : missing[0] === 'question'
              ? l10n.t('No question column (question / 質問). Expected columns: {0}. No rows were read.', expectedColumnsText())
              : l10n.t('No answer column (answer / 回答). Expected columns: {0}. No rows were read.', expectedColumnsText()),
          'error',
          row,
        );
      }
      return;
    }
    if (!explicit) this.unknownColumns(row);
    const width = Math.max(this.headers.length, ...Object.values(mapping).map((i) => i + 1));
    this.validator = new RowValidator(mapping, width, this.options.limits, this.problems, this.options.existing);
  }

  private unknownColumns(row: number): void {
    this.headers.forEach((h, i) => {
      if (!h || fieldAt(this.mapping, i)) return;
      const key = headerKey(h);
      const first = this.headers.findIndex((other) => headerKey(other) === key);
      const repeat = first < i && fieldAt(this.mapping, first);
      const message = repeat
        ? l10n.t('Column {0} "{1}" repeats column {2} and is ignored.', columnLetter(i), h, columnLetter(first))
        : l10n.t('Column {0} "{1}" is not a Q&A column and is ignored. Expected columns: {2}.', columnLetter(i), h, expectedColumnsText());
      this.problems.push({ row, severity: 'warning', code: 'unknown-column', message });
    });
  }
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fieldAt(mapping: ColumnMapping, index: number): QaField | undefined {
  return QA_FIELDS.find((f) => mapping[f] === index);
}

function sanitize(mapping: ColumnMapping): ColumnMapping {
  const out: ColumnMapping = {};
  for (const f of QA_FIELDS) {
    const i = mapping[f];
    if (i !== undefined && Number.isInteger(i) && i >= 0) out[f] = i;
  }
  return out;
}

function isBlank(cells: string[]): boolean {
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (c.length !== 0 && (c.charCodeAt(0) > 32 || c.trim().length !== 0)) return false;
  }
  return true;
}
