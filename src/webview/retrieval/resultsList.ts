// Ranked result cards: rank, change against the other column, title, page, snippet. Everything the
// service sent is set as text (textContent), never parsed as HTML. One card of a list is in the tab order;
// the arrow keys, Home and End move between cards (a roving tab stop), Enter or Space opens one.
import type { Mark, ResultItem } from '../../features/answers/retrieval/protocol';
import { markLabel } from '../../features/answers/retrieval/rankChanges';
import type { RetrievalStrings } from '../../features/answers/retrieval/retrievalStrings';
import type { H } from '../shared/dom';
import { format, formatNumber } from '../shared/strings';

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

/** What the card shows for a mark ("↑2", "new", "only A"), in the display language. */
export function markText(mark: Mark, s: RetrievalStrings): string {
  if (mark.kind === 'new') return s.markNew;
  if (mark.kind === 'dropped') return s.markOnlyA;
  return markLabel(mark);
}

/** The words a screen reader says for a mark. */
export function markDescription(mark: Mark, s: RetrievalStrings): string {
  switch (mark.kind) {
    case 'up':
      return mark.by === 1 ? s.oneHigher : format(s.higher, mark.by);
    case 'down':
      return mark.by === 1 ? s.oneLower : format(s.lower, mark.by);
    case 'new':
      return s.notInA;
    case 'dropped':
      return s.notInB;
    case 'same':
      return '';
  }
}

const MOVES: Record<string, (i: number, n: number) => number> = {
  ArrowDown: (i, n) => Math.min(n - 1, i + 1),
  ArrowRight: (i, n) => Math.min(n - 1, i + 1),
  ArrowUp: (i) => Math.max(0, i - 1),
  ArrowLeft: (i) => Math.max(0, i - 1),
  Home: () => 0,
  End: (_i, n) => n - 1,
};

export function renderResults(
  h: H,
  s: RetrievalStrings,
  items: readonly ResultItem[],
  marks: readonly Mark[],
  open: (index: number) => void,
): HTMLOListElement {
  const doc = h('span').ownerDocument;
  const buttons: HTMLButtonElement[] = [];
  const focus = (i: number): void => {
    buttons.forEach((b, j) => (b.tabIndex = j === i ? 0 : -1));
    buttons[i]?.focus();
  };
  const list = h(
    'ol',
    { class: 'rt-results' },
    ...items.map((item, i) => {
      const mark = marks[i] ?? { kind: 'same' };
      const label = markText(mark, s);
      const description = markDescription(mark, s);
      const rank = formatNumber(i + 1, undefined, doc);
      const page = formatNumber(item.pageNo, undefined, doc);
      const title = item.title || s.untitled;
      const button = h(
        'button',
        {
          class: 'rt-open',
          attrs: {
            type: 'button',
            'data-index': i,
            tabindex: i === 0 ? 0 : -1,
            title: s.openInViewer,
            'aria-label': description
              ? format(s.resultLabelMoved, rank, title, page, description)
              : format(s.resultLabel, rank, title, page),
          },
          on: {
            click: () => {
              buttons.forEach((b, j) => (b.tabIndex = j === i ? 0 : -1));
              open(i);
            },
            keydown: (e) => {
              const move = MOVES[e.key];
              if (!move || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
              e.preventDefault();
              focus(move(i, buttons.length));
            },
          },
        },
        h(
          'span',
          { class: 'rt-card-head' },
          h('span', { class: 'rt-rank' }, rank),
          label ? h('span', { class: `rt-mark rt-mark-${mark.kind}`, attrs: { 'data-mark': markLabel(mark) } }, label) : null,
          h('span', { class: 'rt-title' }, title),
          h('span', { class: 'rt-page' }, format(s.page, page)),
        ),
        h('span', { class: 'rt-snippet' }, snippetText(item.text)),
      );
      buttons.push(button);
      return h('li', { class: 'rt-card' }, button);
    }),
  );
  return list;
}
