// Knowledge tests as one bulk-processing job (docs/knowledge-tests.md#bulk-mode): the input CSV (the service's
// documented columns question, model, search_type, plus our own test id column, which the result repeats), and
// the result CSV read back tolerantly: the service does not describe its result file, so column names are
// matched loosely and a row is found by our id, else by its question. What the file lacks is reported as
// "not available in bulk mode", never guessed into a pass.
import { parse } from 'csv-parse/sync';
import { evaluate, fold, type AssertionResult, type ObservedCitation, type Observation } from './evaluate';
import type { KnowledgeTest, LocatedAssertion } from './testSchema';

/** Our column: the result file repeats input columns, so each row names its test. */
export const BULK_ID_COLUMN = 'kd_test';

/**
 * Whether the bulk input can express the test exactly: a generative answer without scope, hashtags or sources
 * (the input CSV has no columns for them; search_type's values are not documented). Others run one by one.
 */
export function bulkEligible(test: KnowledgeTest): boolean {
  return test.mode === 'answer' && !test.scope?.length && !test.hashtags?.length && !test.sources?.length;
}

const cell = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** The input file: one row a test, its id `t1`, `t2`… in the order given. */
export function bulkInputCsv(tests: readonly KnowledgeTest[]): string {
  const lines = [['question', 'model', 'search_type', BULK_ID_COLUMN].join(',')];
  tests.forEach((t, i) => lines.push([cell(t.question), '', '', `t${i + 1}`].join(',')));
  return `${lines.join('\r\n')}\r\n`;
}

export interface BulkResultRow {
  id?: string;
  question: string;
  answer?: string;
  /** undefined: the file has no confidence for this row. */
  confidence?: number;
  /** undefined: the file has no sources column. */
  sources?: string;
}

const COLUMNS = {
  id: [BULK_ID_COLUMN],
  question: ['question', '質問', 'query'],
  answer: ['answer', '回答', 'generated_answer', 'generative_answer', 'response'],
  confidence: ['confidence', 'score', '信頼度'],
  sources: ['sources', 'source', 'citations', 'references', '参照'],
} as const;

export function parseBulkResult(text: string): BulkResultRow[] {
  const records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, relax_quotes: true }) as string[][];
  const header = (records[0] ?? []).map((h) => h.trim().toLowerCase());
  const col = (names: readonly string[]): number => header.findIndex((h) => names.includes(h));
  const at = Object.fromEntries(Object.entries(COLUMNS).map(([k, names]) => [k, col(names)])) as Record<keyof typeof COLUMNS, number>;
  return records.slice(1).map((r) => {
    const get = (i: number): string | undefined => (i >= 0 ? (r[i] ?? '') : undefined);
    const confidence = Number.parseFloat(get(at.confidence) ?? '');
    return {
      id: get(at.id)?.trim() || undefined,
      question: get(at.question)?.trim() ?? '',
      answer: get(at.answer),
      confidence: Number.isFinite(confidence) ? confidence : undefined,
      sources: get(at.sources),
    };
  });
}

/** Each test's row: by id when the file kept our column, else the next unused row with the same question. */
export function matchRows(tests: readonly KnowledgeTest[], rows: readonly BulkResultRow[]): Array<BulkResultRow | undefined> {
  const byId = new Map(rows.filter((r) => r.id).map((r) => [r.id, r]));
  const used = new Set<BulkResultRow>();
  return tests.map((t, i) => {
    const hit = byId.get(`t${i + 1}`) ?? rows.find((r) => !used.has(r) && !r.id && fold(r.question) === fold(t.question.trim()));
    if (hit) used.add(hit);
    return hit;
  });
}

/** "name p.3; Q&A: question" (the local service's spelling), split into citations. */
export function citationsOf(sources: string): ObservedCitation[] {
  return sources
    .split(/;|\n/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const qna = /^(?:Q&A|FAQ)\s*:\s*(.+)$/i.exec(s);
      // A Q&A is named by its question in the file: the same text stands for its id.
      if (qna) return { title: qna[1], faqId: qna[1] };
      const page = /^(.*?)\s*(?:p\.|page\s*)\s*(\d+)$/i.exec(s);
      return page ? { title: page[1], pageNo: Number(page[2]) } : { title: s };
    });
}

const NEEDS_SOURCES = new Set(['cites', 'matchesQna', 'noAnswer']);

/** The assertions of a test on its row; those needing what the file lacks fail with that reason. */
export function evaluateRow(
  test: KnowledgeTest,
  row: BulkResultRow,
): { assertions: AssertionResult[]; observed: Observation; unavailable: string[] } {
  const observed: Observation = {
    mode: 'answer',
    text: row.answer ?? '',
    confidence: row.confidence,
    citations: row.sources === undefined ? [] : citationsOf(row.sources),
  };
  const unavailable: string[] = [];
  const assertions = test.assert.map((a: LocatedAssertion): AssertionResult => {
    const lacking =
      row.answer === undefined
        ? 'answer'
        : NEEDS_SOURCES.has(a.kind) && row.sources === undefined
          ? 'sources'
          : a.kind === 'minConfidence' && row.confidence === undefined
            ? 'confidence'
            : undefined;
    if (!lacking) return evaluate(a, observed);
    const message = `${a.kind}: not available in bulk mode (the result file has no ${lacking} for this test); run without --bulk to check it.`;
    unavailable.push(message);
    return {
      kind: a.kind,
      line: a.start.line,
      passed: false,
      message,
      expected: a.kind,
      actual: `(no ${lacking} in the bulk result file)`,
    };
  });
  return { assertions, observed, unavailable };
}
