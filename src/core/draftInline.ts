// Inline part of the Draft.js → Markdown conversion: one block's text with its style and entity
// ranges, rendered as Markdown lines. Offsets are in code points, as Draft.js counts them.

import { urlWithScheme, WEB_SCHEMES } from './urls';
import { isRecord } from './records';

export type EntityMap = Record<string, unknown> | unknown[];

type Entity = { kind: 'link'; url: string } | { kind: 'image'; src: string; alt?: string };

const BOLD = 1;
const ITALIC = 2;
const STRIKE = 4;
const CODE = 8;
const STYLE_BITS: Record<string, number> = { BOLD, ITALIC, STRIKETHROUGH: STRIKE, CODE };
const MARKERS: Record<number, string> = { [BOLD]: '**', [ITALIC]: '*', [STRIKE]: '~~' };
const WRAPPING = [BOLD, ITALIC, STRIKE];

const WHITESPACE = /\s/u;
const ALNUM = /[\p{L}\p{N}]/u;
const PUNCT_WIDE = /[\p{P}\p{S}]/u;
const PUNCT_NARROW = /[\p{P}!-/:-@[-`{-~]/u;

/**
 * Renders one block's inline content. Returns its non-empty lines (a block's text may hold soft
 * newlines), each trimmed and escaped so that it cannot start a heading, list or quote by accident.
 */
export function renderInline(block: Record<string, unknown>, entityMap: EntityMap): string[] {
  const chars = Array.from(typeof block.text === 'string' ? block.text : '');
  const n = chars.length;
  if (n === 0) return [];

  const masks = new Array<number>(n).fill(0);
  for (const range of arrayOf(block.inlineStyleRanges)) {
    const style = isRecord(range) && typeof range.style === 'string' ? STYLE_BITS[range.style.toUpperCase()] : undefined;
    const span = style ? spanOf(range, n) : undefined;
    if (!style || !span) continue;
    for (let k = span[0]; k < span[1]; k++) masks[k]! |= style;
  }

  const keys = new Array<string | undefined>(n).fill(undefined);
  const entities = new Map<string, Entity>();
  for (const range of arrayOf(block.entityRanges)) {
    if (!isRecord(range) || (typeof range.key !== 'string' && typeof range.key !== 'number')) continue;
    const key = String(range.key);
    const entity = entities.get(key) ?? (Object.hasOwn(entityMap, key) ? entityOf((entityMap as Record<string, unknown>)[key]) : undefined);
    const span = entity ? spanOf(range, n) : undefined;
    if (!entity || !span) continue;
    entities.set(key, entity);
    keys.fill(key, span[0], span[1]);
  }

  let out = '';
  for (let start = 0; start < n;) {
    let end = start + 1;
    while (end < n && keys[end] === keys[start]) end++;
    const key = keys[start];
    out += renderRun(chars, masks, start, end, key === undefined ? undefined : entities.get(key));
    start = end;
  }
  return out
    .split('\n')
    .map((line) => escapeLineStart(line.trim()))
    .filter((line) => line !== '');
}

function renderRun(chars: string[], masks: number[], start: number, end: number, entity: Entity | undefined): string {
  if (entity?.kind === 'image') {
    const alt = entity.alt ?? chars.slice(start, end).join('').trim();
    return `![${escapeText(alt.replace(/\s+/g, ' '))}](${entity.src})`;
  }
  if (entity?.kind !== 'link') return renderStyled(chars, masks, start, end);
  // Whitespace at the edges of the link text goes outside the brackets.
  let from = start;
  let to = end;
  while (from < to && WHITESPACE.test(chars[from]!)) from++;
  while (to > from && WHITESPACE.test(chars[to - 1]!)) to--;
  if (from === to) return chars.slice(start, end).join('');
  return chars.slice(start, from).join('') + `[${renderStyled(chars, masks, from, to)}](${entity.url})` + chars.slice(to, end).join('');
}

/**
 * Styled text with balanced markers: styles are opened longest-running first (outermost), and a
 * style that must close while one opened after it continues closes that one and reopens it.
 * CODE is rendered as a code span per segment, innermost, since nothing nests inside a code span.
 */
function renderStyled(allChars: string[], allMasks: number[], start: number, end: number): string {
  const chars = allChars.slice(start, end);
  const masks = allMasks.slice(start, end);
  trimStyleEdges(chars, masks);

  const segments: { mask: number; text: string; from: number }[] = [];
  for (let k = 0; k < chars.length; k++) {
    const last = segments[segments.length - 1];
    if (last && last.mask === masks[k]) last.text += chars[k];
    else segments.push({ mask: masks[k]!, text: chars[k]!, from: k });
  }
  // runEnd[j][bit]: index of the first segment from j on without that style.
  const runEnd = segments.map(() => ({}) as Record<number, number>);
  for (let j = segments.length - 1; j >= 0; j--) {
    for (const bit of WRAPPING) {
      runEnd[j]![bit] = segments[j]!.mask & bit ? (runEnd[j + 1]?.[bit] ?? j + 1) : j;
    }
  }

  let out = '';
  const stack: { bit: number; marker: string }[] = [];
  segments.forEach((segment, j) => {
    const target = segment.mask & ~CODE;
    let keep = 0;
    while (keep < stack.length && target & stack[keep]!.bit) keep++;
    let closed = '';
    while (stack.length > keep) closed += stack.pop()!.marker;
    out += closed;
    const open = stack.reduce((acc, entry) => acc | entry.bit, 0);
    const toOpen = WRAPPING.filter((bit) => target & bit && !(open & bit)).sort((a, b) => runEnd[j]![b]! - runEnd[j]![a]!);
    // A reopened style may resume at a space; an opener followed by a space opens nothing.
    const lead = toOpen.length > 0 ? /^\s*/u.exec(segment.text)![0] : '';
    const text = segment.text.slice(lead.length);
    out += lead;
    toOpen.forEach((bit, index) => {
      let marker = MARKERS[bit]!;
      // `*` closers right before `*` openers would merge into one delimiter run and pair up
      // wrongly; `_` keeps them apart where it can close (not right before a letter).
      if (index === 0 && lead === '' && marker[0] === '*' && closed.endsWith('*')) {
        const after = segments[runEnd[j]![bit]!];
        const next = after ? chars[after.from] : allChars[end];
        if (!isWordChar(next)) marker = marker.replace(/\*/g, '_');
      }
      out += marker;
      stack.push({ bit, marker });
    });
    out += segment.mask & CODE ? codeSpan(text) : escapeText(text);
  });
  while (stack.length > 0) out += stack.pop()!.marker;
  return out;
}

/**
 * Emphasis delimiters only count when "flanking": `**bold **x` and `a**.b**` are not emphasis.
 * So whitespace at either end of a styled run loses the style, and so does punctuation at an end
 * that touches a letter outside (which also makes `これは「**重要**」です` work).
 */
function trimStyleEdges(chars: string[], masks: number[]): void {
  for (const bit of [CODE, ...WRAPPING]) {
    for (let k = 0; k < chars.length;) {
      if (!(masks[k]! & bit)) {
        k++;
        continue;
      }
      let end = k;
      while (end < chars.length && masks[end]! & bit) end++;
      let a = k;
      let b = end;
      for (let changed = true; changed;) {
        changed = false;
        while (a < b && WHITESPACE.test(chars[a]!)) a++;
        while (b > a && WHITESPACE.test(chars[b - 1]!)) b--;
        if (bit === CODE) break; // backticks do not care about flanking
        if (a < b && notFlanking(chars, masks, a, a - 1)) {
          a++;
          changed = true;
        }
        if (a < b && notFlanking(chars, masks, b - 1, b)) {
          b--;
          changed = true;
        }
      }
      for (let x = k; x < end; x++) if (x < a || x >= b) masks[x]! &= ~bit;
      k = end;
    }
  }
}

/**
 * A delimiter between `edge` (inside the run) and `outside` does not flank when the edge is
 * punctuation and the outside a letter. A code span shows a backtick there, which is punctuation.
 * Markdown parsers differ on whether symbols (emoji, ©) count as punctuation: both readings are checked.
 */
function notFlanking(chars: string[], masks: number[], edge: number, outside: number): boolean {
  const ch = chars[outside];
  if (ch === undefined || WHITESPACE.test(ch)) return false;
  const wide = (x: number): boolean => (masks[x]! & CODE) !== 0 || PUNCT_WIDE.test(chars[x]!);
  const narrow = (x: number): boolean => (masks[x]! & CODE) !== 0 || PUNCT_NARROW.test(chars[x]!);
  return (wide(edge) && !wide(outside)) || (narrow(edge) && !narrow(outside));
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && !WHITESPACE.test(ch) && !PUNCT_WIDE.test(ch) && !PUNCT_NARROW.test(ch);
}

function codeSpan(text: string): string {
  const content = text.replace(/\n/g, ' ');
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = content.startsWith('`') || content.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${content}${pad}${ticks}`;
}

/** Escapes characters that would start Markdown syntax; ordinary text (snake_case, a < b, AT&T) stays as is. */
export function escapeText(text: string): string {
  return text.replace(/[\\`*_[\]~<&]/g, (ch, index: number) => {
    const next = text[index + 1];
    switch (ch) {
      case '\\':
        return next === undefined || next === '\n' || /[!-/:-@[-`{-~]/.test(next) ? '\\\\' : ch;
      case '_':
        return ALNUM.test(text[index - 1] ?? '') && ALNUM.test(next ?? '') ? ch : '\\_';
      case '<':
        return next !== undefined && /[A-Za-z/!?]/.test(next) ? '\\<' : ch;
      case '&':
        return /^&(#\d+|#x[\da-f]+|[a-z][a-z\d]*);/i.test(text.slice(index, index + 40)) ? '\\&' : ch;
      default:
        return `\\${ch}`;
    }
  });
}

/** Text at the start of a line that Markdown would read as a block marker. */
function escapeLineStart(line: string): string {
  if (/^(#{1,6}|[-+])(\s|$)/.test(line) || line.startsWith('>') || /^(=+|-+)$/.test(line)) return `\\${line}`;
  const ordered = /^(\d{1,9})([.)])(\s|$)/.exec(line);
  return ordered ? `${ordered[1]}\\${line.slice(ordered[1]!.length)}` : line;
}

function entityOf(value: unknown): Entity | undefined {
  if (!isRecord(value) || typeof value.type !== 'string') return undefined;
  const data = isRecord(value.data) ? value.data : {};
  const type = value.type.toUpperCase();
  if (type === 'LINK') {
    const url = safeUrl(data.url ?? data.href, ['http:', 'https:', 'mailto:']);
    return url ? { kind: 'link', url } : undefined;
  }
  if (type === 'IMAGE') {
    const src = safeUrl(data.src ?? data.url, WEB_SCHEMES);
    const alt = typeof data.alt === 'string' ? data.alt : typeof data.title === 'string' ? data.title : undefined;
    return src ? { kind: 'image', src, alt } : undefined;
  }
  return undefined;
}

/** The URL ready for a Markdown destination, or undefined when its scheme is not allowed. */
function safeUrl(value: unknown, schemes: readonly string[]): string | undefined {
  const normalized = urlWithScheme(value, schemes);
  if (!normalized) return undefined;
  const trimmed = String(value).trim();
  // Keep the URL as written when it is clean; otherwise the parser's normalized form.
  // eslint-disable-next-line no-control-regex -- a clean URL has no control characters
  const url = /^[^\s<>()\\\x00-\x1f\x7f]+$/.test(trimmed) ? trimmed : normalized;
  return url.replace(/[\s<>()\\]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** [start, end) of a range clamped to the text; undefined for a range that is unusable. */
function spanOf(range: unknown, length: number): [number, number] | undefined {
  if (!isRecord(range)) return undefined;
  const { offset, length: size } = range;
  if (typeof offset !== 'number' || typeof size !== 'number' || !Number.isInteger(offset) || !Number.isInteger(size)) {
    return undefined;
  }
  if (offset < 0 || size <= 0 || offset >= length) return undefined;
  return [offset, Math.min(length, offset + size)];
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
