// When the document itself cannot be shown: the title, the page number, the passage text, and why.
import type { FallbackView, RenderedReport } from '../../features/answers/citations/protocol';
import type { H } from '../shared/dom';

/** Only http(s) links are ever made clickable. */
export function safeLink(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

export function renderFallback(h: H, data: FallbackView): { element: HTMLElement; report: RenderedReport } {
  const link = safeLink(data.url);
  const element = h(
    'div',
    { class: 'cd-fallback' },
    h('div', { class: 'kd-banner kd-banner-info cd-reason', attrs: { role: 'note' } }, h('span', null, data.reason)),
    h(
      'dl',
      { class: 'cd-facts' },
      h('dt', null, 'Document'),
      h('dd', { class: 'cd-fact-title' }, data.title),
      h('dt', null, 'Page'),
      h('dd', { class: 'cd-fact-page' }, data.pageNo !== null ? String(data.pageNo) : 'not given'),
      link ? h('dt', null, 'Source') : null,
      link ? h('dd', null, h('a', { attrs: { href: link } }, link)) : null,
    ),
    h('h2', null, 'Cited passage'),
    data.passageText.trim()
      ? h('blockquote', { class: 'cd-passage-text' }, data.passageText)
      : h('p', { class: 'kd-muted' }, 'The citation carries no passage text.'),
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
