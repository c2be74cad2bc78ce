// Finds a cited passage in a page's text, tolerant of what extraction does to text: NFKC (full-width
// letters, CJK compatibility radicals such as ⽉ for 月), case, and whitespace anywhere (PDF lines
// break mid-sentence; Japanese text gains spaces between characters). Pure: unit-tested in jsdom/Node.

export interface Normalized {
  /** The comparable text: NFKC, lower case, no whitespace or invisible characters. */
  text: string;
  /** For each UTF-16 unit of `text`: where its source character starts in the original. */
  starts: number[];
  /** …and where it ends. */
  ends: number[];
}

const IGNORED = /[\s\u00ad\u200b-\u200d\u2060\ufeff]/u;
/** Combining marks, and the half-width (semi-)voiced sound marks ﾞ ﾟ. */
const COMBINING = /^[\p{M}\uff9e\uff9f]$/u;

export function normalizeForMatch(source: string): Normalized {
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < source.length;) {
    // A character with the marks that follow it (ｶﾞ → ガ needs both), normalized together.
    let end = i + String.fromCodePoint(source.codePointAt(i)!).length;
    while (end < source.length && COMBINING.test(String.fromCodePoint(source.codePointAt(end)!)))
      end += String.fromCodePoint(source.codePointAt(end)!).length;
    for (const c of source.slice(i, end).normalize('NFKC').toLowerCase()) {
      if (IGNORED.test(c)) continue;
      text += c;
      for (let u = 0; u < c.length; u++) {
        starts.push(i);
        ends.push(end);
      }
    }
    i = end;
  }
  return { text, starts, ends };
}

export interface PassageRange {
  /** UTF-16 offsets in the original text: [start, end). */
  start: number;
  end: number;
  /** The whole passage matched; otherwise its beginning and end, or its longest matching part. */
  exact: boolean;
}

/** Where `passage` is in `haystack`, or null. */
export function findPassage(haystack: string, passage: string): PassageRange | null {
  const p = normalizeForMatch(passage).text;
  if (!p) return null;
  const h = normalizeForMatch(haystack);
  const range = (from: number, to: number, exact: boolean): PassageRange => ({ start: h.starts[from], end: h.ends[to - 1], exact });

  const at = h.text.indexOf(p);
  if (at >= 0) return range(at, at + p.length, true);

  // The beginning and the end of the passage, not too far apart: the middle differs (a table, a hyphen…).
  const k = Math.min(40, Math.max(8, Math.floor(p.length / 4)));
  if (p.length >= 2 * k) {
    const head = p.slice(0, k);
    const tail = p.slice(-k);
    for (let hs = h.text.indexOf(head); hs >= 0; hs = h.text.indexOf(head, hs + 1)) {
      const ts = h.text.indexOf(tail, hs + k);
      if (ts >= 0 && ts + k - hs <= p.length * 2) return range(hs, ts + k, false);
    }
  }

  // The longest beginning or end of the passage that occurs (the passage runs onto another page).
  const min = Math.min(p.length, 16);
  const prefix = longestOccurring(h.text, (n) => p.slice(0, n), p.length);
  const suffix = longestOccurring(h.text, (n) => p.slice(p.length - n), p.length);
  const best = prefix.length >= suffix.length ? prefix : suffix;
  if (best.length < min) return null;
  return range(best.at, best.at + best.length, false);
}

/** Binary search on the length: if a prefix (suffix) of length n occurs, every shorter one does. */
function longestOccurring(text: string, part: (n: number) => string, max: number): { at: number; length: number } {
  let lo = 0;
  let hi = max;
  let found = { at: -1, length: 0 };
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const at = text.indexOf(part(mid));
    if (at >= 0) {
      found = { at, length: mid };
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}
