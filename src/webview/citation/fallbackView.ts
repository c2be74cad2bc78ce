// When the document itself cannot be shown: the title, the page number, the passage text, and why.
import type { CitationStrings } from '../../features/answers/citations/citationStrings';
import type { FallbackView, RenderedReport } from '../../features/answers/citations/protocol';
import { urlWithScheme, WEB_SCHEMES } from '../../core/urls';
import type { H } from '../shared/dom';
import { formatNumber } from '../shared/strings';

export function renderFallback(
  h: H,
  s: CitationStrings,
  data: FallbackView,
  doc: Document,
): { element: HTMLElement; report: RenderedReport } {
  // Only http(s) links are ever made clickable (the host checked already; the page does not rely on it).
  const link = urlWithScheme(data.url, WEB_SCHEMES) ?? null;
  const element = h(
    'div',
    { class: 'cd-fallback' },
    h('div', { class: 'kd-banner kd-banner-info cd-reason', attrs: { role: 'note' } }, h('span', null, data.reason)),
    h(
      'dl',
      { class: 'cd-facts' },
      h('dt', null, s.document),
      h('dd', { class: 'cd-fact-title' }, data.title),
      h('dt', null, s.pageLabel),
      h('dd', { class: 'cd-fact-page' }, data.pageNo !== null ? formatNumber(data.pageNo, undefined, doc) : s.notGiven),
      link ? h('dt', null, s.source) : null,
      link ? h('dd', null, h('a', { attrs: { href: link } }, link)) : null,
    ),
    h('h2', null, s.citedPassage),
    data.passageText.trim()
      ? h('blockquote', { class: 'cd-passage-text' }, data.passageText)
      : h('p', { class: 'kd-muted' }, s.noPassageText),
  );
  return {
    element,
    report: { ...emptyReport('fallback'), pageNo: data.pageNo, textSample: data.passageText.slice(0, 300) },
  };
}

/** What a page reports when it drew nothing of a document: no page, no canvas, no highlight. */
export function emptyReport(view: RenderedReport['view']): RenderedReport {
  return {
    view,
    pageNo: null,
    pageCount: null,
    canvas: null,
    scale: null,
    rects: [],
    highlightSource: 'none',
    highlightedText: '',
    textSample: '',
    fontProblems: [],
  };
}
