// The searchTerm grammar of Q&A filter and candidate listing (docs/api.md#list-qas): terms separated by spaces must all
// appear (AND); the word OR between terms separates alternatives; each term is an exact substring match.
// `vpn setup OR 経費 精算` = (vpn AND setup) OR (経費 AND 精算). Matching is case-insensitive after NFKC, so
// full-width and half-width forms match each other. A quoted "two words" is one term, spaces included.
import { normalizeText } from '../search/tokenizer';

/** Alternatives, each a list of terms that must all appear; empty = no condition. */
export type TermQuery = string[][];

export function parseTermQuery(searchTerm: string | undefined): TermQuery {
  if (!searchTerm) return [];
  const groups: string[][] = [[]];
  // NFKC first so an ideographic space (U+3000) separates terms too; OR is recognised before lower-casing.
  for (const m of searchTerm.normalize('NFKC').matchAll(/"([^"]*)"|(\S+)/g)) {
    if (m[2] === 'OR') {
      groups.push([]);
      continue;
    }
    const term = normalizeText(m[1] ?? m[2]).trim();
    if (term) groups[groups.length - 1].push(term);
  }
  return groups.filter((g) => g.length > 0);
}

/** True when `haystack` (already normalised with normalizeText) satisfies the query. */
export function matchesTerms(query: TermQuery, haystack: string): boolean {
  if (query.length === 0) return true;
  return query.some((terms) => terms.every((term) => haystack.includes(term)));
}
