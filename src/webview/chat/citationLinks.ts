// Citation markers in a rendered answer ([1], [2, 3]) become superscript links to the numbered
// sources under it; the sources list itself. All text from the service goes in as text nodes.
import { citationKind, citationTitle, citedSnippet, KIND_LABEL, pageLabel } from '../../features/answers/chat/citations';
import type { ChatCitation } from '../../features/answers/chat/protocol';
import type { H } from '../shared/dom';
import type { Sanitizer } from '../shared/sanitize';

const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
const SKIP = new Set(['CODE', 'PRE', 'A', 'SUP', 'KBD', 'SAMP']);

export interface MarkerTarget {
  /** The citations by index, or undefined while they are not known yet (streaming). */
  citations?: ReadonlyMap<number, ChatCitation>;
  /** Element id of the source `index` in the list. */
  sourceId(index: number): string;
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
          a.setAttribute('aria-label', `Source ${index}`);
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

/** The numbered sources under an answer; a click on one opens it (the host runs the viewer). */
export function sourcesList(
  h: H,
  sanitizer: Sanitizer,
  citations: readonly ChatCitation[],
  answer: string,
  sourceId: (index: number) => string,
  open: (c: ChatCitation) => void,
): HTMLElement {
  const items = [...new Map(citations.map((c) => [c.index, c])).values()].sort((a, b) => a.index - b.index);
  const list = h('ol', { class: 'kd-sources-list' });
  for (const c of items) {
    const kind = citationKind(c);
    const meta = [KIND_LABEL[kind], pageLabel(c)].filter(Boolean).join(' · ');
    const text = plainSnippet(sanitizer, c, answer);
    const title = citationTitle(c);
    const button = h(
      'button',
      {
        class: 'kd-source',
        attrs: { type: 'button', 'data-index': c.index, title: `Open ${title}${c.pageNo ? `, page ${c.pageNo}` : ''}` },
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
    button.setAttribute('aria-label', `Source ${c.index}: ${title}, ${meta}`);
    list.append(h('li', { class: 'kd-source-item', attrs: { id: sourceId(c.index), value: c.index } }, button));
  }
  return h(
    'section',
    { class: 'kd-sources', attrs: { 'aria-label': 'Sources' } },
    h('h3', { class: 'kd-sources-title' }, `Sources (${items.length})`),
    list,
  );
}
