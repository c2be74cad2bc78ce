// Text that is on a page but is not content: running headers and footers, page numbers, table-of-contents and
// index lines. It stays in the page text (the viewer shows the page as printed) and is kept out of passages,
// so it is never searched, quoted in an answer or highlighted (passages.ts cuts around it).
//
// - Edge lines (the first and last two lines of a page) repeat: a running header or footer is the same line
//   on many pages once digits are masked ("Reference, Release 12.18"), or starts the same way ("CHAPTER 5.
//   SOFTWARE … 5.9. HOW DOES …"), or carries the printed page number, which runs a constant distance from
//   the page's own number ("12 Chapter 3. Duties" on page 20, "3.2. Administrative Duties 13" on page 21).
//   Not for estimated pages (long text cut by size): their edges are body text.
// - A lone page number ("12", "ii", "- 3 -", "Page 4 of 9") at an edge.
// - Table-of-contents lines: the title ("Contents", 目次), dot leaders before a page number ("2.1 Getting started . . . . 5"), or a block of
//   at least five lines numbered like sections (1.1., 3.1.2.) that are not separated by text, as in a plain-text
//   contents list; index lines: a block of short lines in alphabetical order that end in page numbers ("apt-get, 12, 45").
import type { ExtractedPage, Extraction } from '../extract/types';
import type { Span } from './sentences';

const EDGE_LINES = 2;
/** A repeated edge line is a header or footer when it is on this share of pages (and on at least 3). */
const REPEAT_SHARE = 0.2;
/** A shared beginning (the first two words) needs more pages than a whole line. */
const PREFIX_SHARE = 0.3;
/** Printed page numbers are one distance from the page numbers on at least this share of pages. */
const NUMBERED_SHARE = 0.5;
const MAX_EDGE_CHARS = 160;

const PAGE_NUMBER = /^[-–—\s]*(?:page\s+|p\.\s*)?(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s*(?:\/|of)\s*\d{1,4})?[-–—\s]*$/i;
const LEADERS = /(?:[.．·・…‥]\s?){4,}\s*(?:\d{1,4}|[ivxlcdm]{1,7})(?=\s|$)/i;
const CONTENTS_TITLE = /^(?:(?:table\s+of\s+)?contents|index|目\s?次|索\s?引)$/i;
const SECTION_NUMBERED = /^\s*\d{1,3}(?:\.\d{1,3})+\.?\s/;
const ENDS_IN_PAGES = /[\s,，、]\d{1,4}(?:\s*[,，、–-]\s*\d{1,4})*$/;
const LEADING_NUMBER = /^(\d{1,4})(?:\s|$)/;
const TRAILING_NUMBER = /(?:^|\s)(\d{1,4})$/;

interface Line extends Span {
  text: string;
}

const cache = new WeakMap<Extraction, DocumentNoise>();

/** The noise finder of a document (cached per extraction object: the index and the highlights share it). */
export function documentNoise(extraction: Extraction): DocumentNoise {
  let found = cache.get(extraction);
  if (!found) cache.set(extraction, (found = new DocumentNoise(extraction.pages, !extraction.estimatedPages)));
  return found;
}

export class DocumentNoise {
  private readonly whole = new Map<string, number>();
  private readonly prefixes = new Map<string, number>();
  private readonly pageCount: number;
  /** pageNo − printed number, when most pages agree on one; else undefined. */
  private readonly offset: number | undefined;

  constructor(
    pages: readonly ExtractedPage[],
    private readonly realPages: boolean,
  ) {
    this.pageCount = pages.length;
    const offsets = new Map<number, number>();
    if (realPages)
      for (const page of pages) {
        const seen = new Set<string>();
        const pageOffsets = new Set<number>();
        for (const line of edgeLines(page.text)) {
          for (const [map, key] of [
            [this.whole, maskOf(line.text)],
            [this.prefixes, prefixOf(line.text)],
          ] as const)
            if (!seen.has(key)) {
              seen.add(key);
              map.set(key, (map.get(key) ?? 0) + 1);
            }
          for (const n of printedNumbers(line.text)) pageOffsets.add(page.pageNo - n);
        }
        for (const o of pageOffsets) offsets.set(o, (offsets.get(o) ?? 0) + 1);
      }
    let best: [number, number] | undefined;
    for (const entry of offsets) if (!best || entry[1] > best[1]) best = entry;
    // Printed numbers run on (nearly) every page; a heading that ends in a number agrees only by chance.
    this.offset = best && best[1] >= this.needed(NUMBERED_SHARE) ? best[0] : undefined;
  }

  /** Character ranges of the page's text that are not content, in order (whole lines). */
  of(page: ExtractedPage): Span[] {
    const lines = textLines(page.text);
    const noise = new Set<Line>();
    for (const edge of [lines.slice(0, EDGE_LINES), lines.slice(-EDGE_LINES).reverse()])
      for (const line of edge) {
        if (noise.has(line) || !this.isEdgeNoise(line, page.pageNo)) break;
        noise.add(line);
      }
    for (const line of listNoise(page.text, lines)) noise.add(line);
    return lines.filter((l) => noise.has(l)).map(({ start, end }) => ({ start, end }));
  }

  private isEdgeNoise(line: Line, pageNo: number): boolean {
    if (PAGE_NUMBER.test(line.text)) return true;
    if (!this.realPages || line.text.length > MAX_EDGE_CHARS) return false;
    if ((this.whole.get(maskOf(line.text)) ?? 0) >= this.needed(REPEAT_SHARE)) return true;
    if ((this.prefixes.get(prefixOf(line.text)) ?? 0) >= this.needed(PREFIX_SHARE)) return true;
    return this.offset !== undefined && printedNumbers(line.text).some((n) => pageNo - n === this.offset);
  }

  private needed(share: number): number {
    return Math.max(3, Math.ceil(this.pageCount * share));
  }
}

/** Lines with text, trimmed, with their place in the page text. */
function textLines(text: string): Line[] {
  const out: Line[] = [];
  let at = 0;
  for (const raw of text.split('\n')) {
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (body) out.push({ start: at + lead, end: at + lead + body.length, text: body });
    at += raw.length + 1;
  }
  return out;
}

function edgeLines(text: string): Line[] {
  const lines = textLines(text);
  return lines.length <= 2 * EDGE_LINES ? lines : [...lines.slice(0, EDGE_LINES), ...lines.slice(-EDGE_LINES)];
}

function maskOf(line: string): string {
  return line.normalize('NFKC').toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ');
}

function prefixOf(line: string): string {
  return 'prefix:' + maskOf(line).split(' ').slice(0, 2).join(' ');
}

function printedNumbers(line: string): number[] {
  const out: number[] = [];
  for (const re of [LEADING_NUMBER, TRAILING_NUMBER]) {
    const m = re.exec(line.trim());
    if (m) out.push(Number(m[1]));
  }
  return out;
}

/**
 * Index entries are in alphabetical order (at least 80% of neighbours): a table whose rows end in quantities
 * ("Pens 4", "Paper 12") is not.
 */
function alphabetical(lines: Line[]): boolean {
  const firsts = lines.map((l) => l.text.normalize('NFKC').toLowerCase().charAt(0));
  let ordered = 0;
  for (let i = 1; i < firsts.length; i++) if (firsts[i - 1].localeCompare(firsts[i], 'ja') <= 0) ordered++;
  return ordered * 10 >= (firsts.length - 1) * 8;
}

/** Contents and index lines anywhere on the page (see the top of the file). */
function listNoise(text: string, lines: Line[]): Line[] {
  const out = lines.filter((l) => LEADERS.test(l.text) || CONTENTS_TITLE.test(l.text));
  // Blocks: lines not separated by a blank line.
  let block: Line[] = [];
  const flush = (): void => {
    const numbered = block.filter((l) => SECTION_NUMBERED.test(l.text)).length;
    const paged = block.filter((l) => l.text.length <= 80 && !l.text.includes('\t') && ENDS_IN_PAGES.test(l.text));
    const index = paged.length >= 5 && paged.length * 10 >= block.length * 6 && alphabetical(paged);
    if ((numbered >= 5 && numbered * 2 >= block.length) || index) for (const l of block) out.push(l);
    block = [];
  };
  for (const [i, line] of lines.entries()) {
    const prev = lines[i - 1];
    if (prev && /\n[ \t]*\n/.test(text.slice(prev.end, line.start))) flush();
    block.push(line);
  }
  flush();
  return out;
}
