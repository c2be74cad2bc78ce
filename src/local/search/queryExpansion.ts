// What a search looks for beyond the words of the question (analysis.ts gives their index forms):
// - loanword links (loanwords.ts): ピン留め also looks for "pin", ホスト名 for "host" and, as one compound,
//   "hostname"; "hostname" written in a Japanese question finds ホスト;
// - English synonyms from WordNet (wordnet.ts): "film" also looks for "movie", "software" for "package";
// - Japanese synonyms and spelling variants from Sudachi's dictionary (japaneseSynonyms.ts): 留守 → 不在,
//   行う → 行なう, 取り扱い → 取扱い.
// Each added term stands for the user's word it came from (`sources`) and weighs less than the user's own
// words: a passage holding the user's word is scored on it alone; one holding only an added term gets that
// term's weighted part and counts the word as matched (Bm25Index.score). Measured on the dev set (test/eval,
// docs/local-service.md#synonyms-and-spelling-variants): with the added terms counted that way, WordNet
// synonyms and Sudachi's groups each raised reworded Recall@3 in their language, lexical Recall@3 unchanged;
// WordNet hypernyms and WordNet base forms ("updating" → "update") raised nothing and are left out, and so
// are both dictionaries when an added term does not count as a match.
// Pseudo-relevance feedback (RM3-like: the heaviest terms of the first pass's best passages added for a
// second pass) was measured on the dev set and left out: it lowered first ranks of questions that use the
// page's own words more than it raised reworded ones.
// A question's function words (the stopword list, and hiragana tokens of one or two characters: the particles
// and okurigana pieces Intl.Segmenter cuts a Japanese question into, に, は, て, れ, ば) weigh little and are not
// counted as matched words. Every Japanese passage holds them, and BM25+ gives each matched term a floor and
// multiplies by the number matched, so a passage sharing eight particles outranked the one sharing the
// question's single content word or its synonym (留守 → 不在). Measured on the dev set: reworded ja Recall@3
// 0.222 → 0.333, lexical unchanged (docs/local-service.md#synonyms-and-spelling-variants).
import { indexTermSet } from './analysis';
import { japaneseRelated } from './japaneseSynonyms';
import { loanwordLinks } from './loanwords';
import { isStopword } from './queryTerms';
import { synonyms } from './wordnet';

export interface WeightedQuery {
  terms: string[];
  /** One per term: 1 for the user's own, less for added ones. */
  weights: number[];
  /** One per term: the index (in `terms`) of the user's word it stands for; the user's words are first. */
  sources: number[];
  /** One per term: whether a passage holding it counts it among the question's words it matches (not for
   * function words, unless the question has nothing else). */
  counted: boolean[];
}

const LOANWORD_WEIGHT = 0.6;
const SYNONYM_WEIGHT = 0.3;
/** The same Japanese word written another way (okurigana, kana or kanji): almost the word itself. */
const VARIANT_WEIGHT = 0.8;
const JAPANESE_SYNONYM_WEIGHT = 0.4;
/** Measured 0.2–0.5 (0 lost first ranks of English lexical questions): 0.2 and 0.3 raised the most. */
const FUNCTION_WORD_WEIGHT = 0.2;
const SHORT_HIRAGANA = /^\p{Script=Hiragana}{1,2}$/u;

/** Whether index term `term` of a question carries no meaning of its own (see above). */
export function isFunctionWord(term: string): boolean {
  return isStopword(term) || SHORT_HIRAGANA.test(term);
}

export function expandQuery(query: string): WeightedQuery {
  const terms = indexTermSet(query);
  const weights = terms.map(() => 1);
  const sources = terms.map((_, i) => i);
  const add = (term: string, weight: number, source: number): void => {
    if (terms.includes(term)) return;
    terms.push(term);
    weights.push(weight);
    sources.push(source);
  };
  const own = [...terms];
  const links = own.map((t) => loanwordLinks(t));
  links.forEach((list, i) => list.forEach((t) => add(t, LOANWORD_WEIGHT, i)));
  // Japanese splits a compound the source language writes as one word: ホスト + 名 → hostname.
  for (let i = 0; i + 1 < own.length; i++)
    for (const a of links[i]) for (const b of links[i + 1]) if (/^[a-z]+$/.test(a + b)) add(a + b, LOANWORD_WEIGHT, i);
  own.forEach((t, i) => {
    if (isStopword(t)) return;
    for (const s of synonyms(t)) add(s, SYNONYM_WEIGHT, i);
    const ja = japaneseRelated(t);
    for (const v of ja.variants) add(v, VARIANT_WEIGHT, i);
    for (const s of ja.synonyms) add(s, JAPANESE_SYNONYM_WEIGHT, i);
  });
  const functionWords = own.map(isFunctionWord);
  const counted = terms.map(() => true);
  // Only function words (「それは何?」): all of them count, as before.
  if (functionWords.includes(false))
    terms.forEach((_, k) => {
      if (!functionWords[sources[k]]) return;
      counted[k] = false;
      weights[k] = Math.min(weights[k], FUNCTION_WORD_WEIGHT);
    });
  return { terms, weights, sources, counted };
}
