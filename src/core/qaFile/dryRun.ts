// The extension's dry run: what importing a Q&A file would do, without importing anything.
import type { QaLimits } from './limits';
import { collectQaFile } from './readQaFile';
import { normalizeQuestion } from './text';
import type { ColumnMapping, QaFileEncoding, QaRow, RowProblem } from './types';

export { normalizeQuestion };

export interface DryRunResult {
  /** Rows that can be imported (no error; warnings allowed). */
  rows: QaRow[];
  problems: RowProblem[];
  summary: {
    /** Data records in the file (header and blank lines excluded; a record the parser could not read counts once). */
    total: number;
    /** rows.length; total − valid records cannot be imported. */
    valid: number;
    /** Problems of severity error (a row can have several; file-level errors count too). */
    errors: number;
    /** Problems of severity warning. */
    warnings: number;
    /** Valid rows whose question is new / already exists (registering it updates that Q&A). */
    willCreate: number;
    willUpdate: number;
    /** Rows rejected because an earlier row has the same question. */
    duplicates: number;
  };
}

export async function dryRunQaFile(
  path: string,
  fileName: string,
  options: { existingQuestions: ReadonlySet<string>; mapping?: ColumnMapping; signal?: AbortSignal; limits?: QaLimits },
): Promise<DryRunResult & { mapping: ColumnMapping; headers: string[]; encoding: QaFileEncoding; delimiter?: ',' | '\t' }> {
  const read = await collectQaFile(path, fileName, {
    mapping: options.mapping,
    signal: options.signal,
    limits: options.limits,
    existing: options.existingQuestions,
  });
  let errors = 0;
  for (const p of read.problems) if (p.severity === 'error') errors++;
  return {
    rows: read.rows,
    problems: read.problems,
    summary: {
      total: read.total,
      valid: read.rows.length,
      errors,
      warnings: read.problems.length - errors,
      willCreate: read.rows.length - read.willUpdate,
      willUpdate: read.willUpdate,
      duplicates: read.duplicates,
    },
    mapping: read.mapping,
    headers: read.headers,
    encoding: read.encoding,
    ...(read.delimiter ? { delimiter: read.delimiter } : {}),
  };
}
