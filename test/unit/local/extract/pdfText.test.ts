import assert from 'node:assert/strict';
import { joinSpacedCjk, layoutPageText, unifyRadicals, type PageViewport, type PdfjsTextItem } from '../../../../src/local/extract/pdfText';

// An unrotated 600 x 800 page: PDF y grows upwards, the viewport's downwards.
const viewport: PageViewport = {
  width: 600,
  height: 800,
  convertToViewportRectangle: ([x1 = 0, y1 = 0, x2 = 0, y2 = 0]) => [x1, 800 - y1, x2, 800 - y2],
};

const run = (str: string, x: number, y: number, width: number, hasEOL = false, size = 10): PdfjsTextItem => ({
  str,
  transform: [size, 0, 0, size, x, y],
  width,
  height: size,
  hasEOL,
});

describe('layoutPageText', () => {
  it('puts runs of one line together, with a space only for a visible gap', () => {
    const { text } = layoutPageText([run('Hello', 50, 700, 30), run('world', 85, 700, 30), run('!', 115, 700, 4)], viewport);
    assert.equal(text, 'Hello world!');
  });

  it('starts a new line on hasEOL and on a vertical move, and a blank line for a paragraph gap', () => {
    const { text } = layoutPageText(
      [
        run('Short line one', 50, 700, 80, true),
        { str: '', transform: [1, 0, 0, 1, 0, 0], width: 0, height: 0, hasEOL: true },
        run('Short line two', 50, 688, 80),
        run('After a gap', 50, 650, 60),
      ],
      viewport,
    );
    assert.equal(text, 'Short line one\nShort line two\n\nAfter a gap');
  });

  it('joins soft-wrapped lines of body text (space for Latin, nothing for CJK) but not finished sentences', () => {
    const { text } = layoutPageText(
      [
        run('Paid leave increases by one day for each full year of service, up to a maximum of 25 days per', 50, 700, 500),
        run('year. This sentence ends the paragraph.', 50, 688, 200),
        run('第1条 この規則は、従業員の労働条件および服務規律を定める', 50, 660, 500),
        run('ものである。', 50, 648, 60),
        run('A full-width line that ends a sentence right at the margin of the column.', 50, 620, 500),
        run('Next sentence.', 50, 608, 80),
      ],
      viewport,
    );
    assert.equal(
      text,
      'Paid leave increases by one day for each full year of service, up to a maximum of 25 days per year. This sentence ends the paragraph.\n\n' +
        '第1条 この規則は、従業員の労働条件および服務規律を定めるものである。\n\n' +
        'A full-width line that ends a sentence right at the margin of the column.\nNext sentence.',
    );
  });

  it('keeps list items and table rows on their own lines, with tabs between columns', () => {
    const { text } = layoutPageText(
      [
        run('Items that are bought for the office must be approved by the manager first', 50, 700, 500),
        run('• Paper', 50, 688, 40),
        run('Name', 50, 676, 30),
        run('Qty', 520, 676, 30),
        run('Pens 4', 50, 664, 40),
      ],
      viewport,
    );
    assert.equal(text, 'Items that are bought for the office must be approved by the manager first\n• Paper\nName\tQty\nPens 4');
  });

  it('joins letter-spaced Japanese (one character per run, a gap between) but keeps spaces between words', () => {
    // ネ ッ ト ワ ー ク の 設 定, each character its own run 4 pt after the previous one (a visible gap).
    const spaced = [...'ネットワークの設定'].map((ch, i) => run(ch, 50 + i * 14, 700, 10));
    const { text, items } = layoutPageText([...spaced, run('Debian パッケージ', 50, 688, 90), run('トラッカー', 150, 688, 50)], viewport);
    assert.equal(text, 'ネットワークの設定\nDebian パッケージ トラッカー');
    assert.equal(items.length, 11, 'one item (box) per run, as before');
    assert.equal(joinSpacedCjk('第 1 章 目 次 と 索 引 です'), '第 1 章目次と索引 です');
  });

  it('gives item boxes as page fractions, top-left origin, left<right and top<bottom, clamped to 0..1', () => {
    const { items } = layoutPageText([run('Top', 60, 760, 30), run('Off page', 580, 100, 100)], viewport);
    assert.deepEqual(items[0], { str: 'Top', box: [0.1, 0.0375, 0.15, 0.05] });
    assert.deepEqual(items[1]?.box, [0.9667, 0.8625, 1, 0.875]);
  });

  it('leaves whitespace-only runs out of items and ignores marked-content entries', () => {
    const { items, text } = layoutPageText([{ type: 'beginMarkedContent' }, run(' ', 50, 700, 3), run('x', 60, 700, 5)], viewport);
    assert.deepEqual(
      items.map((i) => i.str),
      ['x'],
    );
    assert.equal(text, 'x');
  });
});

describe('unifyRadicals', () => {
  it('maps Kangxi and supplement radicals that fonts share with ideographs back to the ideographs', () => {
    assert.equal(unifyRadicals('⽇本の⻘空と国⺠、⼆つ'), '日本の青空と国民、二つ');
    assert.equal(unifyRadicals('ordinary text 日本'), 'ordinary text 日本');
  });
});
