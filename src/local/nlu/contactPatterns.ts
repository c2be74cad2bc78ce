// EMAIL, URL and PHONE by their shape.
import { regexCandidates, type Candidate } from './entity';

// local@domain.tld; the domain ends in letters, and a sentence's final period stays outside.
const EMAIL =
  /(?<![\w.%+-])[A-Za-z0-9][\w.%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}(?![\w-])/g;

// http(s)/ftp URLs and www. hosts, printable ASCII only: in Japanese prose a URL is usually followed
// directly by the sentence (https://example.comをご覧ください).
const URL_RE = /(?:\b(?:https?|ftp):\/\/|(?<![\w.])www\.)[^\s<>"`\u0080-\uFFFF]+/gi;

export function contactCandidates(text: string): Candidate[] {
  return [...emailCandidates(text), ...urlCandidates(text), ...phoneCandidates(text)];
}

export function emailCandidates(text: string): Candidate[] {
  return regexCandidates(EMAIL, text, 'EMAIL', 3);
}

export function urlCandidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  URL_RE.lastIndex = 0;
  for (let m = URL_RE.exec(text); m; m = URL_RE.exec(text)) {
    const end = m.index + trimUrl(m[0]).length;
    // Something must be left after the scheme or "www.".
    if (!/^(?:[a-z]+:\/\/|www\.)[A-Za-z0-9[]/i.test(text.slice(m.index, end))) continue;
    out.push({ start: m.index, end, tag: 'URL', tier: 3, rank: 0 });
  }
  return out;
}

/** Drops trailing sentence punctuation and closing brackets that have no opening one in the URL. */
function trimUrl(url: string): string {
  let end = url.length;
  for (;;) {
    const ch = url[end - 1];
    if (/[.,;:!?'*]/.test(ch)) end--;
    else if ((ch === ')' || ch === ']' || ch === '}') && count(url.slice(0, end), ch) > count(url.slice(0, end), OPEN[ch])) end--;
    else break;
  }
  return url.slice(0, end);
}

const OPEN: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
const count = (s: string, ch: string): number => s.split(ch).length - 1;

// Separators between digit groups: ASCII hyphen and the dashes Japanese text uses (‐ ‑ – − －).
const SEP = '[-‐‑–−－]';
const PHONES: Array<{ re: RegExp; digits: [number, number] }> = [
  // International: +81 3-1234-5678, +81-90-1234-5678, +1 (415) 555-0123, +44 20 7946 0958.
  { re: /(?<![\w+])\+\d{1,3}(?:[ .-]?(?:\(\d{1,4}\)|\d{1,5})){2,5}(?![\w-])/g, digits: [8, 15] },
  // North American: (415) 555-0123, 415-555-0123, 415.555.0123.
  { re: /(?<![\w+\-.])(?:\(\d{3}\) ?|\d{3}[-.])\d{3}[-.]\d{4}(?![\w-])/g, digits: [10, 10] },
  // Japanese, hyphenated: 03-1234-5678, 090-1234-5678, 0120-123-456, 0466-12-3456.
  { re: new RegExp(`(?<![\\w+\\-.])0\\d{1,4}${SEP}\\d{1,4}${SEP}\\d{3,4}(?![\\w\\-])`, 'g'), digits: [10, 11] },
  // Japanese, with the area code in brackets: (03) 1234-5678, 03(1234)5678.
  { re: new RegExp(`(?<![\\w+\\-.])(?:\\(0\\d{1,4}\\) ?\\d{1,4}${SEP}|0\\d{1,4}\\(\\d{1,4}\\))\\d{4}(?![\\w\\-])`, 'g'), digits: [10, 11] },
];

export function phoneCandidates(text: string): Candidate[] {
  return PHONES.flatMap(({ re, digits: [min, max] }) =>
    regexCandidates(re, text, 'PHONE', 2, 0, 0, (m) => {
      const n = m[0].replace(/\D/g, '').length;
      return n >= min && n <= max;
    }),
  );
}
