// Ranked result cards: rank, change against the other column, title, page, snippet. Everything the
// service sent is set as text (textContent), never parsed as HTML.
import type { Mark, ResultItem } from '../../features/answers/retrieval/protocol';
import { markDescription, markLabel } from '../../features/answers/retrieval/rankChanges';
import type { H } from '../shared/dom';

/** A short plain-text snippet: markup removed, whitespace collapsed, cut at a word where possible. */
export function snippetText(text: string, max = 280): string {
  const plain = text
    .replace(/<[^>]*>/g, ' ')
    // eslint-disable-next-line no-control-regex -- control characters are what this strips
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.7 ? cut.slice(0, space) : cut}…`;
}

export function renderResults(h: H, items: readonly ResultItem[], marks: readonly Mark[], open: (index: number) => void): HTMLOListElement {
  return h(
    'ol',
    { class: 'rt-results' },
    ...items.map((item, i) => {
      const mark = marks[i] ?? { kind: 'same' };
      const label = markLabel(mark);
      const description = markDescription(mark);
      return h(
        'li',
        { class: 'rt-card' },
        h(
          'button',
          {
            class: 'rt-open',
            attrs: {
              type: 'button',
              'data-index': i,
              title: 'Open in the citation viewer',
              'aria-label': `${i + 1}. ${item.title}, page ${item.pageNo}${description ? `, ${description}` : ''}. Open in the citation viewer`,
            },
            on: { click: () => open(i) },
          },
          h(
            'span',
            { class: 'rt-card-head' },
            h('span', { class: 'rt-rank' }, String(i + 1)),
            label ? h('span', { class: `rt-mark rt-mark-${mark.kind}`, attrs: { 'data-mark': label } }, label) : null,
            h('span', { class: 'rt-title' }, item.title || '(untitled)'),
            h('span', { class: 'rt-page' }, `p. ${item.pageNo}`),
          ),
          h('span', { class: 'rt-snippet' }, snippetText(item.text)),
        ),
      );
    }),
  );
}
