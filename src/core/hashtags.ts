// The one reading of hashtags, used by every command, prompt, editor, filter, file import and the local service.
//
// Decisions (see docs/api.md#hashtags and the README's "Hashtags in text and in Q&A files"):
// - A hashtag is stored without its marks: any number of leading `#` (U+0023) or `＃` (U+FF03, what a
//   Japanese IME types) are stripped, and white space around the tag is trimmed.
// - No Unicode normalization (NFKC) of the value: a tag is kept as typed, so full-width letters stay
//   full-width. Only the `＃` mark is treated as `#`. The local service compares tags with its own folding
//   key where it searches (src/local/faq/faqRecord.ts), which is about matching, not about the stored value.
// - Typed text and file cells separate tags with `,` `;` (and their full-width forms `，` `；`), `、` and line
//   breaks; white space separates only before a `#`/`＃` mark ("#debian #network"). Plain white space stays
//   inside a tag ("debian network" is one tag), which hashtagConcern reports so the file import can warn:
//   spreadsheets hold cells like "debian;network" and "debian network", and splitting the second on its
//   space would turn a typo into two tags nobody asked for.
// - Empty tags are dropped; repeated tags are dropped keeping the first, in the order given.

/** Leading hashtag marks, `#` and the full-width `＃`, with any white space between them ("# ＃hr"). */
const MARKS = /^[#＃\s]+/;
/** What separates tags in typed text: commas, semicolons, `、`, line breaks, and white space before a mark. */
const SEPARATORS = /[,，;；、\r\n\u2028\u2029]+|\s+(?=[#＃])/;
/** Separators in text being typed (global, for the last one): white space before a mark is the separator, the mark is kept. */
const TYPED_SEPARATORS = /[,，;；、\r\n\u2028\u2029]|\s(?=[#＃])/g;
/** Characters expected in a tag: letters, marks, digits, `_`, dashes and a few joiners (`.` `+` `&` `/` `・` `'`). */
const USUAL = /^[\p{L}\p{M}\p{N}\p{Pc}\p{Pd}.+&/・'’]+$/u;
const UNUSUAL_CHAR = /[^\p{L}\p{M}\p{N}\p{Pc}\p{Pd}.+&/・'’]/u;
const SPACE = /\s/;

/** One tag as stored: without leading `#`/`＃` marks, trimmed ("  ＃#経費 " → "経費"); "" when nothing is left. */
export function normalizeHashtag(tag: string): string {
  const t = tag.trim();
  if (t === '') return '';
  const c = t.charCodeAt(0);
  return c === 0x23 || c === 0xff03 ? t.replace(MARKS, '') : t;
}

/** A list of tags: each normalized, empties and repeats dropped, order kept (a list's items are not split). */
export function normalizeHashtags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const tag of tags) {
    const t = normalizeHashtag(tag);
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}

/** Tags typed as text or read from a file's cell: "#hr; ＃policy, 経費、締め日" → ["hr", "policy", "経費", "締め日"]. */
export function parseHashtags(text: string): string[] {
  return normalizeHashtags(text.split(SEPARATORS));
}

/**
 * Text being typed in a hashtag box: the tags finished by a separator, and what is still being typed after
 * the last one ("hr, po" → ["hr"], "po"; "#hr #" → ["hr"], "#").
 */
export function takeTypedHashtags(text: string): { done: string[]; rest: string } {
  let cut = -1;
  let restStart = 0;
  for (const m of text.matchAll(TYPED_SEPARATORS)) {
    cut = m.index;
    restStart = m.index + m[0].length;
  }
  return cut < 0 ? { done: [], rest: text } : { done: parseHashtags(text.slice(0, cut)), rest: text.slice(restStart) };
}

/**
 * Why a parsed tag may not be what the person meant: it holds white space (two tags joined by a space?),
 * or a character hashtags rarely have (a `|`, a quote, a bracket…). Undefined for an ordinary tag.
 */
export function hashtagConcern(tag: string): { kind: 'space' } | { kind: 'character'; char: string } | undefined {
  if (USUAL.test(tag)) return undefined;
  if (SPACE.test(tag)) return { kind: 'space' };
  const char = UNUSUAL_CHAR.exec(tag)?.[0];
  return char === undefined ? undefined : { kind: 'character', char };
}

/** A view's hashtag filter as its description shows it: `#a + #b` (all of them) or `#a | #b` (any of them). */
export function hashtagFilterText(tags: readonly string[], operator: 'and' | 'or' | undefined): string {
  return tags.map((h) => `#${h}`).join(operator === 'and' ? ' + ' : ' | ');
}
