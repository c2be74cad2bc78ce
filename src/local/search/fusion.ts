// Score fusion of retrieval (docs/api.md#retrieval: bm25_score_weight, text_vector_score_weight,
// title_vector_score_weight; 0 disables a signal).
//
//   fused = (w_bm25 · bm25 / max bm25 + w_text · text / max text + w_title · title / max title) / (w_bm25 + w_text + w_title)
//
// Why each signal is divided by its maximum over this query's candidates:
// - BM25 is unbounded and its scale depends on the query (more or rarer terms → larger sums), while the
//   lexical cosines lie in [0, 1] but crowd into a narrow band (a short query against a 600-character
//   passage rarely exceeds 0.4). Added raw, whichever happens to have the larger scale would win, and the
//   weights would not mean what the API says they mean: the relative importance of each signal.
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

export function fuseScores(
  weights: Weights,
  bm25: ArrayLike<number>,
  text: ArrayLike<number>,
  title: ArrayLike<number>,
  out: Float64Array = new Float64Array(bm25.length),
): Float64Array {
  const total = weights.bm25 + weights.text + weights.title;
  if (total <= 0) return out.fill(0);
  const scale = (values: ArrayLike<number>, weight: number): number => {
    if (weight <= 0) return 0;
    let max = 0;
    for (let i = 0; i < values.length; i++) if (values[i] > max) max = values[i];
    return max > 0 ? weight / (max * total) : 0;
  };
  const kb = scale(bm25, weights.bm25);
  const kt = scale(text, weights.text);
  const kti = scale(title, weights.title);
  for (let i = 0; i < bm25.length; i++) out[i] = kb * bm25[i] + kt * text[i] + kti * title[i];
  return out;
}

/** Below this many items a comparison sort is cheaper than the radix passes. */
const RADIX_MIN = 256;
const DIGIT_BITS = 11;
/** Index of the high 32-bit word of a double in a Uint32Array view (1 on little-endian machines). */
const HIGH_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
/** Work arrays of rankByScore, kept between calls (it is synchronous): no large allocation per search. */
let work = { keys: new Uint32Array(0), keysOut: new Uint32Array(0), items: new Uint32Array(0) };
const counts = new Uint32Array(1 << DIGIT_BITS);

/**
 * Sorts `items` (indexes into `scores`, all scores ≥ 0) in place by score, highest first, equal scores by
 * `tie` ascending (reading order). Why not Array.sort with a comparator: ordering the ~10,000 passages a
 * fused search scores took ~4 ms — longer than the rest of the search. Non-negative doubles order like their
 * bit patterns, so a stable radix sort on the high 32 bits (sign, exponent and 20 mantissa bits) does the
 * bulk in three linear passes; items sharing those bits (equal or nearly equal scores) are then put in
 * exact order by insertion sort.
 */
export function rankByScore(items: Uint32Array, scores: Float64Array, tie: (item: number) => number): Uint32Array {
  const m = items.length;
  const exact = (a: number, b: number): number => scores[b] - scores[a] || tie(a) - tie(b);
  if (m < RADIX_MIN) return items.sort(exact);
  if (work.keys.length < m) work = { keys: new Uint32Array(m), keysOut: new Uint32Array(m), items: new Uint32Array(m) };
  const words = new Uint32Array(scores.buffer, scores.byteOffset, scores.length * 2);
  let keys: Uint32Array = work.keys;
  let keysOut: Uint32Array = work.keysOut;
  let src: Uint32Array = items;
  let dst: Uint32Array = work.items;
  for (let i = 0; i < m; i++) keys[i] = ~words[2 * items[i] + HIGH_WORD] >>> 0; // complemented: ascending = best first
  const mask = (1 << DIGIT_BITS) - 1;
  for (let shift = 0; shift < 32; shift += DIGIT_BITS) {
    counts.fill(0);
    for (let i = 0; i < m; i++) counts[(keys[i] >>> shift) & mask]++;
    if (counts[(keys[0] >>> shift) & mask] === m) continue; // every key has this digit: nothing to move
    let sum = 0;
    for (let d = 0; d <= mask; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < m; i++) {
      const p = counts[(keys[i] >>> shift) & mask]++;
      dst[p] = src[i];
      keysOut[p] = keys[i];
    }
    [src, dst] = [dst, src];
    [keys, keysOut] = [keysOut, keys];
  }
  if (src !== items) items.set(src.subarray(0, m));
  for (let i = 1; i < m; i++) {
    if (keys[i] !== keys[i - 1]) continue;
    const x = items[i];
    let j = i - 1;
    while (j >= 0 && keys[j] === keys[i] && exact(items[j], x) > 0) {
      items[j + 1] = items[j];
      j--;
    }
    items[j + 1] = x;
  }
  return items;
}
