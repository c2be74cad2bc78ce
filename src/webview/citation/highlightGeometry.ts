// Highlight geometry: the service's boxes (page fractions 0..1, origin top-left — docs/api.md#highlights) to
// pixel rectangles on the rendered page, and boxes for a passage found by its text. Pure.
import type { Rect, WireBBox } from '../../features/answers/citations/protocol';
import { findPassage } from './passageMatch';

/** A box in page fractions, origin top-left. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A page's size at scale 1 (CSS pixels = PDF points). */
export interface PageSize {
  width: number;
  height: number;
}

export type BoxUnits = 'fraction' | 'points';

const clamp01 = (n: number): number => Math.min(1, Math.max(0, n));

/**
 * The service's boxes as page fractions (docs/api.md#highlights); a service that sends PDF
 * points (any coordinate beyond 1) is read as points from the top-left corner, so a tolerant client
 * still draws them in the right place. Boxes are put in order, clipped to the page, and empty ones dropped.
 */
export function normalizeBoxes(bboxes: readonly WireBBox[], page: PageSize): { boxes: Box[]; units: BoxUnits } {
  const finite = bboxes.filter((b) => [b.left, b.top, b.right, b.bottom].every(Number.isFinite));
  const units: BoxUnits = finite.every((b) => [b.left, b.top, b.right, b.bottom].every((n) => n >= -0.001 && n <= 1.001))
    ? 'fraction'
    : 'points';
  const sx = units === 'fraction' ? 1 : 1 / (page.width || 1);
  const sy = units === 'fraction' ? 1 : 1 / (page.height || 1);
  const boxes = finite
    .map((b) => ({
      left: clamp01(Math.min(b.left, b.right) * sx),
      right: clamp01(Math.max(b.left, b.right) * sx),
      top: clamp01(Math.min(b.top, b.bottom) * sy),
      bottom: clamp01(Math.max(b.top, b.bottom) * sy),
    }))
    .filter((b) => b.right - b.left > 0 && b.bottom - b.top > 0);
  return { boxes, units };
}

/** Fractions to CSS pixels of a page rendered `rendered.width` × `rendered.height`, rounded to 0.01 px. */
export function boxesToRects(boxes: readonly Box[], rendered: PageSize): Rect[] {
  const r = (n: number): number => Math.round(n * 100) / 100;
  return boxes.map((b) => ({
    left: r(b.left * rendered.width),
    top: r(b.top * rendered.height),
    width: r((b.right - b.left) * rendered.width),
    height: r((b.bottom - b.top) * rendered.height),
  }));
}

/** A run of text on the page with its box in fractions (what pdfEngine reads from pdfjs). */
export interface TextRun {
  str: string;
  box: [left: number, top: number, right: number, bottom: number];
}

/**
 * Boxes covering `passage` on a page whose text runs are `runs`: the runs the passage overlaps, cut
 * to the characters it covers (horizontal runs), then merged per line. Null when it is not there.
 */
export function boxesForPassage(runs: readonly TextRun[], passage: string): { boxes: Box[]; text: string; exact: boolean } | null {
  let joined = '';
  const offsets: number[] = [];
  for (const run of runs) {
    offsets.push(joined.length);
    joined += `${run.str} `;
  }
  const found = findPassage(joined, passage);
  if (!found) return null;
  const boxes: Box[] = [];
  runs.forEach((run, i) => {
    const from = offsets[i];
    const to = from + run.str.length;
    if (to <= found.start || from >= found.end || !run.str.length) return;
    const [left, top, right, bottom] = run.box;
    const horizontal = right - left >= (bottom - top) * 0.5 || run.str.length === 1;
    const s = (Math.max(found.start, from) - from) / run.str.length;
    const e = (Math.min(found.end, to) - from) / run.str.length;
    boxes.push(
      horizontal
        ? { left: left + (right - left) * s, right: left + (right - left) * e, top, bottom }
        : { left, right, top: top + (bottom - top) * s, bottom: top + (bottom - top) * e },
    );
  });
  return { boxes: mergeLines(boxes), text: joined.slice(found.start, found.end).replace(/\s+/g, ' ').trim(), exact: found.exact };
}

/** Neighbouring boxes on the same line become one (fewer, cleaner rectangles). */
export function mergeLines(boxes: readonly Box[]): Box[] {
  const out: Box[] = [];
  for (const b of boxes) {
    const last = out[out.length - 1];
    const height = Math.max(b.bottom - b.top, 1e-6);
    const sameLine = last && Math.abs(last.top - b.top) < height * 0.3 && Math.abs(last.bottom - b.bottom) < height * 0.3;
    if (last && sameLine && b.left - last.right < height * 1.5 && b.left >= last.left - height) {
      last.right = Math.max(last.right, b.right);
      last.top = Math.min(last.top, b.top);
      last.bottom = Math.max(last.bottom, b.bottom);
    } else {
      out.push({ ...b });
    }
  }
  return out;
}
