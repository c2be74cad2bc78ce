// What a search looks for beyond the words of the question (analysis.ts gives their index forms): loanword
// links (loanwords.ts). ピン留め also looks for "pin", ホスト名 for "host" and, as one compound, "hostname";
// "hostname" written in a Japanese question finds ホスト. Added terms weigh less than the user's own
// (Bm25Index.score: they add to a passage's score but do not count as matched words).
// Pseudo-relevance feedback (RM3-like: the heaviest terms of the first pass's best passages added for a
// second pass) was measured on the dev set and left out: it lowered first ranks of questions that use the
// page's own words more than it raised reworded ones.
import { indexTermSet } from './analysis';
import { loanwordLinks } from './loanwords';

export interface WeightedQuery {
  terms: string[];
  /** One per term: 1 for the user's own, less for added ones. */
  weights: number[];
}

const LOANWORD_WEIGHT = 0.6;

export function expandQuery(query: string): WeightedQuery {
  const terms = indexTermSet(query);
  const weights = terms.map(() => 1);
  const add = (term: string): void => {
    if (terms.includes(term)) return;
    terms.push(term);
    weights.push(LOANWORD_WEIGHT);
  };
  const own = [...terms];
  const links = own.map((t) => loanwordLinks(t));
  links.forEach((list) => list.forEach(add));
  // Japanese splits a compound the source language writes as one word: ホスト + 名 → hostname.
  for (let i = 0; i + 1 < own.length; i++) for (const a of links[i]) for (const b of links[i + 1]) if (/^[a-z]+$/.test(a + b)) add(a + b);
  return { terms, weights };
}
