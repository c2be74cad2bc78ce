// Citation markers in a rendered answer ([1], [2, 3]) become superscript links to the numbered
// sources under it; the sources list itself. All text from the service goes in as text nodes.
import type { ChatStrings } from '../../features/answers/chat/chatStrings';
import { citationKind, citationTitle, citedSnippet, pageLabel, type CitationLabels } from '../../features/answers/chat/citations';
import type { ChatCitation } from '../../features/answers/chat/protocol';
import type { H } from '../shared/dom';
import type { Sanitizer } from '../shared/sanitize';
import { format, formatNumber } from '../shared/strings';

const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
const SKIP = new Set(['CODE', 'PRE', 'A', 'SUP', 'KBD', 'SAMP']);

export interface MarkerTarget {
  /** The citations by index, or undefined while they are not known yet (streaming). */
  citations?: ReadonlyMap<number, ChatCitation>;
  /** Element id of the source `index` in the list. */
  sourceId(index: number): string;
  /** The accessible name of a marker's link ("Source {0}"). */
  markerLabel?: string;
}

/** A citation's kind and page in the page's language. */
export function citationLabels(s: ChatStrings, doc: Document): CitationLabels {
  return {
    kind: { document: s.kindDocument, qna: s.kindQna, web: s.kindWeb },
    page: (n) => format(s.pageNumber, formatNumber(n, undefined, doc)),
  };
}

/** Replaces markers in the text of `root` (not inside code or links); returns the number of links made. */
export function decorateMarkers(root: DocumentFragment | HTMLElement, doc: Document, target: MarkerTarget): number {
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!(n as Text).data.includes('[')) continue;
    if (insideSkipped(n, root)) continue;
    texts.push(n as Text);
  }
  let links = 0;
  for (const text of texts) {
    const data = text.data;
    MARKER.lastIndex = 0;
    if (!MARKER.test(data)) continue;
    MARKER.lastIndex = 0;
    const out = doc.createDocumentFragment();
    let last = 0;
    for (let m = MARKER.exec(data); m; m = MARKER.exec(data)) {
      out.append(data.slice(last, m.index));
      const sup = doc.createElement('sup');
      sup.className = 'kd-cite';
      m[1].split(',').forEach((part, i) => {
        const index = Number(part.trim());
        if (i) sup.append(',');
        const known = target.citations?.has(index);
        if (known) {
          const a = doc.createElement('a');
          a.href = `#${target.sourceId(index)}`;
          a.className = 'kd-cite-link';
          a.dataset.index = String(index);
          if (target.markerLabel) a.setAttribute('aria-label', format(target.markerLabel, index));
          a.textContent = String(index);
          sup.append(a);
          links++;
        } else {
          sup.append(String(index));
        }
      });
      out.append(sup);
      last = m.index + m[0].length;
    }
    out.append(data.slice(last));
    text.replaceWith(out);
  }
  return links;
}

/** Streamed plain text with its complete markers as superscripts (one fragment, appended at once). */
export function markersInText(doc: Document, text: string): Node {
  MARKER.lastIndex = 0;
  if (!MARKER.test(text)) return doc.createTextNode(text);
  const holder = doc.createElement('span');
  holder.textContent = text;
  const fragment = doc.createDocumentFragment();
  fragment.append(holder.firstChild!);
  decorateMarkers(fragment, doc, { sourceId: () => '' });
  return fragment;
}

function insideSkipped(node: Node, root: Node): boolean {
  for (let p = node.parentNode; p && p !== root; p = p.parentNode) if (SKIP.has((p as Element).tagName)) return true;
  return false;
}

/** Cited text without markup, on one line, from the sentence the answer used (a Q&A's text may be HTML). */
export function plainSnippet(sanitizer: Sanitizer, c: ChatCitation, answer: string, max = 240): string {
  if (!c.text) return '';
  const plain = /<\/?[a-z][\w-]*(\s[^>]*)?>/i.test(c.text) ? (sanitizer.sanitizeToFragment(c.text).textContent ?? '') : c.text;
  return citedSnippet(plain, answer, c.index, max);
}

/**
 * The numbered sources under an answer; a click (or Enter) on one opens it (the host runs the viewer). One
 * stop in the Tab order: the arrow keys, Home and End move between the sources (a roving tabindex).
 */
export function sourcesList(
  h: H,
  s: ChatStrings,
  sanitizer: Sanitizer,
  citations: readonly ChatCitation[],
  answer: string,
  sourceId: (index: number) => string,
  open: (c: ChatCitation) => void,
): HTMLElement {
  const items = [...new Map(citations.map((c) => [c.index, c])).values()].sort((a, b) => a.index - b.index);
  const helpId = `${sourceId(0)}-help`;
  const list = h('ol', { class: 'kd-sources-list', attrs: { 'aria-describedby': helpId } });
  const doc = list.ownerDocument;
  const labels = citationLabels(s, doc);
  for (const c of items) {
    const kind = citationKind(c);
    const meta = [labels.kind[kind], pageLabel(c, labels)].filter(Boolean).join(' · ');
    const text = plainSnippet(sanitizer, c, answer);
    const title = citationTitle(c, labels);
    const button = h(
      'button',
      {
        class: 'kd-source',
        attrs: {
          type: 'button',
          'data-index': c.index,
          tabindex: list.childElementCount ? -1 : 0,
          title: c.pageNo ? format(s.openSourcePage, title, formatNumber(c.pageNo, undefined, doc)) : format(s.openSource, title),
        },
        on: { click: () => open(c) },
      },
      h('span', { class: 'kd-source-num', attrs: { 'aria-hidden': 'true' } }, String(c.index)),
      h(
        'span',
        { class: 'kd-source-body' },
        h(
          'span',
          { class: 'kd-source-head' },
          h('span', { class: 'kd-source-title' }, title),
          h('span', { class: `kd-source-kind kd-kind-${kind}` }, meta),
        ),
        text ? h('span', { class: 'kd-source-snippet' }, text) : null,
      ),
    );
    button.setAttribute('aria-label', format(s.sourceLabel, c.index, title, meta));
    list.append(h('li', { class: 'kd-source-item', attrs: { id: sourceId(c.index), value: c.index } }, button));
  }
  rovingFocus(list);
  return h(
    'section',
    { class: 'kd-sources', attrs: { 'aria-label': s.sources } },
    h('h3', { class: 'kd-sources-title' }, format(s.sourcesCount, formatNumber(items.length, undefined, doc))),
    h('span', { class: 'kd-visually-hidden', attrs: { id: helpId } }, s.sourceListHelp),
    list,
  );
}

/** Arrow keys, Home and End move the focus between the buttons of `list`; Tab enters at the last one focused. */
function rovingFocus(list: HTMLElement): void {
  const buttons = (): HTMLElement[] => Array.from(list.querySelectorAll<HTMLElement>('.kd-source'));
  list.addEventListener('focusin', (e) => {
    const current = (e.target as Element).closest?.('.kd-source');
    if (current) for (const b of buttons()) b.tabIndex = b === current ? 0 : -1;
  });
  list.addEventListener('keydown', (e) => {
    const all = buttons();
    const at = all.indexOf((e.target as Element).closest?.('.kd-source') as HTMLElement);
    if (at < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
    const to =
      e.key === 'ArrowDown' || e.key === 'ArrowRight'
        ? Math.min(all.length - 1, at + 1)
        : e.key === 'ArrowUp' || e.key === 'ArrowLeft'
          ? Math.max(0, at - 1)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? all.length - 1
              : -1;
    if (to < 0) return;
    e.preventDefault();
    all[to].focus();
  });
}
