// Sentence boundaries for passage splitting and extractive answers (docs/api.md#extractive-answers):
// Intl.Segmenter with granularity "sentence", whose rules also break after every line
// feed, plus merges where it cuts English text after an abbreviation ("Dr. Sato", "Jan. 5", "e.g. this").

export interface Span {
  start: number;
  end: number;
}

const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'cf',
  'no',
  'nos',
  'fig',
  'figs',
  'approx',
  'dept',
  'est',
  'vol',
  'pp',
  'inc',
  'ltd',
  'co',
  'corp',
  'u.s',
  'a.m',
  'p.m',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'mon',
  'tue',
  'wed',
  'thu',
  'fri',
  'sat',
  'sun',
  'ext',
  'tel',
]);
// The word before a final period: "Dr." → dr, "e.g." → e.g, "J." → j.
const LAST_WORD = /(?:^|[\s(「『"'])([\p{L}][\p{L}.]*)\.$/u;

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(locale: string): Intl.Segmenter {
  let s = segmenters.get(locale);
  if (!s) segmenters.set(locale, (s = new Intl.Segmenter(locale, { granularity: 'sentence' })));
  return s;
}

/** Sentences of `text` as trimmed, non-empty character ranges. */
export function sentenceSpans(text: string, locale = 'en'): Span[] {
  const out: Span[] = [];
  let mergeNext = false;
  for (const { segment, index } of segmenter(locale).segment(text)) {
    const span = trimSpan(text, index, index + segment.length);
    if (!span) continue;
    const last = out[out.length - 1];
    const gap = last ? text.slice(last.end, span.start) : '';
    // A merge after an abbreviation never crosses a line break: a heading "Dr." alone on its line stays alone.
    if (mergeNext && last && !gap.includes('\n')) last.end = span.end;
    // A line wrapped inside a sentence (one line feed, no end mark before it, lower case after it) is one sentence:
    // "…sets up single sign-on and\nthe VPN client before noon." answered "the VPN client before noon." alone.
    else if (last && isSoftWrap(gap, text.slice(last.start, last.end), text[span.start])) last.end = span.end;
    else out.push(span);
    mergeNext = endsWithAbbreviation(text.slice(out[out.length - 1].start, out[out.length - 1].end));
  }
  return out;
}

const SENTENCE_END = /[.!?。！？:;]["')\]」』]*$/u;

function isSoftWrap(gap: string, previous: string, next: string): boolean {
  if (gap.split('\n').length !== 2) return false;
  // A heading line ("## Setup", "7.3 Setting the hostname") ends without a mark, but its body is another sentence.
  if (/^#|^\d+(?:\.\d+)*\s/.test(previous.slice(previous.lastIndexOf('\n') + 1))) return false;
  return !SENTENCE_END.test(previous) && /\p{Ll}/u.test(next);
}

function endsWithAbbreviation(sentence: string): boolean {
  const m = LAST_WORD.exec(sentence);
  if (!m) return false;
  const word = m[1].toLowerCase();
  // A single letter before a period is an initial ("J. Smith"), not the end of a sentence.
  return ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word);
}

/** [start, end) without surrounding whitespace, or undefined when only whitespace. */
export function trimSpan(text: string, start: number, end: number): Span | undefined {
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return end > start ? { start, end } : undefined;
}
