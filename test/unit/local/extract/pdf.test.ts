import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultAssetsDir } from '../../../../src/local/extract/extractorPool';
import { extractPdf } from '../../../../src/local/extract/pdf';
import { ExtractionError, type Extraction } from '../../../../src/local/extract/types';
import { makeBigPdf, makePdf } from './pdfWriter';

const docs = path.resolve(__dirname, '../../../fixtures/docs');
const assetsDir = defaultAssetsDir();
const fixture = (name: string): string => path.join(docs, name);

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof ExtractionError, `expected an ExtractionError, got ${String(error)}`);
  return error;
}

describe('extractPdf', () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'kd-pdf-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  describe('two-pages-en.pdf (printed by Chromium)', () => {
    let result: Extraction;
    before(async () => {
      result = await extractPdf(fixture('two-pages-en.pdf'), { assetsDir });
    });

    it('has two pages with their own text, and the document title', () => {
      assert.equal(result.kind, 'pdf');
      assert.deepEqual(
        result.pages.map((p) => p.pageNo),
        [1, 2],
      );
      assert.equal(
        result.pages[0]?.text,
        'Two Page Test Document\n\nThe first line mentions the alpha project.\n\nThe second line mentions the beta budget.',
      );
      assert.equal(result.pages[1]?.text, 'Second Page\n\nPage two talks about the gamma release.');
      assert.equal(result.title, 'Two Page Test Document');
      assert.equal(result.estimatedPages, undefined);
    });

    it('gives every item a normalized box inside the page', () => {
      const items = result.pages.flatMap((p) => p.items ?? []);
      assert.ok(items.length >= 5);
      for (const { str, box } of items) {
        const [left, top, right, bottom] = box;
        assert.ok(0 <= left && left < right && right <= 1, `${str}: ${box}`);
        assert.ok(0 <= top && top < bottom && bottom <= 1, `${str}: ${box}`);
      }
    });

    it('places the boxes where the text is printed: top-left origin, lines in reading order', () => {
      const items = result.pages[0]?.items ?? [];
      const find = (needle: string) => items.find((i) => i.str.includes(needle))?.box;
      const heading = find('Two Page Test Document');
      const alpha = find('alpha project');
      const beta = find('beta budget');
      assert.ok(heading && alpha && beta);
      // Where poppler's `pdftotext -bbox` puts the heading on this 594.96 x 841.92 pt page: x 57.0-297.3, y 65.9-88.2.
      const near = (actual: number, points: number, size: number) =>
        assert.ok(Math.abs(actual - points / size) < 0.01, `${actual} vs ${points / size}`);
      near(heading[0], 57.0, 594.96);
      near(heading[2], 297.3, 594.96);
      near(heading[1], 65.9, 841.92);
      near(heading[3], 88.2, 841.92);
      assert.ok(heading[3] <= alpha[1] && alpha[3] <= beta[1], 'top to bottom: heading, alpha, beta');
      assert.ok(Math.abs(alpha[0] - beta[0]) < 0.005, 'paragraphs share the left margin');
      assert.ok(!(result.pages[1]?.items ?? []).some((i) => i.str.includes('alpha')));
    });
  });

  it('extracts Japanese text with ideographs, not look-alike radicals (japanese.pdf)', async () => {
    const { pages, title } = await extractPdf(fixture('japanese.pdf'), { assetsDir });
    assert.equal(pages.length, 1);
    assert.ok(pages[0]?.text.includes('東京本社の会議室は十二階にあります。'), pages[0]?.text);
    assert.ok(pages[0]?.text.includes('経費精算は月末までに申請してください。'));
    assert.doesNotMatch(pages[0]?.text ?? '', /[\u2e80-\u2fdf]/);
    assert.equal(title, '日本語テスト文書');
  });

  it('reads Japanese from a font that is not embedded, through the bundled cMaps (japanese-cmap.pdf)', async () => {
    const { pages } = await extractPdf(fixture('japanese-cmap.pdf'), { assetsDir });
    assert.equal(pages[0]?.text, '埋め込みなしの日本語フォント\n東京都千代田区');
  });

  it('loses that text without the cMaps, which is why assetsDir matters', async () => {
    const noMaps = path.join(tmp, 'no-maps');
    mkdirSync(path.join(noMaps, 'cmaps'), { recursive: true });
    mkdirSync(path.join(noMaps, 'standard_fonts'), { recursive: true });
    const error = await failure(extractPdf(fixture('japanese-cmap.pdf'), { assetsDir: noMaps }));
    assert.equal(error.reason, 'empty');
  });

  it('refuses to run without the support files instead of reporting the PDF as empty', async () => {
    await assert.rejects(extractPdf(fixture('japanese.pdf'), { assetsDir: path.join(tmp, 'missing') }), /PDF support files are missing/);
  });

  it('reports a PDF without a text layer as empty, with an OCR hint', async () => {
    const error = await failure(extractPdf(fixture('image-only.pdf'), { assetsDir }));
    assert.equal(error.reason, 'empty');
    assert.match(error.message, /only images/);
    assert.match(error.message, /OCR/);
  });

  it('counts a page without text as a page', async () => {
    const file = path.join(tmp, 'blank-first.pdf');
    writeFileSync(file, makePdf([{ lines: [] }, { lines: ['Text on the second page.'] }]));
    const { pages } = await extractPdf(file, { assetsDir });
    assert.deepEqual(
      pages.map((p) => [p.pageNo, p.text, p.items?.length]),
      [
        [1, '', 0],
        [2, 'Text on the second page.', 1],
      ],
    );
  });

  it('reports a password-protected PDF as encrypted', async () => {
    const error = await failure(extractPdf(fixture('encrypted.pdf'), { assetsDir }));
    assert.equal(error.reason, 'encrypted');
    assert.equal(error.message, 'The PDF is password-protected; remove the password and upload it again.');
  });

  it('reports a damaged PDF as broken, with what to do', async () => {
    const error = await failure(extractPdf(fixture('broken.pdf'), { assetsDir }));
    assert.equal(error.reason, 'broken');
    assert.match(error.message, /^The file is not a valid PDF or is damaged \(.+\); open it in a PDF viewer, save or export it again/);
  });

  it('stops with tooLarge above maxPages', async () => {
    const file = path.join(tmp, 'five.pdf');
    writeFileSync(file, makeBigPdf(5, 2));
    const error = await failure(extractPdf(file, { assetsDir, maxPages: 3 }));
    assert.equal(error.reason, 'tooLarge');
    assert.match(error.message, /has 5 pages, more than the limit of 3/);
    assert.equal((await extractPdf(file, { assetsDir, maxPages: 5 })).pages.length, 5);
  });

  it('honours an abort signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(extractPdf(fixture('two-pages-en.pdf'), { assetsDir, signal: controller.signal }), { name: 'AbortError' });
  });

  it('keeps one line per text line on a generated multi-page PDF', async () => {
    const file = path.join(tmp, 'many.pdf');
    writeFileSync(file, makeBigPdf(3, 4));
    const { pages } = await extractPdf(file, { assetsDir });
    assert.equal(pages.length, 3);
    assert.deepEqual(
      pages[2]?.text.split('\n').map((l) => l.slice(0, 14)),
      ['Page 3 line 1:', 'Page 3 line 2:', 'Page 3 line 3:', 'Page 3 line 4:'],
    );
  });
});
