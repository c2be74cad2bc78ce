// Turns pdfjs text items into page text and boxes. Pure, so the layout rules are testable without a PDF.
import type { TextItem } from './types';

/** The parts of a pdfjs text item this module reads. */
export interface PdfjsTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

/** The viewport of the page at scale 1: converts PDF user space to CSS pixels, origin top-left. */
export interface PageViewport {
  width: number;
  height: number;
  convertToViewportRectangle(rect: number[]): number[];
}

export interface PageText {
  text: string;
  items: TextItem[];
}

interface Rect {
  /** viewport pixels */
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface Placed extends Rect {
  str: string;
  hasEOL: boolean;
}

interface Line extends Rect {
  text: string;
  last: Placed;
  ended: boolean;
  /** a wide gap between runs: table columns or tab stops, not prose */
  columns: boolean;
}

export function layoutPageText(raw: readonly unknown[], viewport: PageViewport): PageText {
  const placed = raw.filter(isTextItem).map((item) => place(item, viewport));
  const lines = groupLines(placed);
  const items = placed.filter((p) => p.str.trim() !== '').map((p): TextItem => ({ str: p.str, box: toFractions(p, viewport) }));
  return { text: tidy(joinLines(lines, viewport)), items };
}

function isTextItem(value: unknown): value is PdfjsTextItem {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PdfjsTextItem).str === 'string' &&
    Array.isArray((value as PdfjsTextItem).transform)
  );
}

function place(item: PdfjsTextItem, viewport: PageViewport): Placed {
  const [, , c = 0, d = 0, e = 0, f = 0] = item.transform;
  // Some fonts report height 0; the font size in the matrix is the next best guess.
  const height = item.height || Math.hypot(c, d);
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = viewport.convertToViewportRectangle([e, f, e + item.width, f + height]);
  return {
    str: unifyRadicals(item.str),
    hasEOL: item.hasEOL,
    left: Math.min(x1, x2),
    right: Math.max(x1, x2),
    top: Math.min(y1, y2),
    bottom: Math.max(y1, y2),
  };
}

/** Runs in content order; a new line starts after hasEOL or when the next run does not overlap vertically. */
function groupLines(placed: Placed[]): Line[] {
  const lines: Line[] = [];
  let line: Line | undefined;
  for (const item of placed) {
    if (item.str) {
      if (line && !line.ended && sameLine(line.last, item)) {
        line.columns ||= item.left - line.last.right > 2 * Math.max(1, item.bottom - item.top);
        line.text += gapSpace(line.last, item, line.text) + item.str;
        Object.assign(line, {
          last: item,
          left: Math.min(line.left, item.left),
          right: Math.max(line.right, item.right),
          top: Math.min(line.top, item.top),
          bottom: Math.max(line.bottom, item.bottom),
        });
      } else {
        line = { ...item, text: item.str, last: item, ended: false, columns: false };
        lines.push(line);
      }
    }
    if (item.hasEOL && line) line.ended = true;
  }
  return lines.filter((l) => l.text.trim() !== '');
}

function sameLine(a: Rect, b: Rect): boolean {
  const overlap = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return overlap > 0.5 * Math.max(1, Math.min(a.bottom - a.top, b.bottom - b.top));
}

/** A visible gap between runs on one line is a space (unless one is there), a gap of columns a tab. */
function gapSpace(prev: Rect, next: Placed, text: string): string {
  const height = Math.max(prev.bottom - prev.top, next.bottom - next.top, 1);
  const gap = next.left - prev.right;
  if (gap > 2 * height) return '\t';
  return gap > 0.2 * height && !/\s$/.test(text) && !/^\s/.test(next.str) ? ' ' : '';
}

/**
 * Lines become '\n', a gap of most of a line between them a blank line (a paragraph, kept for chunking).
 * A line that fills the text column and does not end a sentence is a soft wrap: it is joined to the next
 * (with a space, or nothing between CJK characters), so sentences are not cut in half for search and answers.
 */
function joinLines(lines: Line[], viewport: PageViewport): string {
  // Folded, not spread: a page may hold more lines than a call takes arguments.
  const columnLeft = lines.reduce((min, l) => Math.min(min, l.left), Infinity);
  const columnRight = lines.reduce((max, l) => Math.max(max, l.right), -Infinity);
  const columnWidth = columnRight - columnLeft;
  const bodyText = columnWidth > 0.5 * viewport.width;
  let text = lines[0]?.text ?? '';
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1]!;
    const next = lines[i]!;
    const height = Math.max(prev.bottom - prev.top, next.bottom - next.top, 1);
    if (next.top - prev.bottom > 0.8 * height) text += '\n\n';
    else if (bodyText && isSoftWrap(prev, next, columnRight, columnWidth, height))
      text += cjkBoundary(prev.text, next.text) || /\s$/.test(prev.text) ? '' : ' ';
    else text += '\n';
    text += next.text;
  }
  return text;
}

function isSoftWrap(prev: Line, next: Line, columnRight: number, columnWidth: number, height: number): boolean {
  const fillsColumn = prev.right >= columnRight - 0.1 * columnWidth;
  const endsSentence = /[.!?:;。！？：；]["'」』）)]*\s*$/.test(prev.text);
  const continues = next.left <= prev.left + 2 * height && next.top > prev.top;
  const startsItem = /^\s*([•·●○■□◆◇▪\-–—*]|\d+[.)]\s|[（(]?\d+[)）])/.test(next.text);
  return fillsColumn && !endsSentence && continues && !startsItem && !prev.columns;
}

const CJK = /[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;

function cjkBoundary(before: string, after: string): boolean {
  return CJK.test(before.slice(-1)) || CJK.test(after.slice(0, 1));
}

function toFractions(p: Rect, viewport: PageViewport): TextItem['box'] {
  const fx = (x: number): number => round(clamp(x / viewport.width));
  const fy = (y: number): number => round(clamp(y / viewport.height));
  return [fx(p.left), fy(p.top), fx(p.right), fy(p.bottom)];
}

function clamp(v: number): number {
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
}

// Four decimals is a tenth of a point on A4: plenty for highlighting, and small to store.
function round(v: number): number {
  return Math.round(v * 10000) / 10000;
}

// CJK Radicals Supplement characters whose glyph Japanese fonts share with the ideograph (no NFKC mapping).
const RADICAL_TO_IDEOGRAPH: Record<string, string> = {
  '\u2ea0': '民',
  '\u2ec4': '西',
  '\u2ed1': '長',
  '\u2ed7': '雨',
  '\u2ed8': '青',
  '\u2edd': '食',
  '\u2ee3': '骨',
  '\u2ee4': '鬼',
  '\u2ee8': '麦',
  '\u2ee9': '黄',
  '\u2eeb': '斉',
  '\u2eed': '歯',
  '\u2eef': '竜',
  '\u2ef2': '亀',
};

/**
 * PDFs made by Chrome or Word with CJK fonts often map shared glyphs to radicals (⽇ U+2F47, ⻘ U+2ED8)
 * instead of the ideographs (日, 青): they look the same but never match a search.
 */
export function unifyRadicals(text: string): string {
  return text.replace(/[\u2e80-\u2fdf]/g, (c) => RADICAL_TO_IDEOGRAPH[c] ?? c.normalize('NFKC'));
}

// One CJK character (or CJK punctuation) at a time, each apart from the next by one space: at least three.
const SPACED_CJK =
  /(?<![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々、。「」])[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々、。「」](?: [\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々、。「」]){2,}(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々、。「」])/gu;

/**
 * Letter-spaced Japanese ("ネ ッ ト ワ ー ク": each character a run of its own, a visible gap between) is joined:
 * spaced, no word of it would ever match a search. Spaces between words of two or more characters stay.
 */
export function joinSpacedCjk(text: string): string {
  return text.replace(SPACED_CJK, (run) => run.replace(/ /g, ''));
}

function tidy(text: string): string {
  return joinSpacedCjk(text)
    .replace(/ *\t[\t ]*/g, '\t')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
