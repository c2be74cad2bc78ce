// HTML to lines of text. node-html-parser's structuredText glues table cells together, so the walk is ours:
// blocks become lines, table cells are separated by tabs, invisible elements are dropped.
import { HTMLElement, type Node, NodeType, type TextNode, parse } from 'node-html-parser';

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'iframe', 'object', 'canvas', 'button', 'select']);
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
]);

export function parseHtml(html: string): HTMLElement {
  // The parser keeps a doctype or XML declaration as a text node: drop them first.
  const body = html.replace(/<!doctype[^>]*>/gi, '').replace(/<\?xml[^>]*\?>/gi, '');
  return parse(body, { comment: false, lowerCaseTagName: true });
}

/** The visible text, one line per block, table rows as tab-separated cells. */
export function htmlToText(root: HTMLElement): string {
  const lines: string[] = [];
  const current = { text: '' };
  walk(root, lines, current);
  flush(lines, current);
  return lines.join('\n');
}

/** <title>, else the first <h1>. */
export function htmlTitle(root: HTMLElement): string | undefined {
  for (const selector of ['title', 'h1']) {
    const element = root.querySelector(selector);
    const text = element ? cellText(element) : '';
    if (text) return text;
  }
  return undefined;
}

function walk(node: Node, lines: string[], current: { text: string }): void {
  if (node.nodeType === NodeType.TEXT_NODE) {
    const text = (node as TextNode).text.replace(/\u00a0/g, ' ');
    current.text += text.replace(/\s+/g, ' ');
    return;
  }
  if (node.nodeType !== NodeType.ELEMENT_NODE) return;
  const element = node as HTMLElement;
  const tag = element.rawTagName?.toLowerCase() ?? '';
  if (SKIPPED.has(tag) || element.getAttribute('hidden') !== undefined) return;
  if (tag === 'br') {
    flush(lines, current, true);
    return;
  }
  if (tag === 'tr') {
    flush(lines, current);
    const cells = element.childNodes.filter(
      (c): c is HTMLElement => c instanceof HTMLElement && ['td', 'th'].includes(c.rawTagName?.toLowerCase() ?? ''),
    );
    const row = cells.map(cellText);
    if (row.some((c) => c)) lines.push(row.join('\t').replace(/\t+$/, ''));
    return;
  }
  const block = BLOCKS.has(tag);
  if (block) flush(lines, current);
  if (tag === 'pre') {
    // Inside <pre> every line is kept as written.
    for (const line of element.text.replace(/\u00a0/g, ' ').split('\n')) lines.push(line.replace(/\s+$/, ''));
    return;
  }
  for (const child of element.childNodes) walk(child, lines, current);
  if (block) flush(lines, current);
}

function flush(lines: string[], current: { text: string }, keepEmpty = false): void {
  const text = current.text.replace(/[ \t]+/g, ' ').trim();
  if (text || keepEmpty) lines.push(text);
  current.text = '';
}

/** A cell's (or title's) text on one line, whatever blocks it contains. */
function cellText(element: HTMLElement): string {
  const lines: string[] = [];
  const current = { text: '' };
  walk(element, lines, current);
  flush(lines, current);
  return lines
    .filter((l) => l.trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
