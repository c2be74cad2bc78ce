// The data of the Q&A search engine (faqIndex.ts holds the search): texts as interned token ids, postings,
// document frequencies and cached idf² and norms, kept in step by put and remove, and saved to and restored
// from an index snapshot (faqIndexState.ts).
//
// Texts are laid out flat: the token ids of every text one after another in one Int32Array, each text an
// offset and a length into it, and a Q&A's texts are consecutive (its first text id and how many). So a
// restore is a few typed-array views of the snapshot and one pass to build the postings, instead of one
// array per text and per Q&A (at 100,000 Q&As those took seconds to make and kept the collector busy).
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
  /** The distinct token ids of every text, text after text (text slots removed stay until compaction). */
  protected tokenData: Int32Array<ArrayBufferLike> = new Int32Array(4096);
  /** Used length of tokenData. */
  protected tokenUsed = 0;
  /** Per text: where its tokens start in tokenData, and how many. */
  protected textStart = new Int32Array(1024);
  protected textLength = new Int32Array(1024);
  /** Text slots handed out (live or removed). */
  protected textCount = 0;
  protected textFaq: string[] = [];
  /** Per Q&A: its first text (-1: none); its texts are the next `faqSpan[first]` slots. */
  protected readonly byFaq = new Map<string, number>();
  protected faqSpan = new Int32Array(1024);
  protected live = 0;
  /** Bumped on every change; cached idf² values from older epochs are stale. */
  protected epoch = 1;
  /** Per text: 1 while indexed (removed texts stay in the postings until compaction; searches skip them). */
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
    const first = this.textCount;
    for (const text of [faq.question, ...faq.similarQuestions]) {
      const tokens = tokenSet(text);
      if (tokens.length === 0) continue;
      const textId = this.textCount++;
      if (textId >= this.alive.length) this.growTexts(textId + 1);
      if (this.tokenUsed + tokens.length > this.tokenData.length)
        this.tokenData = growTo(this.tokenData, this.tokenUsed + tokens.length, Int32Array);
      this.textStart[textId] = this.tokenUsed;
      this.textLength[textId] = tokens.length;
      for (const token of tokens) {
        const tid = this.intern(token);
        this.df[tid]++;
        this.addPosting(tid, textId);
        this.tokenData[this.tokenUsed++] = tid;
      }
      this.alive[textId] = 1;
      this.textFaq.push(faq.id);
      this.live++;
    }
    const span = this.textCount - first;
    for (let textId = first; textId < this.textCount; textId++) this.shared[textId] = span > 1 ? 1 : 0;
    if (span > this.mostTexts) this.mostTexts = span;
    // A Q&A without any word (only symbols) has no text: it is known (-1) but never found by a search.
    this.byFaq.set(faq.id, span > 0 ? first : -1);
    if (span > 0) this.faqSpan[first] = span;
    this.epoch++;
  }

  /** Drops a Q&A (deleted or turned off). */
  remove(faqId: string): void {
    const first = this.byFaq.get(faqId);
    if (first === undefined) return;
    this.byFaq.delete(faqId);
    if (first < 0) return;
    for (let textId = first; textId < first + this.faqSpan[first]; textId++) this.alive[textId] = 0;
    for (let textId = first; textId < first + this.faqSpan[first]; textId++) {
      this.live--;
      const start = this.textStart[textId];
      for (let i = start; i < start + this.textLength[textId]; i++) {
        const tid = this.tokenData[i];
        this.df[tid]--;
        const posting = this.postings[tid];
        if (posting.length > 2 * this.df[tid] + 16) this.postings[tid] = posting.filter((id) => this.alive[id] === 1);
      }
    }
    this.epoch++;
    if (this.textCount > 3 * this.live + 4096) this.compact();
  }

  /** The live texts for a snapshot (faqIndexState.ts): token strings by id, and each Q&A's texts as token ids. */
  exportState(): FaqIndexState {
    const faqIds: string[] = [];
    const texts = new Int32Array(this.byFaq.size);
    let textTotal = 0;
    let tokenTotal = 0;
    for (const [faqId, first] of this.byFaq) {
      if (first < 0) continue; // no text: indexed again (as nothing) at the next start
      texts[faqIds.length] = this.faqSpan[first];
      faqIds.push(faqId);
      textTotal += this.faqSpan[first];
      for (let t = first; t < first + this.faqSpan[first]; t++) tokenTotal += this.textLength[t];
    }
    const lengths = new Int32Array(textTotal);
    const tokenIds = new Int32Array(tokenTotal);
    let text = 0;
    let at = 0;
    for (const first of this.byFaq.values()) {
      if (first < 0) continue;
      for (let t = first; t < first + this.faqSpan[first]; t++) {
        const start = this.textStart[t];
        lengths[text++] = this.textLength[t];
        tokenIds.set(this.tokenData.subarray(start, start + this.textLength[t]), at);
        at += this.textLength[t];
      }
    }
    return { tokens: [...this.tokenIds.keys()], faqIds, texts: texts.slice(0, faqIds.length), lengths, tokenIds };
  }

  /**
   * Loads what `exportState` returned into this empty index (FaqIndexState is checked by its decoder). The
   * state's arrays are used as they are, not copied: the caller hands them over.
   */
  protected restoreState(state: FaqIndexState): void {
    for (const token of state.tokens) this.intern(token);
    const textTotal = state.lengths.length;
    this.growTexts(textTotal);
    this.tokenData = state.tokenIds;
    this.tokenUsed = state.tokenIds.length;
    this.textLength.set(state.lengths);
    let at = 0;
    for (let t = 0; t < textTotal; t++) {
      this.textStart[t] = at;
      at += state.lengths[t];
    }
    const textFaq = new Array<string>(textTotal);
    let text = 0;
    for (let i = 0; i < state.faqIds.length; i++) {
      const faqId = state.faqIds[i];
      const span = state.texts[i];
      this.byFaq.set(faqId, text);
      this.faqSpan[text] = span;
      if (span > this.mostTexts) this.mostTexts = span;
      for (let n = 0; n < span; n++) {
        this.shared[text] = span > 1 ? 1 : 0;
        textFaq[text++] = faqId;
      }
    }
    this.textFaq = textFaq;
    this.textCount = textTotal;
    this.live = textTotal;
    this.alive.fill(1, 0, textTotal);
    this.buildPostings();
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
        this.df = growTo(this.df, tid + 1, Int32Array);
        this.idf2 = growTo(this.idf2, tid + 1, Float64Array);
        this.idfEpoch = growTo(this.idfEpoch, tid + 1, Int32Array);
      }
    }
    return tid;
  }

  /** Renumbers live texts once removals (updates re-add texts) have left most slots empty. */
  protected compact(): void {
    let textTotal = 0;
    let tokenTotal = 0;
    for (const first of this.byFaq.values()) {
      if (first < 0) continue;
      textTotal += this.faqSpan[first];
      for (let t = first; t < first + this.faqSpan[first]; t++) tokenTotal += this.textLength[t];
    }
    const size = Math.max(1024, textTotal * 2);
    const tokenData = new Int32Array(Math.max(4096, tokenTotal * 2));
    const textStart = new Int32Array(size);
    const textLength = new Int32Array(size);
    const faqSpan = new Int32Array(size);
    const textFaq: string[] = [];
    let at = 0;
    for (const [faqId, first] of this.byFaq) {
      if (first < 0) continue;
      const span = this.faqSpan[first];
      const next = textFaq.length;
      this.byFaq.set(faqId, next);
      faqSpan[next] = span;
      for (let t = first; t < first + span; t++) {
        const start = this.textStart[t];
        textStart[textFaq.length] = at;
        textLength[textFaq.length] = this.textLength[t];
        tokenData.set(this.tokenData.subarray(start, start + this.textLength[t]), at);
        at += this.textLength[t];
        textFaq.push(faqId);
      }
    }
    Object.assign(this, { tokenData, textStart, textLength, faqSpan, textFaq, tokenUsed: at, textCount: textFaq.length });
    this.alive = new Uint8Array(size);
    this.alive.fill(1, 0, textFaq.length);
    this.shared = new Uint8Array(size);
    for (const first of this.byFaq.values()) if (first >= 0 && faqSpan[first] > 1) this.shared.fill(1, first, first + faqSpan[first]);
    this.norm2 = new Float64Array(size);
    this.normEpoch = new Int32Array(size);
    this.buildPostings();
    this.epoch++;
  }

  /** Every live text's posting entries, in text order, each posting allocated at its final size. */
  private buildPostings(): void {
    const counts = new Int32Array(this.postings.length);
    const data = this.tokenData;
    for (let i = 0; i < this.tokenUsed; i++) counts[data[i]]++;
    const postings: number[][] = new Array<number[]>(counts.length);
    for (let tid = 0; tid < counts.length; tid++) {
      this.df[tid] = counts[tid];
      postings[tid] = counts[tid] === 0 ? [] : new Array<number>(counts[tid]).fill(0);
    }
    counts.fill(0);
    for (let t = 0; t < this.textCount; t++) {
      const start = this.textStart[t];
      for (let i = start; i < start + this.textLength[t]; i++) postings[data[i]][counts[data[i]]++] = t;
    }
    this.postings = postings;
  }

  private growTexts(min: number): void {
    this.alive = growTo(this.alive, min, Uint8Array);
    this.shared = growTo(this.shared, min, Uint8Array);
    this.norm2 = growTo(this.norm2, min, Float64Array);
    this.normEpoch = growTo(this.normEpoch, min, Int32Array);
    this.textStart = growTo(this.textStart, min, Int32Array);
    this.textLength = growTo(this.textLength, min, Int32Array);
    this.faqSpan = growTo(this.faqSpan, min, Int32Array);
  }
}

/** `array`, or a copy with room for at least `min` elements (doubling). */
function growTo<T extends Int32Array | Float64Array | Uint8Array>(array: T, min: number, Type: { new (length: number): T }): T {
  if (array.length >= min) return array;
  const next = new Type(Math.max(min, array.length * 2));
  next.set(array);
  return next;
}
