// lexical-hash-v1 (docs/api.md#text-search-and-lexical-hash-v1): the
// local service's stand-in for embeddings. No embedding weights can be shipped or downloaded, so the "vector"
// scores of retrieval use a hashed bag of character n-grams. It is LEXICAL, not semantic: "car" never
// matches "automobile", 休暇 never matches "vacation". What it adds over BM25 is partial matching — word
// pieces ("reimburse" ~ "reimbursed") and CJK characters ("宿泊費" ~ "宿泊") — without a dictionary.
//
// Features, after NFKC and lower-casing:
// - CJK (Han, Kana, Hangul): every character and every pair of adjacent characters;
// - any other word (letters, marks, digits): the word itself, plus its 3-character pieces when longer;
// hashed (FNV-1a) into 512 dimensions, each dimension's count c becoming 1 + ln(c), then L2-normalised, so
// the dot product of two vectors is their cosine similarity.
import { normalizeText } from './tokenizer';

export const LEXICAL_MODEL = 'lexical-hash-v1';
export const DIMS = 512;

// Sticky, so they test the character at an index without cutting it out of the text.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆ヶヵ]/uy;
const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/uy;
/** Every CJK character above starts with a UTF-16 unit at or above this (Hangul Jamo; surrogates for the rest). */
const FIRST_CJK = 0x1100;
const KIND_WORD = 0x77; // 'w'
const KIND_TRIGRAM = 0x74; // 't'
const KIND_CJK = 0x63; // 'c'
const KIND_PAIR = 0x70; // 'p'

/** The lexical vector of `text` (unit length, or all zeros when it has no word). */
export function lexicalVector(text: string): Float32Array {
  // Walks the text by index (words and CJK pairs are hashed where they lie, without building strings) and
  // classifies ASCII without a regular expression: this runs for every passage indexed.
  const v = new Float32Array(DIMS);
  const s = normalizeText(text);
  let wordStart = -1;
  let prevCjk = -1;
  const flush = (end: number): void => {
    if (wordStart < 0) return;
    bump(v, hash(KIND_WORD, s, wordStart, end));
    if (end - wordStart > 3) for (let i = wordStart; i + 3 <= end; i++) bump(v, hash(KIND_TRIGRAM, s, i, i + 3));
    wordStart = -1;
  };
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    const next = c >= 0xd800 && c <= 0xdbff && isLowSurrogate(s.charCodeAt(i + 1)) ? i + 2 : i + 1; // code points, as for…of
    if (c >= FIRST_CJK && testAt(CJK, s, i)) {
      flush(i);
      bump(v, hash(KIND_CJK, s, i, next));
      if (prevCjk >= 0) bump(v, hash(KIND_PAIR, s, prevCjk, next));
      prevCjk = i;
    } else if (c < 0x80 ? isAsciiWordChar(c) : testAt(WORD_CHAR, s, i)) {
      prevCjk = -1;
      if (wordStart < 0) wordStart = i;
    } else {
      flush(i);
      prevCjk = -1;
    }
    i = next;
  }
  flush(s.length);
  let norm2 = 0;
  for (let i = 0; i < DIMS; i++) {
    if (v[i] > 0) v[i] = 1 + Math.log(v[i]);
    norm2 += v[i] * v[i];
  }
  if (norm2 > 0) {
    const inv = 1 / Math.sqrt(norm2);
    for (let i = 0; i < DIMS; i++) v[i] *= inv;
  }
  return v;
}

/** A query vector as its non-zero dimensions: scoring a passage then costs a few dozen multiplications. */
export interface SparseVector {
  idx: Uint16Array;
  val: Float32Array;
}

export function sparse(v: Float32Array): SparseVector {
  const idx: number[] = [];
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) idx.push(i);
  return { idx: Uint16Array.from(idx), val: Float32Array.from(idx, (i) => v[i]) };
}

/** Cosine of a sparse query vector with a dense unit vector. */
export function cosine(q: SparseVector, v: Float32Array): number {
  let s = 0;
  for (let k = 0; k < q.idx.length; k++) s += q.val[k] * v[q.idx[k]];
  return s;
}

/** Slots per block of VectorColumns: 1,024 × 512 floats = 2 MB. */
const BLOCK = 1024;

/**
 * Passage vectors stored by dimension ("column-major"), in blocks of 1,024 slots. Why: scoring a query
 * against every passage with `cosine` read a few dozen floats scattered over each passage's own 2 KB vector —
 * cache misses that made it the hot spot of fused searches. Here each non-zero query dimension reads one
 * contiguous run of floats per block. Each slot's sum runs over the query dimensions in the same order as
 * `cosine`, in doubles, so the scores are identical to the last bit.
 */
export class VectorColumns {
  private readonly blocks: Float32Array[] = [];

  /** Stores `v` (DIMS values) in `slot`, replacing what was there. */
  set(slot: number, v: Float32Array): void {
    const b = Math.floor(slot / BLOCK);
    while (this.blocks.length <= b) this.blocks.push(new Float32Array(DIMS * BLOCK));
    const block = this.blocks[b];
    const j = slot % BLOCK;
    for (let d = 0; d < DIMS; d++) block[d * BLOCK + j] = v[d];
  }

  /** Every block, one after another (for a snapshot). */
  exportBlocks(): Float32Array {
    const out = new Float32Array(this.blocks.length * DIMS * BLOCK);
    this.blocks.forEach((block, b) => out.set(block, b * DIMS * BLOCK));
    return out;
  }

  /** Replaces the blocks with those `exportBlocks` returned; false if `data` is not whole blocks. */
  restoreBlocks(data: Float32Array): boolean {
    if (data.length % (DIMS * BLOCK) !== 0) return false;
    this.blocks.length = 0;
    for (let at = 0; at < data.length; at += DIMS * BLOCK) this.blocks.push(data.subarray(at, at + DIMS * BLOCK));
    return true;
  }

  /** A copy of the vector in `slot`. */
  get(slot: number): Float32Array {
    const v = new Float32Array(DIMS);
    const block = this.blocks[Math.floor(slot / BLOCK)];
    if (!block) return v;
    const j = slot % BLOCK;
    for (let d = 0; d < DIMS; d++) v[d] = block[d * BLOCK + j];
    return v;
  }

  /** out[slot] += cosine(q, vector of slot) for every slot below out.length (slots never set score 0). */
  scoreAll(q: SparseVector, out: Float64Array): void {
    const { idx, val } = q;
    for (let b = 0; b < this.blocks.length && b * BLOCK < out.length; b++) {
      const block = this.blocks[b];
      const base = b * BLOCK;
      const n = Math.min(BLOCK, out.length - base);
      let k = 0;
      // Four dimensions per pass over the slots (a third fewer cycles); the additions stay in `cosine`'s order.
      for (; k + 4 <= idx.length; k += 4) {
        const [w0, w1, w2, w3] = [val[k], val[k + 1], val[k + 2], val[k + 3]];
        const [c0, c1, c2, c3] = [idx[k] * BLOCK, idx[k + 1] * BLOCK, idx[k + 2] * BLOCK, idx[k + 3] * BLOCK];
        for (let j = 0; j < n; j++)
          out[base + j] = out[base + j] + w0 * block[c0 + j] + w1 * block[c1 + j] + w2 * block[c2 + j] + w3 * block[c3 + j];
      }
      for (; k < idx.length; k++) {
        const w = val[k];
        const col = idx[k] * BLOCK;
        for (let j = 0; j < n; j++) out[base + j] += w * block[col + j];
      }
    }
  }
}

function bump(v: Float32Array, h: number): void {
  v[h % DIMS]++;
}

/** FNV-1a (32 bits) over a kind prefix and the UTF-16 units s[from, to). */
function hash(kind: number, s: string, from: number, to: number): number {
  let h = 0x811c9dc5 ^ kind;
  h = Math.imul(h, 0x01000193);
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function testAt(re: RegExp, s: string, at: number): boolean {
  re.lastIndex = at;
  return re.test(s);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function isAsciiWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}
