// Shared shapes of the local entity recognizer (docs/api.md#entity-recognition).
//
// Offsets everywhere in src/local/nlu are UTF-16 code-unit indexes, i.e. JavaScript string indexes:
// an emoji before an entity counts 2. `token === inputText.slice(startIndex, endIndex)` always holds.

/** Characters (UTF-16 code units, the unit of the offsets) the service considers; the rest is ignored. */
export const NLU_TEXT_LIMIT = 2000;

export interface RecognizedEntity {
  startIndex: number;
  endIndex: number;
  tag: string;
  token: string;
}

/**
 * A possible entity before overlaps are resolved. Overlaps go to the higher `tier`, then the longer
 * span, then the higher `rank`, then the earlier start:
 * - tier 3: EMAIL, URL (their shape is unambiguous);
 * - tier 2: MONEY, PHONE, DATE and phrases taught through add_phrase/train;
 * - tier 1: the built-in gazetteer and the name/organisation heuristics (rank: heuristic with context 3,
 *   a name seen elsewhere in the same text 2, built-in list 1).
 */
export interface Candidate {
  start: number;
  end: number;
  tag: string;
  tier: 1 | 2 | 3;
  rank: number;
}

export type Matcher = (text: string) => Candidate[];

/** Every match of a global expression as a candidate; `group` picks a capture group as the span. */
export function regexCandidates(
  re: RegExp,
  text: string,
  tag: string,
  tier: Candidate['tier'],
  rank = 0,
  group = 0,
  accept?: (m: RegExpExecArray) => boolean,
): Candidate[] {
  const out: Candidate[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    if (accept && !accept(m)) continue;
    const value = m[group];
    if (!value) continue;
    // With the d flag the group's own indices are exact; otherwise the group is found inside the match.
    const start = m.indices?.[group]?.[0] ?? m.index + m[0].indexOf(value);
    out.push({ start, end: start + value.length, tag, tier, rank });
  }
  return out;
}

// Edges that need a word boundary: a Latin (Greek, Cyrillic) letter or digit must not touch another one
// ("Tokyo" is not in "Tokyoite"), a katakana character must not touch another katakana ("タイ" is not in
// "タイトル"). Kanji and hiragana edges need none: Japanese has no spaces, and 東京 is in 東京都内.
const SPACED = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}_]/u;
const KATAKANA = /[\p{Script=Katakana}ー]/u;

function edgeClass(ch: string | undefined): 'spaced' | 'kana' | undefined {
  if (!ch) return undefined;
  if (SPACED.test(ch)) return 'spaced';
  if (KATAKANA.test(ch)) return 'kana';
  return undefined;
}

/** True when text[start, end) does not continue a word of its own kind on either side. */
export function onWordBoundaries(text: string, start: number, end: number): boolean {
  const first = edgeClass(text[start]);
  if (first && first === edgeClass(text[start - 1])) return false;
  const last = edgeClass(text[end - 1]);
  if (last && last === edgeClass(text[end])) return false;
  return true;
}
