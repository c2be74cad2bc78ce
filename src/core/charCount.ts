// Characters as people count them: Unicode code points, so an emoji or a rare kanji outside the Basic
// Multilingual Plane counts once, not as the two UTF-16 units of String.length. Every length limit of
// this project (Q&A fields, hashtags, chat questions) is in this unit.

/** Length in code points. A lone surrogate counts as one. */
export function charCount(text: string): number {
  let n = text.length;
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) {
      const before = text.charCodeAt(i - 1);
      if (before >= 0xd800 && before <= 0xdbff) n--;
    }
  }
  return n;
}

/** The length in code points when it is over `limit`, else undefined; counts only when String.length is over (the common case is free). */
export function charsOver(text: string, limit: number): number | undefined {
  if (text.length <= limit) return undefined;
  const n = charCount(text);
  return n > limit ? n : undefined;
}
