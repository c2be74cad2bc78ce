// The data of the Q&A search engine (faqIndex.ts holds the search): texts as interned token ids, postings,
// document frequencies and cached idf² and norms, kept in step by put and remove, and saved to and restored
// from an index snapshot (faqIndexState.ts).
import { tokenSet } from '../search/tokenizer';

export interface IndexedFaq {
  id: string;
  question: string;
  similarQuestions: readonly string[];
}

/** What a snapshot keeps of a FaqIndex: texts of one Q&A follow each other, tokens as ids into `tokens`. */
export interface FaqIndexState {
  tokens: string[];
  faqIds: string[];
  /** Per Q&A: its number of texts. */
  texts: Int32Array;
  /** Per text: its number of tokens. */
  lengths: Int32Array;
  tokenIds: Int32Array;
}

export class FaqTexts {
  protected readonly tokenIds = new Map<string, number>();
  protected df = new Int32Array(1024);
  protected idf2 = new Float64Array(1024);
  protected idfEpoch = new Int32Array(1024);
  protected postings: number[][] = [];
  /**
   * Per text: its distinct token ids, or undefined once removed (postings drop dead ids lazily). Plain arrays of
   * exact length: an Int32Array costs about 240 bytes of heap per text, this about 130 (issue 23).
   */
  protected textTokens: Array<readonly number[] | undefined> = [];
  protected textFaq: string[] = [];
  protected readonly byFaq = new Map<string, number[]>();
  protected live = 0;
  /** Bumped on every change; cached idf² values from older epochs are stale. */
  protected epoch = 1;
  /** Per text: 1 while indexed (a byte array is faster to test than the tokens array in hot loops). */
  protected alive = new Uint8Array(1024);
  /** Per text: 1 when its Q&A has other texts too. */
  protected shared = new Uint8Array(1024);
  protected norm2 = new Float64Array(1024);
  protected normEpoch = new Int32Array(1024);
  /** The most texts any Q&A has had (question and similar questions). */
  protected mostTexts = 1;

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
    if (ids.length > this.mostTexts) this.mostTexts = ids.length;
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

  /** The live texts for a snapshot (faqIndexState.ts): token strings by id, and each Q&A's texts as token ids. */
  exportState(): FaqIndexState {
    const faqIds: string[] = [];
    const texts: number[] = [];
    const lengths: number[] = [];
    const flat: number[] = [];
    for (const [faqId, ids] of this.byFaq) {
      faqIds.push(faqId);
      texts.push(ids.length);
      for (const textId of ids) {
        const tokens = this.textTokens[textId]!;
        lengths.push(tokens.length);
        for (const tid of tokens) flat.push(tid);
      }
    }
    const arrays = { texts: Int32Array.from(texts), lengths: Int32Array.from(lengths), tokenIds: Int32Array.from(flat) };
    return { tokens: [...this.tokenIds.keys()], faqIds, ...arrays };
  }

  /** Loads what `exportState` returned into this empty index (FaqIndexState is checked by its decoder). */
  protected restoreState(state: FaqIndexState): void {
    for (const token of state.tokens) this.intern(token);
    let text = 0;
    let at = 0;
    state.faqIds.forEach((faqId, i) => {
      const ids: number[] = [];
      for (let n = 0; n < state.texts[i]; n++, text++) {
        const tokens = Array.from(state.tokenIds.subarray(at, (at += state.lengths[text])));
        for (const tid of tokens) this.df[tid]++;
        ids.push(this.textTokens.length);
        this.textTokens.push(tokens);
        this.textFaq.push(faqId);
      }
      this.byFaq.set(faqId, ids);
      this.live += ids.length;
      if (ids.length > this.mostTexts) this.mostTexts = ids.length;
    });
    this.compact(); // sizes the per-text arrays and builds the postings
  }

  /** ‖d‖² under the current idf values, cached until the index next changes. */
  protected textNorm2(textId: number): number {
    if (this.normEpoch[textId] === this.epoch) return this.norm2[textId];
    const tokens = this.textTokens[textId]!;
    let sum = 0;
    for (let i = 0; i < tokens.length; i++) sum += this.cachedIdf2(tokens[i]);
    this.norm2[textId] = sum;
    this.normEpoch[textId] = this.epoch;
    return sum;
  }

  /**
   * Most tokens of a large set occur in one text or a few (numbers, names): a new posting is created with its
   * one id instead of grown from [] by push, which reserves room for 17 (about 150 bytes per token; issue 23).
   */
  protected addPosting(tid: number, textId: number): void {
    const posting = this.postings[tid];
    if (posting.length === 0) this.postings[tid] = [textId];
    else posting.push(textId);
  }

  protected intern(token: string): number {
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

  /** Renumbers live texts once removals (updates re-add texts) have left most slots empty. */
  protected compact(): void {
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
