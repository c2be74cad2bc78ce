// Parameters of the build, generate and bulk runs, and the CSV handling of results (no vscode: @vscode/l10n
// for the texts; labels are getters, so they are read in the display language when shown).
import * as l10n from '@vscode/l10n';
import type * as CsvSync from 'csv-parse/sync';
import type { BulkType, RareBuildParams, RareGenerateParams } from '../../api/resources/jobs';
import { escapeCsvCell } from '../../core/qaFile/exportCsv';

// Required on first use, not imported: the extension's bundle keeps csv-parse in a file of its own (esbuild.mjs).
function parse(text: string, options: CsvSync.Options): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on the first bulk CSV, not at activation
  return (require('csv-parse/sync') as typeof CsvSync).parse(text, options);
}

export interface NumberParam<K extends string> {
  key: K;
  label: string;
  help: string;
  default: number;
  min: number;
  max: number;
  integer: boolean;
}

type BuildNumberKey = 'similarity_threshold' | 'top_k_per_chunk' | 'max_similar_items' | 'max_workers';
type GenerateNumberKey = 'num_samples' | 'input_pool_size' | 'num_questions' | 'num_information';

/** Label and help of each number parameter, looked up when shown (the display language). */
const PARAM_TEXT: Record<BuildNumberKey | GenerateNumberKey, () => [label: string, help: string]> = {
  similarity_threshold: () => [l10n.t('Similarity threshold'), l10n.t('how alike two passages must be to be linked')],
  top_k_per_chunk: () => [l10n.t('Top k per chunk'), l10n.t('similar passages looked up for each passage')],
  max_similar_items: () => [l10n.t('Max similar items'), l10n.t('similar passages kept for each passage')],
  max_workers: () => [l10n.t('Max workers'), l10n.t('passages processed in parallel')],
  num_samples: () => [l10n.t('Number of samples'), l10n.t('question sets to generate')],
  input_pool_size: () => [l10n.t('Input pool size'), l10n.t('passages the samples are drawn from')],
  num_questions: () => [l10n.t('Questions per sample'), l10n.t('questions generated for each sample')],
  num_information: () => [l10n.t('Information items per sample'), l10n.t('passages each sample combines')],
};

function param<K extends BuildNumberKey | GenerateNumberKey>(
  key: K,
  bounds: Omit<NumberParam<K>, 'key' | 'label' | 'help'>,
): NumberParam<K> {
  return {
    key,
    ...bounds,
    get label() {
      return PARAM_TEXT[key]()[0];
    },
    get help() {
      return PARAM_TEXT[key]()[1];
    },
  };
}

// The service documents neither defaults nor bounds: these are the extension's (docs/api.md#answer-generation-jobs-rare).
export const BUILD_NUMBER_PARAMS: ReadonlyArray<NumberParam<BuildNumberKey>> = [
  param('similarity_threshold', { default: 0.3, min: 0, max: 1, integer: false }),
  param('top_k_per_chunk', { default: 5, min: 1, max: 100, integer: true }),
  param('max_similar_items', { default: 3, min: 1, max: 50, integer: true }),
  param('max_workers', { default: 2, min: 1, max: 16, integer: true }),
];

export const GENERATE_NUMBER_PARAMS: ReadonlyArray<NumberParam<GenerateNumberKey>> = [
  param('num_samples', { default: 10, min: 1, max: 1000, integer: true }),
  param('input_pool_size', { default: 50, min: 1, max: 10000, integer: true }),
  param('num_questions', { default: 3, min: 1, max: 20, integer: true }),
  param('num_information', { default: 3, min: 1, max: 20, integer: true }),
];

export const LANGUAGES = [
  {
    id: 'auto',
    get label() {
      return l10n.t('Auto');
    },
    get detail() {
      return l10n.t('The service decides from the documents (no language is sent).');
    },
  },
  {
    id: 'en',
    get label() {
      return l10n.t('English');
    },
    detail: 'en',
  },
  {
    id: 'ja',
    get label() {
      return l10n.t('Japanese');
    },
    detail: 'ja (日本語)',
  },
] as const;

export type LanguageChoice = (typeof LANGUAGES)[number]['id'];

export const BULK_TYPES: ReadonlyArray<{ id: BulkType; readonly label: string; readonly detail: string }> = [
  {
    id: 'ga',
    get label() {
      return l10n.t('Generative answer ({0})', 'ga');
    },
    get detail() {
      return l10n.t('Each question is answered by a generated answer from the knowledge base.');
    },
  },
  {
    id: 'rag',
    get label() {
      return l10n.t('Retrieval-based answering ({0})', 'rag');
    },
    get detail() {
      return l10n.t('Answers grounded in the passages retrieval finds for each question.');
    },
  },
  {
    id: 'rag_agent_v2',
    get label() {
      return l10n.t('General agent ({0})', 'rag_agent_v2');
    },
    get detail() {
      return l10n.t('The general-agent variant of rag, on the same CSV.');
    },
  },
];

export function bulkTypeLabel(type: string | null | undefined): string {
  return BULK_TYPES.find((t) => t.id === type)?.label ?? type ?? l10n.t('bulk');
}

/** "a whole number from 1 to 100" (inside a sentence), or "A whole number …" to start one. */
export function rangeText(p: NumberParam<string>, start = false): string {
  if (start) return p.integer ? l10n.t('A whole number from {0} to {1}', p.min, p.max) : l10n.t('A number from {0} to {1}', p.min, p.max);
  return p.integer ? l10n.t('a whole number from {0} to {1}', p.min, p.max) : l10n.t('a number from {0} to {1}', p.min, p.max);
}

/** undefined when `text` is valid for `p` (empty means the default). */
export function validateNumber(p: NumberParam<string>, text: string): string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t)) return l10n.t('Enter {0}.', rangeText(p));
  const n = Number(t);
  if (p.integer && !Number.isInteger(n)) return l10n.t('{0} must be a whole number ({1}–{2}).', p.label, p.min, p.max);
  if (n < p.min || n > p.max) return l10n.t('{0} must be between {1} and {2}.', p.label, p.min, p.max);
  return undefined;
}

export function parseNumber(p: NumberParam<string>, text: string): number {
  const problem = validateNumber(p, text);
  if (problem) throw new Error(problem);
  return text.trim() ? Number(text.trim()) : p.default;
}

export function defaultBuildParams(): RareBuildParams {
  return Object.fromEntries(BUILD_NUMBER_PARAMS.map((p) => [p.key, p.default])) as RareBuildParams;
}

export function defaultGenerateParams(): RareGenerateParams {
  return Object.fromEntries(GENERATE_NUMBER_PARAMS.map((p) => [p.key, p.default])) as RareGenerateParams;
}

/** The language sent to the service: none for Auto. */
export function languageParam(choice: LanguageChoice): string | undefined {
  return choice === 'auto' ? undefined : choice;
}

/** One line saying what will be sent, for the "Use defaults" item and the log. */
export function describeParams(params: object): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined && !(Array.isArray(v) && !v.length))
    .map(
      ([k, v]) =>
        `${k.replace(/_/g, ' ')} ${Array.isArray(v) ? (v.length === 1 ? l10n.t('{0} folder', v.length) : l10n.t('{0} folders', v.length)) : String(v)}`,
    )
    .join(', ');
}

export const BULK_COLUMNS = ['question', 'model', 'search_type'] as const;

/**
 * Checks the header of a bulk-processing CSV before it is sent: `question` is required, the other
 * documented columns are optional (the service has defaults; docs/api.md#bulk-processing). Returns the number of data rows.
 */
export function checkBulkCsv(text: string): { rows: number; missing: string[] } {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (error) {
    throw new Error(l10n.t('The file is not a readable CSV: {0}', (error as Error).message));
  }
  const header = (records[0] ?? []).map((h) => h.trim().toLowerCase());
  if (!header.includes('question')) {
    throw new Error(
      l10n.t(
        'The CSV needs a "question" column (columns: {0}); its header is: {1}.',
        BULK_COLUMNS.join(', '),
        header.join(', ') || l10n.t('(empty)'),
      ),
    );
  }
  if (records.length < 2) throw new Error(l10n.t('The CSV has a header but no questions.'));
  return { rows: records.length - 1, missing: BULK_COLUMNS.filter((c) => !header.includes(c)) };
}

/**
 * A result CSV made safe to open in a spreadsheet: every cell starting with =, +, -, @, tab or CR
 * gets a leading `'` (escapeCsvCell), CRLF line ends and a UTF-8 BOM for Excel. "Open" shows the
 * service's text unchanged; only files the extension writes are escaped.
 */
export function escapeResultCsv(text: string): string {
  const records = parse(text, { bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }) as string[][];
  return '\uFEFF' + records.map((r) => r.map(escapeCsvCell).join(',')).join('\r\n') + '\r\n';
}

/** The text shown in an editor: the service's CSV without a byte-order mark. */
export function displayCsv(text: string): string {
  return text.replace(/^\uFEFF/, '');
}

/** A file name for a result: "rare-result-20250301-1405-ab12cd.csv" (UTC time, start of the id). */
export function resultFileName(prefix: string, createdAt: string | null | undefined, id: string): string {
  const d = createdAt ? new Date(createdAt) : undefined;
  const stamp =
    d && !Number.isNaN(d.getTime())
      ? `${d.toISOString().slice(0, 10).replace(/-/g, '')}-${d.toISOString().slice(11, 16).replace(':', '')}-`
      : '';
  return `${prefix}-${stamp}${id.replace(/[^A-Za-z0-9]/g, '').slice(0, 6) || 'result'}.csv`;
}
