// Pages → passages, the unit of retrieval, answers and highlights. A passage is about 300–800 characters cut
// at paragraph, line or sentence boundaries, so it holds whole sentences; a heading is kept with the text
// that follows it. Splitting is deterministic: the same page always gives the same passages, which lets a
// clue id name a passage by its index on the page (subTextIndex) and be resolved again after a restart.
// Text that is not content (running headers, page numbers, contents lines: pageNoise.ts) is cut around: no
// passage holds any of it, so it is never searched, quoted or highlighted.
import type { ExtractedPage } from '../extract/types';
import { sentenceSpans, trimSpan, type Span } from './sentences';

export const MAX_PASSAGE_CHARS = 800;
export const MIN_PASSAGE_CHARS = 300;

export interface Passage {
  /** 1-based */
  pageNo: number;
  /** 0-based index of the passage on its page */
  subTextIndex: number;
  /** Character range in the page text. */
  start: number;
  end: number;
  text: string;
  /** 0-based lines of the page text the passage spans (inclusive). */
  lineStart: number;
  lineEnd: number;
  /** PDF: indexes of the first and last page.items the passage covers (inclusive). */
  items?: [first: number, last: number];
}

interface Unit extends Span {
  heading: boolean;
}

/** The passages of one page, in reading order; `skip`: ranges of the page text kept out (in order). */
export function pagePassages(page: ExtractedPage, skip: readonly Span[] = []): Passage[] {
  const text = page.text;
  const groups = between(text.length, skip).flatMap((part) => pack(units(text, part.start, part.end)));
  const itemSpans = page.items?.length ? alignItems(page) : undefined;
  return groups.map((g, subTextIndex) => {
    const passage: Passage = {
      pageNo: page.pageNo,
      subTextIndex,
      start: g.start,
      end: g.end,
      text: text.slice(g.start, g.end),
      lineStart: lineOf(text, g.start),
      lineEnd: lineOf(text, g.end - 1),
    };
    if (itemSpans) {
      let first = -1;
      let last = -1;
      itemSpans.forEach((s, i) => {
        if (s && s.start < g.end && s.end > g.start) {
          if (first < 0) first = i;
          last = i;
        }
      });
      if (first >= 0) passage.items = [first, last];
    }
    return passage;
  });
}

/** Number of lines of a page text (blank lines count: they take space on the page too). */
export function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export function lineOf(text: string, offset: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The parts of [0, length) outside the skipped ranges. */
function between(length: number, skip: readonly Span[]): Span[] {
  const out: Span[] = [];
  let at = 0;
  for (const s of skip) {
    if (s.start > at) out.push({ start: at, end: s.start });
    at = Math.max(at, s.end);
  }
  if (at < length) out.push({ start: at, end: length });
  return out;
}

/** Paragraphs of text[from, to); one too long for a passage is cut into lines, then sentences, then at spaces. */
function units(text: string, from: number, to: number): Unit[] {
  const out: Unit[] = [];
  const push = (s: Span | undefined): void => {
    if (s) out.push({ ...s, heading: isHeading(text.slice(s.start, s.end)) });
  };
  for (const para of splitBy(text, /\n[ \t]*\n\s*/g, from, to)) {
    if (para.end - para.start <= MAX_PASSAGE_CHARS) {
      push(para);
      continue;
    }
    for (const line of splitBy(text, /\n/g, para.start, para.end)) {
      if (line.end - line.start <= MAX_PASSAGE_CHARS) {
        push(line);
        continue;
      }
      for (const sentence of sentenceSpans(text.slice(line.start, line.end))) {
        const s = { start: line.start + sentence.start, end: line.start + sentence.end };
        if (s.end - s.start <= MAX_PASSAGE_CHARS) push(s);
        else for (const piece of hardCut(text, s)) push(piece);
      }
    }
  }
  return out;
}

/** Greedy packing up to MAX characters; a trailing heading moves on with its text; a short tail joins the previous passage. */
function pack(list: Unit[]): Span[] {
  const groups: Unit[][] = [];
  let current: Unit[] = [];
  for (const unit of list) {
    if (current.length && unit.end - current[0].start > MAX_PASSAGE_CHARS) {
      const carried: Unit[] = [];
      while (current.length > 1 && current[current.length - 1].heading) carried.unshift(current.pop()!);
      groups.push(current);
      // (a carried heading may push its passage a little past MAX: better than a heading alone)
      current = carried;
    }
    current.push(unit);
  }
  if (current.length) groups.push(current);
  const spans = groups.map((g) => ({ start: g[0].start, end: g[g.length - 1].end }));
  const last = spans[spans.length - 1];
  const prev = spans[spans.length - 2];
  if (prev && last.end - last.start < MIN_PASSAGE_CHARS && last.end - prev.start <= MAX_PASSAGE_CHARS + MIN_PASSAGE_CHARS / 2) {
    prev.end = last.end;
    spans.pop();
  }
  return spans;
}

function isHeading(unit: string): boolean {
  if (/^#{1,6}\s/.test(unit)) return true;
  return unit.length <= 80 && !unit.includes('\n') && !unit.includes('\t') && !/[.!?。！？:：;；、,]["'」』）)]*$/.test(unit);
}

function splitBy(text: string, separator: RegExp, from: number, to: number): Span[] {
  const out: Span[] = [];
  const slice = text.slice(from, to);
  let at = 0;
  for (const m of slice.matchAll(separator)) {
    const s = trimSpan(text, from + at, from + m.index!);
    if (s) out.push(s);
    at = m.index! + m[0].length;
  }
  const s = trimSpan(text, from + at, to);
  if (s) out.push(s);
  return out;
}

/** A sentence longer than a passage (a table row, a run-on list) is cut at a space or 、 near the limit. */
function hardCut(text: string, span: Span): Span[] {
  const out: Span[] = [];
  let start = span.start;
  while (span.end - start > MAX_PASSAGE_CHARS) {
    const window = text.slice(start, start + MAX_PASSAGE_CHARS);
    const at = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\t'), window.lastIndexOf('、') + 1);
    const cut = at > MAX_PASSAGE_CHARS / 2 ? at : MAX_PASSAGE_CHARS;
    const piece = trimSpan(text, start, start + cut);
    if (piece) out.push(piece);
    start += cut;
  }
  const rest = trimSpan(text, start, span.end);
  if (rest) out.push(rest);
  return out;
}

const alignments = new WeakMap<ExtractedPage, Array<Span | undefined>>();

/**
 * Where each PDF text item lies in the page text. The text is the items joined in order with spaces and line
 * breaks added (pdfText.ts), so the non-space characters of both run in step; an item that does not match
 * (which the layout code never produces) is looked up by its text instead, or left unplaced.
 */
export function alignItems(page: ExtractedPage): Array<Span | undefined> {
  const cached = alignments.get(page);
  if (cached) return cached;
  const text = page.text;
  const out: Array<Span | undefined> = [];
  let pos = 0;
  for (const item of page.items ?? []) {
    let start = -1;
    let p = pos;
    let ok = true;
    for (const ch of item.str) {
      if (/\s/.test(ch)) continue;
      while (p < text.length && /\s/.test(text[p])) p++;
      if (text.startsWith(ch, p)) {
        if (start < 0) start = p;
        p += ch.length;
      } else {
        ok = false;
        break;
      }
    }
    if (ok && start >= 0) {
      out.push({ start, end: p });
      pos = p;
      continue;
    }
    const str = item.str.trim();
    const found = str ? text.indexOf(str, pos) : -1;
    if (found >= 0) {
      out.push({ start: found, end: found + str.length });
      pos = found + str.length;
    } else {
      out.push(undefined);
    }
  }
  alignments.set(page, out);
  return out;
}
