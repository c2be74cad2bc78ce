// The local reranker (docs/api.md#retrieval: use_reranker, reranker_candidates_num, reranker_max_tokens). The first
// stage ranks by BM25 and lexical vectors, which reward a passage that repeats one rare query term; the
// reranker reads each candidate (cut to reranker_max_tokens tokens) and scores how much of the question it
// answers: IDF-weighted coverage of the query terms, plus a bonus when those terms stand close together
// (the shortest window holding every matched term, relative to how many there are). The first-stage score
// only breaks near-ties.
import type { WeightedTerm } from './queryTerms';
import { tokenize } from './tokenizer';

const PROXIMITY_WEIGHT = 0.3;
const FIRST_STAGE_WEIGHT = 0.05;

export interface RerankCandidate {
  text: string;
  /** First-stage (fused) score in [0, 1]. */
  score: number;
}

export function rerankScore(terms: readonly WeightedTerm[], text: string, maxTokens: number, firstStage: number): number {
  const tokens = tokenize(text).slice(0, maxTokens);
  const total = terms.reduce((s, t) => s + t.weight, 0);
  if (!total || !tokens.length) return FIRST_STAGE_WEIGHT * firstStage;
  const wanted = new Map(terms.map((t) => [t.term, t.weight]));
  const seen = new Set<string>();
  for (const token of tokens) if (wanted.has(token)) seen.add(token);
  let covered = 0;
  for (const term of seen) covered += wanted.get(term)!;
  return covered / total + PROXIMITY_WEIGHT * proximity(tokens, seen) + FIRST_STAGE_WEIGHT * firstStage;
}

/** (m − 1) / (w − 1) for the shortest window w holding all m distinct matched terms; 0 below two terms. */
export function proximity(tokens: readonly string[], matched: ReadonlySet<string>): number {
  const m = matched.size;
  if (m < 2) return 0;
  const counts = new Map<string, number>();
  let have = 0;
  let best = Infinity;
  let left = 0;
  for (let right = 0; right < tokens.length; right++) {
    const t = tokens[right];
    if (!matched.has(t)) continue;
    const c = (counts.get(t) ?? 0) + 1;
    counts.set(t, c);
    if (c === 1) have++;
    while (have === m) {
      best = Math.min(best, right - left + 1);
      const l = tokens[left++];
      if (!matched.has(l)) continue;
      const n = counts.get(l)! - 1;
      counts.set(l, n);
      if (n === 0) have--;
    }
  }
  return Number.isFinite(best) ? (m - 1) / (best - 1) : 0;
}

/** Candidates in their new order (stable for equal scores). */
export function rerank<T extends RerankCandidate>(
  terms: readonly WeightedTerm[],
  candidates: readonly T[],
  maxTokens: number,
): Array<T & { rerankScore: number }> {
  return candidates
    .map((c, i) => ({ ...c, rerankScore: rerankScore(terms, c.text, maxTokens, c.score), i }))
    .sort((a, b) => b.rerankScore - a.rerankScore || a.i - b.i)
    .map(({ i: _i, ...rest }) => rest as T & { rerankScore: number });
}
