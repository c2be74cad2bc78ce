// Highlight boxes (docs/api.md#highlights: bboxes in page fractions, 0 to 1, origin top-left; type PARAGRAPH).
// PDF: the boxes of the text items a character range covers — an item only partly covered is narrowed in
// proportion to its characters — merged into one box per line. Other documents have no layout: the range's
// line span becomes one full-width box, top = first line / line count, bottom = (last line + 1) / line count.
import type { ExtractedPage } from '../extract/types';
import { alignItems, lineCount, lineOf } from './passages';

export interface BBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Highlight {
  bboxes: BBox[];
  type: 'PARAGRAPH';
  pageNo: number;
}

export function highlightFor(page: ExtractedPage, start: number, end: number): Highlight {
  const pdf = page.items?.length ? pdfBoxes(page, start, end) : [];
  return { bboxes: pdf.length ? pdf : [lineSpanBox(page.text, start, end)], type: 'PARAGRAPH', pageNo: page.pageNo };
}

export function lineSpanBox(text: string, start: number, end: number): BBox {
  const lines = lineCount(text);
  const first = lineOf(text, start);
  const last = Math.max(first, lineOf(text, Math.max(start, end - 1)));
  return { left: 0, top: round(first / lines), right: 1, bottom: round((last + 1) / lines) };
}

export function pdfBoxes(page: ExtractedPage, start: number, end: number): BBox[] {
  const items = page.items ?? [];
  const spans = alignItems(page);
  const boxes: BBox[] = [];
  spans.forEach((span, i) => {
    if (!span || span.start >= end || span.end <= start) return;
    const [left, top, right, bottom] = items[i].box;
    const length = span.end - span.start;
    const from = (Math.max(start, span.start) - span.start) / length;
    const to = (Math.min(end, span.end) - span.start) / length;
    boxes.push({ left: left + (right - left) * from, top, right: left + (right - left) * to, bottom });
  });
  return mergeLines(boxes).map((b) => ({ left: round(b.left), top: round(b.top), right: round(b.right), bottom: round(b.bottom) }));
}

/** Boxes that overlap vertically by more than half the smaller height are one line: their union. */
function mergeLines(boxes: BBox[]): BBox[] {
  const lines: BBox[] = [];
  for (const box of boxes) {
    const line = lines.find(
      (l) => Math.min(l.bottom, box.bottom) - Math.max(l.top, box.top) > 0.5 * Math.min(l.bottom - l.top, box.bottom - box.top),
    );
    if (line) {
      line.left = Math.min(line.left, box.left);
      line.right = Math.max(line.right, box.right);
      line.top = Math.min(line.top, box.top);
      line.bottom = Math.max(line.bottom, box.bottom);
    } else {
      lines.push({ ...box });
    }
  }
  return lines.sort((a, b) => a.top - b.top || a.left - b.left);
}

function round(v: number): number {
  return Math.round(Math.min(1, Math.max(0, v)) * 10000) / 10000;
}
