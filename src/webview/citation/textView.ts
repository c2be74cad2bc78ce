// A document without a PDF to draw (Markdown, Word, HTML, text…): its pages as text, the cited
// passage marked and scrolled into view. Text only: nothing from the document is parsed as HTML.
import type { CitationStrings } from '../../features/answers/citations/citationStrings';
import type { RenderedReport, TextView as TextViewData } from '../../features/answers/citations/protocol';
import type { H } from '../shared/dom';
import { format, formatNumber } from '../shared/strings';
import { findPassage, type PassageRange } from './passageMatch';

export interface TextMatch {
  pageNo: number;
  range: PassageRange;
}

/** The passage on the cited page first, then on any page; null when it is nowhere. */
export function locatePassage(
  pages: readonly { pageNo: number; text: string }[],
  passage: string,
  citedPage: number | null,
): TextMatch | null {
  if (!passage.trim()) return null;
  const ordered = [...pages].sort((a, b) => (a.pageNo === citedPage ? -1 : b.pageNo === citedPage ? 1 : a.pageNo - b.pageNo));
  let partial: TextMatch | null = null;
  for (const page of ordered) {
    const range = findPassage(page.text, passage);
    if (range?.exact) return { pageNo: page.pageNo, range };
    if (range && (!partial || range.end - range.start > partial.range.end - partial.range.start)) partial = { pageNo: page.pageNo, range };
  }
  return partial;
}

export class TextDocView {
  readonly element: HTMLElement;
  private mark: HTMLElement | null = null;

  constructor(
    private readonly h: H,
    private readonly s: CitationStrings,
  ) {
    this.element = h('div', { class: 'cd-text-doc' });
  }

  /** Renders every page; returns what was drawn. */
  show(data: TextViewData): { report: RenderedReport; note: string | null } {
    const { h, s } = this;
    const num = (n: number): string => formatNumber(n, undefined, this.element.ownerDocument);
    const match = locatePassage(data.pages, data.passageText, data.pageNo);
    let mark: HTMLElement | null = null;
    const sections = data.pages.map((page) => {
      const body = h('div', { class: 'cd-text' });
      if (match && match.pageNo === page.pageNo) {
        const { start, end } = match.range;
        mark = h('mark', { class: 'cd-mark', attrs: { id: 'cited-passage' } }, page.text.slice(start, end));
        body.append(page.text.slice(0, start), mark, page.text.slice(end));
      } else {
        body.append(page.text);
      }
      const cited = page.pageNo === data.pageNo;
      return h(
        'section',
        {
          class: `cd-text-page${cited ? ' cd-cited' : ''}`,
          attrs: { 'aria-label': format(s.page, num(page.pageNo)), 'data-page': page.pageNo },
        },
        h(
          'h2',
          { class: 'cd-text-page-title' },
          format(s.page, num(page.pageNo)),
          cited ? h('span', { class: 'kd-badge' }, s.cited) : null,
        ),
        body,
      );
    });
    this.element.replaceChildren(...sections);
    this.mark = mark;
    let note: string | null = null;
    if (!data.passageText.trim()) note = null;
    else if (!match) note = s.passageNotFoundInText;
    else if (data.pageNo && match.pageNo !== data.pageNo) note = format(s.passageOnOtherPage, num(match.pageNo), num(data.pageNo));
    else if (!match.range.exact) note = s.passageDiffers;
    const shownPage = match?.pageNo ?? data.pageNo ?? data.pages[0]?.pageNo ?? null;
    return {
      note,
      report: {
        view: 'text',
        pageNo: shownPage,
        pageCount: data.pages.length,
        canvas: null,
        scale: null,
        rects: [],
        highlightSource: match ? 'text' : 'none',
        highlightedText: ((mark as HTMLElement | null)?.textContent ?? '').slice(0, 100_000),
        textSample: (data.pages.find((p) => p.pageNo === shownPage)?.text ?? '').slice(0, 300),
        fontProblems: [],
      },
    };
  }

  /** Brings the marked passage (or the cited page) into view; called once the view is in the document. */
  reveal(pageNo: number | null): void {
    const target = this.mark ?? (pageNo !== null ? this.element.querySelector(`[data-page="${pageNo}"]`) : null);
    if (target && typeof (target as HTMLElement).scrollIntoView === 'function') (target as HTMLElement).scrollIntoView({ block: 'center' });
  }
}
