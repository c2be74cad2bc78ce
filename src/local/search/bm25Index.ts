// The BM25 part of the retrieval index: an inverted index over passage slots (small integers the retrieval
// index hands out and reuses), with typed-array postings.
//
// Why not MiniSearch (which this replaces; it is still what the scores are defined by): profiling 300
// searches over 10,000 passages showed MiniSearch's query path, not BM25 itself, taking the time — for every
// (query term, matching passage) it calls the document-filter callback and allocates a result record with a
// `match` object, then builds and fully sorts one result object per matching passage; a query with a common
// word ("the", "の") touches most of the index. Its API exposes no postings to score more cheaply, so the
// query path is replaced. This index reproduces MiniSearch's scoring exactly (the same BM25+ formula and
// parameters k 1.2, b 0.7, d 0.5; the same field length — distinct tokens of the passage; the same running
// average of it, updated in the same order; the same "quality" factor — the score times the number of query
// terms matched; the same order of additions), so scores are equal to the last bit, as the tests check
// against MiniSearch itself. One difference, on purpose: after a removal MiniSearch briefly counts the
// removed passage in a term's document frequency (until its lazy clean-up reaches it); here it never does.
//
// Removal is lazy too: a removed slot stays in the postings, marked dead, and searches never see it (the
// caller only marks live slots as allowed); `purge` drops dead slots from all postings and returns them for
// reuse, which the caller does once enough have accumulated.

const K = 1.2;
const B = 0.7;
const D = 0.5;

interface Postings {
  /** slot, term frequency, slot, term frequency, … */
  data: Int32Array;
  /** Used length of `data` (two entries per posting). */
  used: number;
  /** Live passages holding the term. */
  df: number;
}

/** What a snapshot keeps of a Bm25Index (retrievalIndexState.ts); `avgLength` exactly, as a running value. */
export interface Bm25State {
  terms: string[];
  /** Per term: its number of postings, then its df. */
  counts: Int32Array;
  /** Every term's postings (slot, term frequency pairs), one term after another. */
  postings: Int32Array;
  lengths: Uint32Array;
  dead: number[];
  live: number;
  avgLength: number;
}

export class Bm25Index {
  private readonly terms = new Map<string, Postings>();
  /** Distinct tokens per slot (MiniSearch's field length). */
  private lengths = new Uint32Array(64);
  private readonly dead = new Set<number>();
  private live = 0;
  private avgLength = 0;

  /** Live passages. */
  get size(): number {
    return this.live;
  }

  get deadCount(): number {
    return this.dead.size;
  }

  /** Live passages holding `term`. */
  df(term: string): number {
    return this.terms.get(term)?.df ?? 0;
  }

  /** Indexes `tokens` (every token, repeats kept) under a free slot. */
  add(slot: number, tokens: readonly string[]): void {
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    if (slot >= this.lengths.length) this.lengths = grow(this.lengths, slot + 1);
    this.lengths[slot] = tf.size;
    this.avgLength = (this.avgLength * this.live + tf.size) / (this.live + 1);
    this.live++;
    for (const [term, n] of tf) {
      let p = this.terms.get(term);
      if (!p) this.terms.set(term, (p = { data: new Int32Array(4), used: 0, df: 0 }));
      if (p.used + 2 > p.data.length) p.data = grow(p.data, p.used + 2);
      p.data[p.used++] = slot;
      p.data[p.used++] = n;
      p.df++;
    }
  }

  /** Removes the passage in `slot`, which was added with `tokens`; the slot is not reusable until purged. */
  remove(slot: number, tokens: readonly string[]): void {
    const length = this.lengths[slot];
    this.avgLength = this.live === 1 ? 0 : (this.avgLength * this.live - length) / (this.live - 1);
    this.live--;
    this.dead.add(slot);
    for (const term of new Set(tokens)) {
      const p = this.terms.get(term);
      if (p && --p.df === 0) this.terms.delete(term);
    }
  }

  exportState(): Bm25State {
    const terms = [...this.terms.keys()];
    const counts = new Int32Array(terms.length * 2);
    let total = 0;
    terms.forEach((term, i) => {
      const p = this.terms.get(term)!;
      counts[2 * i] = p.used / 2;
      counts[2 * i + 1] = p.df;
      total += p.used;
    });
    const postings = new Int32Array(total);
    let at = 0;
    for (const p of this.terms.values()) {
      postings.set(p.data.subarray(0, p.used), at);
      at += p.used;
    }
    const { lengths, live, avgLength } = this;
    return { terms, counts, postings, lengths: lengths.slice(), dead: [...this.dead], live, avgLength };
  }

  /** Loads a state (checked by its decoder) into this empty index; postings are views of `state.postings`. */
  restoreState(state: Bm25State): void {
    let at = 0;
    state.terms.forEach((term, i) => {
      const used = state.counts[2 * i] * 2;
      // A view of exactly its length: the next add to the term copies it into a grown array of its own.
      this.terms.set(term, { data: state.postings.subarray(at, at + used), used, df: state.counts[2 * i + 1] });
      at += used;
    });
    this.lengths = new Uint32Array(state.lengths);
    for (const slot of state.dead) this.dead.add(slot);
    this.live = state.live;
    this.avgLength = state.avgLength;
  }

  /** Drops dead slots from every posting list; returns them, free for reuse. */
  purge(): number[] {
    const freed = [...this.dead];
    if (!freed.length) return freed;
    const dead = new Uint8Array(this.lengths.length);
    for (const slot of freed) dead[slot] = 1;
    for (const p of this.terms.values()) {
      let w = 0;
      for (let r = 0; r < p.used; r += 2) {
        if (dead[p.data[r]]) continue;
        p.data[w++] = p.data[r];
        p.data[w++] = p.data[r + 1];
      }
      p.used = w;
    }
    this.dead.clear();
    return freed;
  }

  /**
   * BM25 of the allowed slots for distinct query `terms`: `scores[slot]` gets the MiniSearch score and
   * `matched[slot]` the number of terms it holds (both must start at 0). Returns the slots scored, in the
   * order first reached. `weights` (one per term, default 1) scale a term's part; without `expansion`, a term
   * weighing less than 1 (an expansion term, not one the user wrote) adds its part but does not count as
   * matched, so the quality factor still rewards the user's own words (a passage holding only expansion
   * terms counts as one match). With `expansion`, each term stands for one of the user's words
   * (`sources[t]`, the user's words themselves first): a word counts once per passage — by itself when the
   * passage holds it, otherwise by the first of its added terms the passage holds (weighted, and counted as
   * matched: the passage that says "movie" matched the user's "film"); a word whose `counted[t]` is false (a function
   * word of the question) scores but is never counted. `covered` is a zeroed work array by slot.
   */
  score(
    terms: readonly string[],
    allowed: Uint8Array,
    scores: Float64Array,
    matched: Uint16Array,
    weights?: readonly number[],
    expansion?: { sources: readonly number[]; covered: Uint32Array; counted?: readonly boolean[] },
  ): number[] {
    const touched: number[] = [];
    const n = this.live;
    const avg = this.avgLength;
    const lengths = this.lengths;
    const covered = expansion?.covered;
    terms.forEach((term, t) => {
      const p = this.terms.get(term);
      if (!p) return;
      const weight = weights?.[t] ?? 1;
      const source = expansion?.sources[t] ?? 32;
      // One bit per user word; past the 31st (never seen in a question) words are not grouped.
      const bit = source < 32 ? 1 << source : 0;
      // A function word of the question (queryExpansion.ts) scores its weighted part but is not counted.
      const counts = (weight >= 1 || bit !== 0) && (expansion?.counted?.[t] ?? true);
      const idf = Math.log(1 + (n - p.df + 0.5) / (p.df + 0.5));
      const data = p.data;
      for (let i = 0; i < p.used; i += 2) {
        const slot = data[i];
        if (!allowed[slot]) continue;
        if (bit) {
          if (covered![slot] & bit) continue;
          covered![slot] |= bit;
        }
        const tf = data[i + 1];
        const first = scores[slot] === 0;
        // Written as MiniSearch writes it (calcBM25Score), so the floating-point result is the same.
        const part = idf * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * lengths[slot]) / avg)));
        scores[slot] += weight >= 1 ? part : weight * part;
        if (counts) matched[slot]++;
        if (first) touched.push(slot);
      }
    });
    // MiniSearch multiplies by the number of query terms matched ("quality").
    for (const slot of touched) scores[slot] *= Math.max(1, matched[slot]);
    return touched;
  }
}

/** A copy of `a` with room for at least `min` elements (doubling). */
function grow<T extends Int32Array | Uint32Array | Float64Array>(a: T, min: number): T {
  const out = new (a.constructor as new (n: number) => T)(Math.max(min, a.length * 2));
  out.set(a);
  return out;
}
