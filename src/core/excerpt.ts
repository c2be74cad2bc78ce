// One rule for a source's excerpt, wherever a cited passage is shown beside an answer: the chat panel's Sources, the
// @knowledge participant and the language model tools' citations. The service's passages are Markdown (documents are
// converted page by page), and flattened as they were, their `#` headings ran into the text as one line of symbols.

const HTML_TAG = /<\/?[a-z][\w-]*(\s[^>]*)?\/?>/gi;
/** Tags inside a line of text (their removal leaves no gap); other tags (p, br, li, td) separate words. */
const INLINE_TAG = /^<\/?(a|b|i|u|s|em|strong|span|code|mark|sub|sup|small|abbr)\b/i;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?[ \t#]*$/;
/** A setext heading's underline, a thematic break or a table's alignment row. */
const RULE_LINE = /^ {0,3}(?:[-=*_][ \t]*){3,}$|^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;
/** Where Japanese (no spaces between words) may be cut: after a sentence's or a clause's end. */
const CJK_BREAK = /[。．！？!?、，）」』】]/u;

/** Markdown syntax of one line removed, its text kept. */
function inline(line: string): string {
  return line
    .replace(/^\s*(?:>\s?)+/, '')
    .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\p{L}\p{N}*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\p{L}\p{N}])/gu, '$1$2')
    .replace(/(^|[^\p{L}\p{N}_])_(?=\S)([^_]+?)(?<=\S)_(?![\p{L}\p{N}])/gu, '$1$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1')
    .replace(/\s*\|\s*/g, ' ')
    .trim();
}

/**
 * A Markdown passage as plain text on one line: headings, rules, table rows' pipes, quote and list markers,
 * emphasis, code ticks, link targets and HTML tags removed; lines joined with a space, or with nothing next to a
 * Japanese character (a line break inside a Japanese sentence is not a space). A passage that is only
 * headings keeps their text, so a source never shows an empty excerpt.
 */
export function plainPassage(text: string): string {
  const lines = text
    .replace(HTML_TAG, (tag) => (INLINE_TAG.test(tag) ? '' : ' '))
    .replace(/\r\n?/g, '\n')
    .split('\n');
  const body: string[] = [];
  const headings: string[] = [];
  for (const raw of lines) {
    if (/^\s*(```|~~~)/.test(raw) || RULE_LINE.test(raw)) continue;
    const heading = HEADING.exec(raw);
    if (heading) {
      if (heading[1]) headings.push(inline(heading[1]));
      continue;
    }
    const line = inline(raw);
    if (line) body.push(line);
  }
  return body.length ? join(body) : headings.join(' ').replace(/\s+/g, ' ').trim();
}

function join(lines: string[]): string {
  let out = '';
  for (const line of lines) {
    const glue = out && !CJK.test(out.at(-1)!) && !CJK.test(line[0]) ? ' ' : '';
    out += glue + line;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * The excerpt of a passage: plainPassage, at most `max` characters (code points), cut at a word boundary with an
 * ellipsis. Text without spaces (Japanese) is cut after its last sentence or clause end in the second half, else
 * at `max` exactly.
 */
export function excerpt(text: string | undefined, max: number): string {
  return cutAt(plainPassage(text ?? ''), max);
}

/** `text` (already one line) cut to `max` code points at a word boundary, with an ellipsis when cut. */
export function cutAt(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  // Room for the ellipsis: at most max - 1 characters are kept. A space right after them is a word boundary too.
  const keep = Math.max(1, max - 1);
  let cut = -1;
  // The last space in the final 40%, or the last sentence or clause end in the second half, whichever is later.
  for (let i = keep; i >= Math.floor(keep / 2); i--) {
    if (/\s/.test(chars[i]) && i >= Math.floor(keep * 0.6)) {
      cut = i;
      break;
    }
    if (i < keep && CJK_BREAK.test(chars[i])) {
      cut = i + 1;
      break;
    }
  }
  const head = chars.slice(0, keep);
  const kept = (cut > 0 ? head.slice(0, cut) : head).join('').replace(/[\s,;:、，]+$/u, '');
  return `${kept}…`;
}
