// The local entity recognizer: shape patterns (EMAIL, URL, PHONE, MONEY, DATE), context heuristics
// (titles, honorifics, company forms), a built-in gazetteer and the phrases taught through
// add_phrase/train. Candidates overlap freely; resolve() keeps the best non-overlapping set.
//
// Offsets are UTF-16 code-unit indexes into `inputText` (JavaScript string indexes), and
// `token === inputText.slice(startIndex, endIndex)` for every entity.
//
// The 2,000-character limit: `inputText` is the first 2,000 code units of the text (1,999 when the
// 2,000th would split a surrogate pair). Patterns look a little past the cut, only so that an entity
// crossing it is recognised whole — and then dropped, together with any shorter match inside it:
// an entity is returned only if it lies entirely inside `inputText`, never cut short.
import { contactCandidates } from './contactPatterns';
import { dateCandidates } from './datePatterns';
import { NLU_TEXT_LIMIT, onWordBoundaries, type Candidate, type RecognizedEntity } from './entity';
import { Gazetteer } from './gazetteer';
import { moneyCandidates } from './moneyPatterns';
import { organizationCandidates, personCandidates } from './namePatterns';
import { builtinEntries } from './seedLexicon';

const LOOKAHEAD = 256;
// A built-in Japanese place or company followed by one of these is part of another word:
// 日本語 (a language), 日本人, 楽天的 (optimistic).
const CJK_COMPOUND_AFTER = /^[語人的]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

export interface Recognition {
  inputText: string;
  entities: RecognizedEntity[];
}

let builtin: Gazetteer | undefined;
/** The built-in gazetteer, built once per process (shared: it never changes). */
export function builtinGazetteer(): Gazetteer {
  return (builtin ??= new Gazetteer(builtinEntries()));
}

/** The first `limit` UTF-16 code units of `text`, one less if the cut would split a surrogate pair. */
export function cutText(text: string, limit = NLU_TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

export class Recognizer {
  constructor(
    /** Phrases taught through add_phrase/train (tier 2: as strong as a date or an amount). */
    private readonly taught: Gazetteer = new Gazetteer(),
    private readonly builtinList: Gazetteer = builtinGazetteer(),
  ) {}

  recognize(text: string, limit = NLU_TEXT_LIMIT): Recognition {
    const inputText = cutText(text, limit);
    const window = text.length > inputText.length ? text.slice(0, inputText.length + LOOKAHEAD) : inputText;
    const kept = resolve(this.candidates(window), window.length).filter((c) => c.end <= inputText.length);
    return {
      inputText,
      entities: kept.map((c) => ({ startIndex: c.start, endIndex: c.end, tag: c.tag, token: inputText.slice(c.start, c.end) })),
    };
  }

  candidates(text: string): Candidate[] {
    const people = personCandidates(text);
    const out: Candidate[] = [
      ...contactCandidates(text),
      ...moneyCandidates(text),
      ...dateCandidates(text),
      ...people,
      ...organizationCandidates(text),
    ];
    for (const m of this.taught.matchAll(text)) out.push({ ...m, tier: 2, rank: 0 });
    for (const m of this.builtinList.matchAll(text)) {
      if (CJK.test(text[m.end - 1]) && CJK_COMPOUND_AFTER.test(text.slice(m.end, m.end + 1))) continue;
      out.push({ ...m, tier: 1, rank: 1 });
    }
    for (const m of namesSeenElsewhere(text, people)) out.push(m);
    return out;
  }
}

/**
 * A name found through its title or honorific is a name elsewhere in the same text too ("Dr. Jane Smith …
 * Smith said", "田中さん … 田中が"): its other occurrences, and the surname of an English full name.
 */
function namesSeenElsewhere(text: string, people: Candidate[]): Candidate[] {
  const names = new Set<string>();
  for (const p of people) {
    const name = text.slice(p.start, p.end);
    names.add(name);
    const last = /\s(\S{3,})$/.exec(name)?.[1];
    if (last && !/\.$/.test(last)) names.add(last);
  }
  const out: Candidate[] = [];
  for (const name of names) {
    if (name.length < 2) continue;
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
      if (onWordBoundaries(text, at, at + name.length)) out.push({ start: at, end: at + name.length, tag: 'PERSON', tier: 1, rank: 2 });
    }
  }
  return out;
}

/** Best non-overlapping candidates, in text order: higher tier, then longer, then higher rank, then earlier. */
export function resolve(candidates: Candidate[], length: number): Candidate[] {
  const sorted = [...candidates].sort(
    (a, b) => b.tier - a.tier || b.end - b.start - (a.end - a.start) || b.rank - a.rank || a.start - b.start,
  );
  const taken = new Uint8Array(length);
  const kept: Candidate[] = [];
  for (const c of sorted) {
    if (c.start < 0 || c.end > length || c.start >= c.end) continue;
    let free = true;
    for (let i = c.start; i < c.end && free; i++) free = taken[i] === 0;
    if (!free) continue;
    taken.fill(1, c.start, c.end);
    kept.push(c);
  }
  return kept.sort((a, b) => a.start - b.start);
}
