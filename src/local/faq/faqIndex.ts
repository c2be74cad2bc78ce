// The Q&A search engine: an inverted index over the question and similar questions of every Q&A that is on,
// scored by IDF-weighted cosine similarity of token sets (docs/api.md#search-qa: confidence in [0, 1]; the same
// question gives 1.0, an unrelated one about 0).
//
//   cos(q, d) = Σ_{t ∈ q∩d} idf(t)² / (‖q‖ ‖d‖),   ‖x‖² = Σ_{t ∈ x} idf(t)²,   idf(t) = ln(1 + (N + 1) / (df(t) + 1))
//
// N counts indexed texts. Tokens are interned to integers so scoring runs over typed arrays: at 100k Q&As a
// query made of common words touches most texts, and Map-based accumulators were an order of magnitude slower.
import { tokenSet } from '../search/tokenizer';

export interface IndexedFaq {
  id: string;
  question: string;
  similarQuestions: readonly string[];
}

export interface FaqMatch {
  faqId: string;
  /** Rounded to 6 decimals, so the same question gives exactly 1. */
  confidence: number;
}

export class FaqIndex {
  private readonly tokenIds = new Map<string, number>();
  private df = new Int32Array(1024);
  private idf2 = new Float64Array(1024);
  private idfEpoch = new Int32Array(1024);
  private postings: number[][] = [];
  /**
   * Per text: its distinct token ids, or undefined once removed (postings drop dead ids lazily). Plain arrays of
   * exact length: an Int32Array costs about 240 bytes of heap per text, this about 130 (issue 23).
   */
  private textTokens: Array<readonly number[] | undefined> = [];
  private textFaq: string[] = [];
  private readonly byFaq = new Map<string, number[]>();
  private live = 0;
  /** Bumped on every change; cached idf² values from older epochs are stale. */
  private epoch = 1;
  /** Per text: 1 while indexed (a byte array is faster to test than the tokens array in hot loops). */
  private alive = new Uint8Array(1024);
  /** Per text: 1 when its Q&A has other texts too. */
  private shared = new Uint8Array(1024);
  private norm2 = new Float64Array(1024);
  private normEpoch = new Int32Array(1024);
  private acc = new Float64Array(1024);
  private touched = new Int32Array(1024);
  /** Q&As loaded at start and not indexed yet (last first); see indexInBackground. */
  private pending: string[] = [];

  /** `current` returns a Q&A that is on, or undefined (deleted or off). */
  constructor(private readonly current: (id: string) => IndexedFaq | undefined) {}

  get size(): number {
    return this.byFaq.size;
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

  /** Indexes (or re-indexes) a Q&A that is on. */
  put(faq: IndexedFaq): void {
    this.remove(faq.id);
    const ids: number[] = [];
    for (const text of [faq.question, ...faq.similarQuestions]) {
      const tokens = tokenSet(text);
      if (tokens.length === 0) continue;
      const textId = this.textTokens.length;
      const interned = tokens.map((token) => {
        const tid = this.intern(token);
        this.df[tid]++;
        this.addPosting(tid, textId);
        return tid;
      });
      if (textId >= this.alive.length) {
        this.alive = grow(this.alive, Uint8Array);
        this.shared = grow(this.shared, Uint8Array);
        this.norm2 = grow(this.norm2, Float64Array);
        this.normEpoch = grow(this.normEpoch, Int32Array);
      }
      this.alive[textId] = 1;
      this.textTokens.push(interned);
      this.textFaq.push(faq.id);
      ids.push(textId);
      this.live++;
    }
    for (const textId of ids) this.shared[textId] = ids.length > 1 ? 1 : 0;
    // A copy of exact length: an array grown by push keeps room for 16 more, 128 bytes per Q&A.
    this.byFaq.set(faq.id, ids.slice());
    this.epoch++;
  }

  /** Drops a Q&A (deleted or turned off). */
  remove(faqId: string): void {
    const ids = this.byFaq.get(faqId);
    if (!ids) return;
    this.byFaq.delete(faqId);
    for (const textId of ids) {
      const tokens = this.textTokens[textId];
      if (!tokens) continue;
      this.textTokens[textId] = undefined;
      this.alive[textId] = 0;
      this.live--;
      for (const tid of tokens) {
        this.df[tid]--;
        const posting = this.postings[tid];
        if (posting.length > 2 * this.df[tid] + 16) this.postings[tid] = posting.filter((id) => this.textTokens[id] !== undefined);
      }
    }
    this.epoch++;
    if (this.textTokens.length > 3 * this.live + 4096) this.compact();
  }

  /** Q&As whose best text scores at least `minConfidence`, unordered. */
  search(query: string, minConfidence: number): FaqMatch[] {
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
    const size = this.textTokens.length;
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
        for (let i = 0; i < touchedCount; i++) if (this.textTokens[touched[i]]!.includes(tid)) acc[touched[i]] += w2;
      } else {
        // Many found: one pass over the posting, adding only to texts already found (acc > 0).
        for (let i = 0; i < posting.length; i++) {
          const textId = posting[i];
          if (acc[textId] !== 0 && alive[textId] === 1) acc[textId] += w2;
        }
      }
    }
    const out: FaqMatch[] = [];
    // Only Q&As with several texts (similar questions) can be reached twice; they alone need a map.
    const several = new Map<string, FaqMatch>();
    for (let i = 0; i < touchedCount; i++) {
      const textId = touched[i];
      const dot = acc[textId];
      acc[textId] = 0;
      // ‖d‖ ≥ √dot, so √dot / ‖q‖ bounds the cosine: skip computing ‖d‖ for texts that cannot qualify.
      if (dot < min2) continue;
      const cos = dot / Math.sqrt(qNorm2 * this.textNorm2(textId));
      if (cos < minConfidence) continue;
      const confidence = Math.min(1, Math.round(cos * 1e6) / 1e6);
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

  /** ‖d‖² under the current idf values, cached until the index next changes. */
  private textNorm2(textId: number): number {
    if (this.normEpoch[textId] === this.epoch) return this.norm2[textId];
    const tokens = this.textTokens[textId]!;
    let sum = 0;
    for (let i = 0; i < tokens.length; i++) sum += this.cachedIdf2(tokens[i]);
    this.norm2[textId] = sum;
    this.normEpoch[textId] = this.epoch;
    return sum;
  }

  private drain(budget: number): void {
    while (budget-- > 0 && this.pending.length) {
      const id = this.pending.pop()!;
      if (this.byFaq.has(id)) continue;
      const faq = this.current(id);
      if (faq) this.put(faq);
    }
  }

  /**
   * Most tokens of a large set occur in one text or a few (numbers, names): a new posting is created with its
   * one id instead of grown from [] by push, which reserves room for 17 (about 150 bytes per token; issue 23).
   */
  private addPosting(tid: number, textId: number): void {
    const posting = this.postings[tid];
    if (posting.length === 0) this.postings[tid] = [textId];
    else posting.push(textId);
  }

  private intern(token: string): number {
    let tid = this.tokenIds.get(token);
    if (tid === undefined) {
      tid = this.postings.length;
      this.tokenIds.set(token, tid);
      this.postings.push([]);
      if (tid >= this.df.length) {
        this.df = grow(this.df, Int32Array);
        this.idf2 = grow(this.idf2, Float64Array);
        this.idfEpoch = grow(this.idfEpoch, Int32Array);
      }
    }
    return tid;
  }

  private idfSquared(df: number): number {
    const idf = Math.log(1 + (this.live + 1) / (df + 1));
    return idf * idf;
  }

  private cachedIdf2(tid: number): number {
    if (this.idfEpoch[tid] !== this.epoch) {
      this.idf2[tid] = this.idfSquared(this.df[tid]);
      this.idfEpoch[tid] = this.epoch;
    }
    return this.idf2[tid];
  }

  /** Renumbers live texts once removals (updates re-add texts) have left most slots empty. */
  private compact(): void {
    const tokens: Array<readonly number[]> = [];
    const faqs: string[] = [];
    for (const ids of this.byFaq.values()) {
      for (let i = 0; i < ids.length; i++) {
        const old = ids[i];
        ids[i] = tokens.length;
        tokens.push(this.textTokens[old]!);
        faqs.push(this.textFaq[old]);
      }
    }
    this.textTokens = tokens;
    this.textFaq = faqs;
    this.alive = new Uint8Array(Math.max(1024, tokens.length * 2));
    this.alive.fill(1, 0, tokens.length);
    this.shared = new Uint8Array(this.alive.length);
    for (const ids of this.byFaq.values()) if (ids.length > 1) for (const textId of ids) this.shared[textId] = 1;
    this.norm2 = new Float64Array(this.alive.length);
    this.normEpoch = new Int32Array(this.alive.length);
    this.postings = this.postings.map(() => []);
    tokens.forEach((list, textId) => {
      for (const tid of list) this.addPosting(tid, textId);
    });
    this.epoch++;
  }
}

function grow<T extends Int32Array | Float64Array | Uint8Array>(array: T, Type: { new (length: number): T }): T {
  const next = new Type(array.length * 2);
  next.set(array);
  return next;
}
