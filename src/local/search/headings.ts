// Section headings inside page text, so a passage knows the section it belongs to. Manuals number their
// sections ("4.6.4.1 Stable, testing, and unstable", "7.15. パッケージを…"); Markdown marks them with #.
// A numbered heading sits at a depth (its count of numbers), which gives the heading path: the open heading
// of each depth above it. Contents lines (a title then a page number) are cut out before this sees the text
// (pageNoise.ts), and a line that ends with a page number is not taken as a heading anyway.

export interface Heading {
  /** 1 = chapter, 2 = section…; Markdown: the number of # */
  depth: number;
  text: string;
  /** Offset in the text where the heading line starts. */
  start: number;
}

const NUMBERED = /^[ \t]*(\d{1,3}(?:\.\d{1,3}){0,5})\.?[ \t]+(\S[^\n]{0,118})$/gmu;
const MARKDOWN = /^[ \t]*(#{1,6})[ \t]+(\S[^\n]{0,118})$/gmu;
const ENDS_WITH_PAGE = /[\s.・…]\d{1,4}$/u;

/** The headings of `text`, in order. */
export function findHeadings(text: string): Heading[] {
  const out: Heading[] = [];
  for (const m of text.matchAll(NUMBERED)) {
    const title = m[2].trim();
    if (ENDS_WITH_PAGE.test(title) || !/\p{L}/u.test(title)) continue;
    out.push({ depth: m[1].split('.').length, text: `${m[1]} ${title}`, start: m.index! });
  }
  for (const m of text.matchAll(MARKDOWN)) out.push({ depth: m[1].length, text: m[2].trim(), start: m.index! });
  return out.sort((a, b) => a.start - b.start);
}

/** The open headings of a document as it is read: feed it text in reading order, ask for the path at any point. */
export class HeadingTrail {
  private open: Heading[] = [];

  /** Takes in the headings of `text` up to offset `end` (all of them by default). */
  read(text: string, end = text.length): void {
    for (const h of findHeadings(text)) {
      if (h.start >= end) break;
      this.open = [...this.open.filter((o) => o.depth < h.depth), h];
    }
  }

  /** Outermost first. */
  get path(): string[] {
    return this.open.map((h) => h.text);
  }
}
