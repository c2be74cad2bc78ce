// The terms of a question that an answer should cover, each weighted by its rarity in the indexed passages
// (rarer terms weigh more). Question words and function words ("how", "the", "ですか") are left out: an
// answer never repeats them, so counting them would only lower every sentence's coverage.
import { tokenize, tokenSet } from './tokenizer';

export interface WeightedTerm {
  term: string;
  weight: number;
}

const STOPWORDS = new Set(
  [
    // English
    'a', 'an', 'the', 'of', 'to', 'in', 'on', 'at', 'by', 'for', 'from', 'with', 'about', 'as', 'into', 'and', 'or', 'but', 'if',
    'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did', 'done', 'have', 'has', 'had', 'can', 'could',
    'should', 'would', 'will', 'shall', 'may', 'might', 'must', 'what', "what's", 'which', 'who', 'whom', 'whose', 'when', 'where',
    'why', 'how', 'i', 'me', 'my', 'we', 'us', 'our', 'you', 'your', 'it', 'its', "it's", 'this', 'that', 'these', 'those', 'there',
    'they', 'them', 'their', 'he', 'she', 'his', 'her', 'him', 'get', 'gets', 'got', 'many', 'much', 'any', 'some', 'please',
    'tell', 'know', 'need', 'so', 'then', 'also', 'than', 'not', 'no', 'yes', 'up', 'out', 'all', 'one',
    // Japanese particles, copulas and question words (as Intl.Segmenter cuts them)
    'は', 'が', 'を', 'に', 'の', 'で', 'と', 'も', 'へ', 'や', 'か', 'な', 'ね', 'よ', 'から', 'まで', 'より', 'です', 'ます',
    'でしょ', 'でしょう', 'ですか', 'ますか', 'する', 'します', 'し', 'て', 'た', 'だ', 'い', 'いる', 'ある', 'あり', 'れ', 'られ',
    'ば', 'どう', 'どの', 'どれ', 'どこ', 'いつ', '何', 'なに', 'なん', '誰', 'だれ', 'なぜ', 'くらい', 'ぐらい', 'ください', '教え',
    'よい', 'いい', 'それ', 'その', 'これ', 'この', 'あれ', 'あの', 'では', 'じゃ', 'ところ', 'こと', 'もの', 'について', 'ついて',
    'たら', 'なら', 'けど', 'よう', 'ため',
  ].map((w) => w.normalize('NFKC')),
);

export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}

/** Distinct content tokens of `query`, weighted by `idf`; only stopwords → all of them (better than nothing). */
export function queryTerms(query: string, idf: (term: string) => number): WeightedTerm[] {
  const all = tokenSet(query);
  const content = all.filter((t) => !STOPWORDS.has(t));
  return (content.length ? content : all).map((term) => ({ term, weight: idf(term) }));
}

/** Content tokens in order of appearance (repeats removed), for follow-up rewriting. */
export function contentTokens(text: string): string[] {
  return [...new Set(tokenize(text).filter((t) => !STOPWORDS.has(t)))];
}
