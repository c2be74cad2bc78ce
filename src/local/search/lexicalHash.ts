// lexical-hash-v1 (decisions.md, "Local service specifics"; notes/local-service-engines.md, "Vectors"): the
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

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆ヶヵ]/u;
const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;

/** The lexical vector of `text` (unit length, or all zeros when it has no word). */
export function lexicalVector(text: string): Float32Array {
  const v = new Float32Array(DIMS);
  let word = '';
  let prevCjk = '';
  const flush = (): void => {
    if (!word) return;
    bump(v, hash('w', word));
    if (word.length > 3) for (let i = 0; i + 3 <= word.length; i++) bump(v, hash('t', word.slice(i, i + 3)));
    word = '';
  };
  for (const ch of normalizeText(text)) {
    if (CJK.test(ch)) {
      flush();
      bump(v, hash('c', ch));
      if (prevCjk) bump(v, hash('p', prevCjk + ch));
      prevCjk = ch;
    } else if (WORD_CHAR.test(ch)) {
      prevCjk = '';
      word += ch;
    } else {
      flush();
      prevCjk = '';
    }
  }
  flush();
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

function bump(v: Float32Array, h: number): void {
  v[h % DIMS]++;
}

/** FNV-1a (32 bits) over a kind prefix and the feature's UTF-16 units. */
function hash(kind: string, feature: string): number {
  let h = 0x811c9dc5 ^ kind.charCodeAt(0);
  h = Math.imul(h, 0x01000193);
  for (let i = 0; i < feature.length; i++) {
    h ^= feature.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
