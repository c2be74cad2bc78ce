// The extension's dry run: what importing a Q&A file would do, without importing anything.
import { planQaImport, updateProblem, type ExistingQa, type ImportPlan } from './importPlan';
import type { QaLimits } from './limits';
import { collectQaFile } from './readQaFile';
import { normalizeQuestion } from './text';
import type { ColumnMapping, QaFileEncoding, QaRow, RowProblem } from './types';

export { normalizeQuestion };

/** The existing Q&As of the given question keys (normalizeQuestion), as single lookups return them. */
export type ExistingLookup = (keys: string[], signal?: AbortSignal) => Promise<ReadonlyMap<string, ExistingQa>>;

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
    /** Valid rows whose question is new / already exists and the file changes it. */
    willCreate: number;
    willUpdate: number;
    /** Rows rejected because an earlier row has the same question. */
    duplicates: number;
    /** With a lookup: existing Q&As the file leaves as they are, and those it would take something from. */
    unchanged?: number;
    removals?: number;
  };
  /** With a lookup: what importing does to each row, field by field (importPlan.ts). */
  plan?: ImportPlan;
}

/**
 * The rows an import sends: the new ones and the existing ones it changes. An existing Q&A already as the file has
 * it is valid but not sent, so the import's button counts this, not `valid`.
 */
export function rowsToSend(summary: DryRunResult['summary']): number {
  return summary.willCreate + summary.willUpdate;
}

export async function dryRunQaFile(
  path: string,
  fileName: string,
  options: {
    existingQuestions: ReadonlySet<string>;
    /** Reads the existing Q&As the file names, so updates are compared field by field. */
    lookup?: ExistingLookup;
    mapping?: ColumnMapping;
    signal?: AbortSignal;
    limits?: QaLimits;
  },
): Promise<DryRunResult & { mapping: ColumnMapping; headers: string[]; encoding: QaFileEncoding; delimiter?: ',' | '\t' }> {
  const read = await collectQaFile(path, fileName, {
    mapping: options.mapping,
    signal: options.signal,
    limits: options.limits,
    existing: options.existingQuestions,
  });
  let plan: ImportPlan | undefined;
  if (options.lookup) {
    const keys = read.keys.filter((k) => options.existingQuestions.has(k));
    plan = planQaImport(read.rows, read.mapping, keys.length ? await options.lookup(keys, options.signal) : new Map());
    // Removals first: they are what the person is asked about.
    read.problems.push(...plan.update.map(updateProblem));
  }
  let errors = 0;
  for (const p of read.problems) if (p.severity === 'error') errors++;
  const willUpdate = plan ? plan.update.length : read.willUpdate;
  return {
    rows: read.rows,
    problems: read.problems,
    summary: {
      total: read.total,
      valid: read.rows.length,
      errors,
      warnings: read.problems.length - errors,
      willCreate: plan ? plan.create.length : read.rows.length - read.willUpdate,
      willUpdate,
      duplicates: read.duplicates,
      ...(plan ? { unchanged: plan.unchanged, removals: plan.removals } : {}),
    },
    ...(plan ? { plan } : {}),
    mapping: read.mapping,
    headers: read.headers,
    encoding: read.encoding,
    ...(read.delimiter ? { delimiter: read.delimiter } : {}),
  };
}
