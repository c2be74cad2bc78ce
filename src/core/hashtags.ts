// The one reading of hashtags, used by every command, prompt, editor, file import and the local service.
//
// Decisions (see docs/api.md#hashtags):
// - A hashtag is stored without its marks: any number of leading `#` (U+0023) or `＃` (U+FF03, what a
//   Japanese IME types) are stripped, and white space around the tag is trimmed.
// - No Unicode normalization (NFKC) of the value: a tag is kept as typed, so full-width letters stay
//   full-width. Only the `＃` mark is treated as `#`. The local service compares tags with its own folding
//   key where it searches (src/local/faq/faqRecord.ts), which is about matching, not about the stored value.
// - Typed text separates tags with commas (`,` `，` `、`) and white space (also the ideographic space
//   U+3000, which `\s` includes), so a tag never contains a space.
// - Empty tags are dropped; repeated tags are dropped keeping the first, in the order given.

/** Leading hashtag marks, `#` and the full-width `＃`, with any white space between them ("# ＃hr"). */
const MARKS = /^[#＃\s]+/;
/** What separates tags in typed text: commas (ASCII, full-width, ideographic) and any white space. */
const SEPARATORS = /[,，、\s]+/;

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

/** Tags typed as text: "#hr, ＃policy 経費、締め日" → ["hr", "policy", "経費", "締め日"]. */
export function parseHashtags(text: string): string[] {
  return normalizeHashtags(text.split(SEPARATORS));
}
