// The Q&A search engine: an inverted index over the question and similar questions of every Q&A that is on,
// scored by IDF-weighted cosine similarity of token sets (docs/api.md#search-qa: confidence in [0, 1]; the same
// question gives 1.0, an unrelated one about 0).
//
//   cos(q, d) = Σ_{t ∈ q∩d} idf(t)² / (‖q‖ ‖d‖),   ‖x‖² = Σ_{t ∈ x} idf(t)²,   idf(t) = ln(1 + (N + 1) / (df(t) + 1))
//
// N counts indexed texts. Tokens are interned to integers so scoring runs over typed arrays: at 100k Q&As a
// query made of common words touches most texts, and Map-based accumulators were an order of magnitude slower.
import { tokenSet } from '../search/tokenizer';
import { FaqTexts, type FaqIndexState, type IndexedFaq } from './faqTexts';

export type { FaqIndexState, IndexedFaq };

export interface FaqMatch {
  faqId: string;
  /** Rounded to 6 decimals, so the same question gives exactly 1. */
  confidence: number;
}

export class FaqIndex extends FaqTexts {
  private acc = new Float64Array(1024);
  private touched = new Int32Array(1024);
  /** Q&As loaded at start and not indexed yet (last first); see indexInBackground. */
  private pending: string[] = [];

  /** `current` returns a Q&A that is on, or undefined (deleted or off). */
  constructor(private readonly current: (id: string) => IndexedFaq | undefined) {
    super();
  }

  get size(): number {
    return this.byFaq.size;
  }

  /** Changes with every put and remove (a snapshot is due when it moved). */
  get version(): number {
    return this.epoch;
  }

  /** Q&As loaded at start and not indexed yet. */
  get backlog(): number {
    return this.pending.length;
  }

  has(faqId: string): boolean {
    return this.byFaq.has(faqId);
  }

  /**
   * Indexes the Q&As present at start a slice per event-loop turn, so a service with 100k Q&As starts at
   * once and stays responsive; a search arriving earlier finishes the job first. Writes meanwhile index
   * their Q&A directly, and the backlog skips Q&As already indexed.
   */
  indexInBackground(ids: readonly string[]): void {
    // One by one: spreading 130,000 ids into push() overflows the call stack.
    for (let i = ids.length - 1; i >= 0; i--) this.pending.push(ids[i]);
    const step = (): void => {
      this.drain(2000);
      if (this.pending.length) setImmediate(step).unref();
    };
    if (this.pending.length) setImmediate(step).unref();
  }

  /** An index holding what `exportState` returned (the state is checked by its decoder, faqIndexState.ts). */
  static fromState(state: FaqIndexState, current: (id: string) => IndexedFaq | undefined): FaqIndex {
    const index = new FaqIndex(current);
    index.restoreState(state);
    return index;
  }

  /**
   * Q&As whose best text scores at least `minConfidence`, unordered. With `limit`, those scoring 0.1 or more below
   * the limit-th best may be left out (the Q&A search shows no more than that; feedback moves a score by < 0.05).
   */
  search(query: string, minConfidence: number, limit = Infinity): FaqMatch[] {
    this.drain(Infinity);
    const terms = tokenSet(query).map((token) => {
      const tid = this.tokenIds.get(token);
      return { tid, w2: tid === undefined ? this.idfSquared(0) : this.cachedIdf2(tid) };
    });
    if (terms.length === 0 || this.live === 0) return [];
    // Rarest first: once the remaining (common) terms could not lift a text to minConfidence on their own,
    // they only add weight to texts already found instead of walking their long postings for new ones.
    terms.sort((a, b) => b.w2 - a.w2);
    let qNorm2 = 0;
    for (const t of terms) qNorm2 += t.w2;
    const qNorm = Math.sqrt(qNorm2);
    const size = this.textCount;
    if (this.acc.length < size) this.acc = new Float64Array(size * 2);
    if (this.touched.length < size) this.touched = new Int32Array(size * 2);
    const { acc, touched, alive, normEpoch, norm2, epoch } = this;
    const min2 = minConfidence * minConfidence * qNorm2;
    let touchedCount = 0;
    let remaining = qNorm2;
    for (const { tid, w2 } of terms) {
      // A text not found by the rarer terms can at best match all of these: dot ≤ rest.
      const rest = remaining;
      remaining -= w2;
      if (tid === undefined) continue;
      const posting = this.postings[tid];
      if (Math.sqrt(rest) / qNorm >= minConfidence) {
        for (let i = 0; i < posting.length; i++) {
          const textId = posting[i];
          if (alive[textId] === 0) continue;
          if (acc[textId] === 0) {
            // cos ≤ rest / (‖q‖ ‖d‖): a long text found only through common words cannot qualify, so it is not
            // collected at all (at 100k Q&As this keeps "how", "の", "ください" from touching every text).
            const dNorm2 = normEpoch[textId] === epoch ? norm2[textId] : this.textNorm2(textId);
            if (rest * rest < min2 * dNorm2) continue;
            touched[touchedCount++] = textId;
          }
          acc[textId] += w2;
        }
      } else if (touchedCount * 8 < posting.length) {
        // Few texts found so far: look the term up in each of them.
        for (let i = 0; i < touchedCount; i++) if (this.holds(touched[i], tid)) acc[touched[i]] += w2;
      } else {
        // Many found: one pass over the posting, adding only to texts already found (acc > 0).
        for (let i = 0; i < posting.length; i++) {
          const textId = posting[i];
          if (acc[textId] !== 0 && alive[textId] === 1) acc[textId] += w2;
        }
      }
    }
    // Confidences first, without objects: when the caller shows only the best `limit` Q&As, a broad query (common
    // words reach 0.1 in most texts at 100k Q&As) must not make tens of thousands of matches only to drop them.
    const top = limit === Infinity ? undefined : new Float64Array(Math.min(touchedCount, limit * this.mostTexts));
    let filled = 0;
    for (let i = 0; i < touchedCount; i++) {
      const textId = touched[i];
      const dot = acc[textId];
      // ‖d‖ ≥ √dot, so √dot / ‖q‖ bounds the cosine: skip computing ‖d‖ for texts that cannot qualify.
      const cos = dot < min2 ? 0 : dot / Math.sqrt(qNorm2 * this.textNorm2(textId));
      const confidence = cos < minConfidence ? -1 : Math.min(1, Math.round(cos * 1e6) / 1e6);
      acc[textId] = confidence;
      if (top && confidence > (filled < top.length ? -1 : top[0])) filled = keepLargest(top, filled, confidence);
    }
    // The limit-th best Q&A scores at least the (limit × most texts of a Q&A)-th best text: the caller's floor
    // (FaqService.search: that Q&A's confidence − 0.1) is at or above this one, so nothing it keeps is left out.
    const floor = top && filled === top.length && top.length > 0 ? top[0] - 0.1 : minConfidence;
    const out: FaqMatch[] = [];
    // Only Q&As with several texts (similar questions) can be reached twice; they alone need a map.
    const several = new Map<string, FaqMatch>();
    for (let i = 0; i < touchedCount; i++) {
      const textId = touched[i];
      const confidence = acc[textId];
      acc[textId] = 0;
      if (confidence < minConfidence || confidence < floor) continue;
      const faqId = this.textFaq[textId];
      if (this.shared[textId] === 0) {
        out.push({ faqId, confidence });
        continue;
      }
      const seen = several.get(faqId);
      if (!seen) {
        const match = { faqId, confidence };
        several.set(faqId, match);
        out.push(match);
      } else if (confidence > seen.confidence) {
        seen.confidence = confidence;
      }
    }
    return out;
  }

  /** Whether text `textId` holds token `tid`. */
  protected holds(textId: number, tid: number): boolean {
    const start = this.textStart[textId];
    const end = start + this.textLength[textId];
    const data = this.tokenData;
    for (let i = start; i < end; i++) if (data[i] === tid) return true;
    return false;
  }

  /** ‖d‖² under the current idf values, cached until the index next changes. */
  protected textNorm2(textId: number): number {
    if (this.normEpoch[textId] === this.epoch) return this.norm2[textId];
    const start = this.textStart[textId];
    const end = start + this.textLength[textId];
    let sum = 0;
    for (let i = start; i < end; i++) sum += this.cachedIdf2(this.tokenData[i]);
    this.norm2[textId] = sum;
    this.normEpoch[textId] = this.epoch;
    return sum;
  }

  protected idfSquared(df: number): number {
    const idf = Math.log(1 + (this.live + 1) / (df + 1));
    return idf * idf;
  }

  protected cachedIdf2(tid: number): number {
    if (this.idfEpoch[tid] !== this.epoch) {
      this.idf2[tid] = this.idfSquared(this.df[tid]);
      this.idfEpoch[tid] = this.epoch;
    }
    return this.idf2[tid];
  }

  private drain(budget: number): void {
    while (budget-- > 0 && this.pending.length) {
      const id = this.pending.pop()!;
      if (this.byFaq.has(id)) continue;
      const faq = this.current(id);
      if (faq) this.put(faq);
    }
  }
}

/** Inserts `value` into `top` (ascending, `filled` used), dropping the smallest when full; returns the new fill. */
function keepLargest(top: Float64Array, filled: number, value: number): number {
  if (filled < top.length) {
    let i = filled;
    for (; i > 0 && top[i - 1] > value; i--) top[i] = top[i - 1];
    top[i] = value;
    return filled + 1;
  }
  let j = 0;
  for (; j + 1 < top.length && top[j + 1] < value; j++) top[j] = top[j + 1];
  top[j] = value;
  return filled;
}
