import assert from 'node:assert/strict';
import { loadPage } from './support/page';

type Box = { left: number; top: number; right: number; bottom: number };
type Rect = { left: number; top: number; width: number; height: number };
type Run = { str: string; box: [number, number, number, number] };
const geo = loadPage<{
  normalizeBoxes(b: Box[], page: { width: number; height: number }): { boxes: Box[]; units: string };
  boxesToRects(b: Box[], rendered: { width: number; height: number }): Rect[];
  boxesForPassage(runs: Run[], passage: string): { boxes: Box[]; text: string; exact: boolean } | null;
  mergeLines(b: Box[]): Box[];
}>('src/webview/citation/highlightGeometry');
const view = loadPage<{ sampleText(s: string[], max?: number): string; isFontProblem(w: string): boolean }>('src/webview/citation/pdfText');

/** True when every rectangle lies within a page of this size (a small tolerance for rounding). */
function rectsInside(rects: readonly Rect[], page: { width: number; height: number }): boolean {
  const eps = 0.5;
  return rects.every(
    (r) =>
      r.left >= -eps &&
      r.top >= -eps &&
      r.width > 0 &&
      r.height > 0 &&
      r.left + r.width <= page.width + eps &&
      r.top + r.height <= page.height + eps,
  );
}

// An A4 page: 595 × 842 points.
const A4 = { width: 595, height: 842 };

describe('Citation viewer: highlight geometry', () => {
  it('scales the service’s page fractions to pixel rectangles of the rendered page, at any zoom', () => {
    const { boxes, units } = geo.normalizeBoxes([{ left: 0.1, top: 0.25, right: 0.6, bottom: 0.3 }], A4);
    assert.equal(units, 'fraction');
    for (const scale of [0.5, 1, 1.5, 2]) {
      const [r] = geo.boxesToRects(boxes, { width: A4.width * scale, height: A4.height * scale });
      assert.deepEqual(r, {
        left: Math.round(59.5 * scale * 100) / 100,
        top: Math.round(210.5 * scale * 100) / 100,
        width: Math.round(297.5 * scale * 100) / 100,
        height: Math.round(42.1 * scale * 100) / 100,
      });
    }
    const rects = geo.boxesToRects(boxes, { width: 1200, height: 1698 });
    assert.ok(rectsInside(rects, { width: 1200, height: 1698 }));
  });

  it('puts swapped corners in order, clips to the page, drops empty and non-finite boxes', () => {
    const { boxes } = geo.normalizeBoxes(
      [
        { left: 0.6, top: 0.3, right: 0.1, bottom: 0.25 },
        { left: -0.0005, top: 0.9, right: 1.0005, bottom: 1 },
        { left: 0.2, top: 0.2, right: 0.2, bottom: 0.4 },
        { left: Number.NaN, top: 0.1, right: 0.2, bottom: 0.2 },
      ],
      A4,
    );
    assert.deepEqual(boxes, [
      { left: 0.1, right: 0.6, top: 0.25, bottom: 0.3 },
      { left: 0, right: 1, top: 0.9, bottom: 1 },
    ]);
  });

  it('reads boxes with coordinates beyond 1 as PDF points from the top-left corner (a tolerant client)', () => {
    const { boxes, units } = geo.normalizeBoxes([{ left: 59.5, top: 84.2, right: 297.5, bottom: 168.4 }], A4);
    assert.equal(units, 'points');
    const [b] = boxes;
    assert.ok(
      Math.abs(b.left - 0.1) < 1e-9 && Math.abs(b.top - 0.1) < 1e-9 && Math.abs(b.right - 0.5) < 1e-9 && Math.abs(b.bottom - 0.2) < 1e-9,
      JSON.stringify(b),
    );
    const [r] = geo.boxesToRects(boxes, { width: 595 * 2, height: 842 * 2 });
    assert.deepEqual(r, { left: 119, top: 168.4, width: 476, height: 168.4 });
  });

  it('tells when rectangles leave the page', () => {
    assert.equal(rectsInside([{ left: 10, top: 10, width: 100, height: 20 }], { width: 200, height: 100 }), true);
    assert.equal(rectsInside([{ left: 150, top: 10, width: 100, height: 20 }], { width: 200, height: 100 }), false);
    assert.equal(rectsInside([{ left: 10, top: 10, width: 0, height: 20 }], { width: 200, height: 100 }), false);
  });

  it('boxes a passage found in the text runs, cut to the characters it covers, one box per line', () => {
    const runs: Run[] = [
      { str: 'Core hours are 10:00 to 15:00.', box: [0.1, 0.1, 0.7, 0.12] },
      { str: 'The company pays a one-time home', box: [0.1, 0.14, 0.6, 0.16] },
      { str: 'office allowance of 50,000 yen.', box: [0.6, 0.14, 0.9, 0.16] },
      { str: 'A monthly internet allowance.', box: [0.1, 0.18, 0.5, 0.2] },
    ];
    const found = geo.boxesForPassage(runs, 'The company pays a one-time home office allowance of 50,000 yen.');
    assert.ok(found);
    assert.equal(found.exact, true);
    assert.equal(found.text, 'The company pays a one-time home office allowance of 50,000 yen.');
    assert.deepEqual(found.boxes, [{ left: 0.1, right: 0.9, top: 0.14, bottom: 0.16 }], 'two runs of one line merged');
    // Half of a run: the box is cut in proportion to the characters.
    const half = geo.boxesForPassage([{ str: 'aaaaabbbbb', box: [0.2, 0.5, 0.4, 0.52] }], 'bbbbb');
    assert.ok(half);
    assert.ok(Math.abs(half.boxes[0].left - 0.3) < 1e-9 && Math.abs(half.boxes[0].right - 0.4) < 1e-9);
  });

  it('boxes a Japanese passage split into one-character runs over two lines', () => {
    const line1 = '第7条（時間外労働）時間外労働は1か⽉45時間';
    const line2 = '1年360時間を上限とする。';
    const runs: Run[] = [
      ...[...line1].map((ch, i): Run => ({ str: ch, box: [0.1 + i * 0.02, 0.3, 0.12 + i * 0.02, 0.32] })),
      ...[...line2].map((ch, i): Run => ({ str: ch, box: [0.1 + i * 0.02, 0.34, 0.12 + i * 0.02, 0.36] })),
    ];
    const found = geo.boxesForPassage(runs, '時間外労働は1か月45時間、1年360時間を上限とする。');
    assert.ok(found, 'found despite ⽉ (U+2F49) for 月 and the missing 、');
    assert.equal(found.boxes.length, 2, JSON.stringify(found.boxes));
    assert.ok(Math.abs(found.boxes[0].left - (0.1 + 10 * 0.02)) < 1e-9, 'starts at 時 after （時間外労働）');
    assert.equal(found.boxes[1].top, 0.34);
    assert.equal(geo.boxesForPassage(runs, '就業規則の改定履歴'), null);
  });

  it('reports the page text with spaces only between non-CJK runs', () => {
    assert.equal(
      view.sampleText(['就', '業', '規', '則', '', '⻘空システムズ', 'Version', '2025.1.']),
      '就業規則⻘空システムズVersion 2025.1.',
    );
    assert.equal(view.sampleText(['a'.repeat(400)]).length, 300);
  });

  it('counts character map and font failures as font problems, a missing system font not', () => {
    assert.equal(view.isFontProblem('Unable to load CMap at: https://x/cmaps/UniJIS-UCS2-H.bcmap'), true);
    assert.equal(view.isFontProblem('Error during font loading: bad table'), true);
    assert.equal(view.isFontProblem('Cannot load system font: HeiseiKakuGo-W5, installing it could help to improve PDF rendering.'), false);
    assert.equal(view.isFontProblem('Indexing all PDF objects'), false);
  });
});
