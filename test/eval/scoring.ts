// Recall@k and MRR over ranked pages, per slice (language × kind), and the answer-side counts.
import { z } from 'zod';
import type { PageRef } from './plainBm25';

export const evalQuestionSchema = z.discriminatedUnion('kind', [
  z.object({
    id: z.string(),
    lang: z.enum(['en', 'ja']),
    kind: z.enum(['lexical', 'reworded']),
    question: z.string(),
    document: z.string(),
    /** Pages that hold the answer (a section that runs over a page break lists both). */
    pages: z.array(z.number().int().positive()).min(1),
    section: z.string().optional(),
  }),
  z.object({ id: z.string(), lang: z.enum(['en', 'ja']), kind: z.literal('none'), question: z.string() }),
]);
export const evalSetSchema = z.object({ questions: z.array(evalQuestionSchema) });
export type EvalQuestion = z.infer<typeof evalQuestionSchema>;
export type AnsweredQuestion = Extract<EvalQuestion, { kind: 'lexical' | 'reworded' }>;

/** 1-based rank of the first expected page among distinct pages, 0 when absent. */
export function rankOf(q: AnsweredQuestion, ranked: PageRef[]): number {
  const seen = new Set<string>();
  let rank = 0;
  for (const r of ranked) {
    const key = `${r.document}\u0000${r.pageNo}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rank++;
    if (r.document === q.document && q.pages.includes(r.pageNo)) return rank;
  }
  return 0;
}

export interface RankFigures {
  n: number;
  r1: number;
  r3: number;
  r5: number;
  mrr: number;
}

export function figures(ranks: number[]): RankFigures {
  const n = ranks.length;
  const within = (k: number) => ranks.filter((r) => r >= 1 && r <= k).length / Math.max(1, n);
  return { n, r1: within(1), r3: within(3), r5: within(5), mrr: ranks.reduce((s, r) => s + (r ? 1 / r : 0), 0) / Math.max(1, n) };
}

export interface Slice {
  name: string;
  test: (q: AnsweredQuestion) => boolean;
}

export const SLICES: Slice[] = [
  { name: 'all', test: () => true },
  { name: 'en', test: (q) => q.lang === 'en' },
  { name: 'ja', test: (q) => q.lang === 'ja' },
  { name: 'reworded', test: (q) => q.kind === 'reworded' },
  { name: 'lexical', test: (q) => q.kind === 'lexical' },
  { name: 'en reworded', test: (q) => q.lang === 'en' && q.kind === 'reworded' },
  { name: 'en lexical', test: (q) => q.lang === 'en' && q.kind === 'lexical' },
  { name: 'ja reworded', test: (q) => q.lang === 'ja' && q.kind === 'reworded' },
  { name: 'ja lexical', test: (q) => q.lang === 'ja' && q.kind === 'lexical' },
];
