// Score fusion of retrieval (document 2: bm25_score_weight, text_vector_score_weight,
// title_vector_score_weight; 0 disables a signal).
//
//   fused = (w_bm25 · bm25 / max bm25 + w_text · text / max text + w_title · title / max title) / (w_bm25 + w_text + w_title)
//
// Why each signal is divided by its maximum over this query's candidates:
// - BM25 is unbounded and its scale depends on the query (more or rarer terms → larger sums), while the
//   lexical cosines lie in [0, 1] but crowd into a narrow band (a short query against a 600-character
//   passage rarely exceeds 0.4). Added raw, whichever happens to have the larger scale would win, and the
//   weights would not mean what the contract says: the relative importance of each signal.
// - Dividing by the per-query maximum puts every signal on [0, 1] with its best candidate at 1, so a weight
//   is exactly the share of the fused score that signal can contribute.
// - Min-max scaling was rejected: it maps the weakest matching candidate to 0 — the same as "no match at
//   all" — and stretches meaningless differences when all candidates score almost the same. With
//   max-scaling, 0 keeps meaning "no evidence" and near-equal scores stay near-equal.
// The result is in [0, 1]; it ranks passages within one query and is not comparable across queries.

export interface Weights {
  bm25: number;
  text: number;
  title: number;
}

export function fuseScores(weights: Weights, bm25: readonly number[], text: readonly number[], title: readonly number[]): Float64Array {
  const total = weights.bm25 + weights.text + weights.title;
  const out = new Float64Array(bm25.length);
  if (total <= 0) return out;
  const scale = (values: readonly number[], weight: number): number => {
    if (weight <= 0) return 0;
    let max = 0;
    for (const v of values) if (v > max) max = v;
    return max > 0 ? weight / (max * total) : 0;
  };
  const kb = scale(bm25, weights.bm25);
  const kt = scale(text, weights.text);
  const kti = scale(title, weights.title);
  for (let i = 0; i < out.length; i++) out[i] = kb * bm25[i] + kt * text[i] + kti * title[i];
  return out;
}
