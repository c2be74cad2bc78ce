// Index terms of document retrieval: the tokenizer's tokens (tokenizer.ts), each reduced to a form that its
// variants share, so a question matches a page that writes the same word another way:
// - a katakana word of four or more characters loses a final long-vowel mark: サーバー and サーバ, コンピューター
//   and コンピュータ are written both ways (JIS Z 8301 drops the mark, most prose keeps it);
// - NFKC (in the tokenizer) already folds full-width and half-width forms.
// English stemming (Porter, npm `stemmer`) was measured on the dev set (test/eval) and left out: it lost as
// many first ranks as it gained (docs/local-service.md#retrieval-and-answer-rules).
// Only document retrieval uses these terms; Q&A search keeps the plain tokens (faqIndex.ts).
import { tokenize } from './tokenizer';

const KATAKANA_LONG = /^[\p{Script=Katakana}ー]{3,}ー$/u;

/** The index form of one token (a token from `tokenize`, already NFKC and lower case). */
export function termOf(token: string): string {
  return KATAKANA_LONG.test(token) ? token.slice(0, -1) : token;
}

/** Every index term of `text` in order, repeats kept (BM25 needs term frequencies). */
export function indexTerms(text: string): string[] {
  return tokenize(text).map(termOf);
}

/** The distinct index terms of `text`, in first-occurrence order. */
export function indexTermSet(text: string): string[] {
  return [...new Set(indexTerms(text))];
}
