import assert from 'node:assert/strict';
import type { ExtractedPage } from '../../../../src/local/extract/types';
import { decodeClueId, passageClueId, qnaClueId } from '../../../../src/local/search/clueId';
import { locate } from '../../../../src/local/search/highlightResolver';
import { highlightFor, lineSpanBox, pdfBoxes } from '../../../../src/local/search/highlights';
import { alignItems, MAX_PASSAGE_CHARS, MIN_PASSAGE_CHARS, pagePassages } from '../../../../src/local/search/passages';
import { sentenceSpans } from '../../../../src/local/search/sentences';

const sentences = (text: string) => sentenceSpans(text).map((s) => text.slice(s.start, s.end));

describe('Retrieval passages, sentences, clue ids and highlight boxes', () => {
  it('splits sentences with Intl.Segmenter, merging English abbreviations and breaking at lines', () => {
    assert.deepEqual(sentences('Dr. Sato arrived on Jan. 5 at 9 a.m. sharp. He left early, e.g. before lunch. Done'), [
      'Dr. Sato arrived on Jan. 5 at 9 a.m. sharp.',
      'He left early, e.g. before lunch.',
      'Done',
    ]);
    assert.deepEqual(sentences('宿泊費の上限は1泊12,000円です。東京23区は15,000円まで認められます。'), [
      '宿泊費の上限は1泊12,000円です。',
      '東京23区は15,000円まで認められます。',
    ]);
    assert.deepEqual(sentences('## Heading\n\nBody text here.\nNext line'), ['## Heading', 'Body text here.', 'Next line']);
    assert.deepEqual(sentences('Contact J. Smith today.'), ['Contact J. Smith today.'], 'an initial is not a sentence end');
  });

  it('keeps a sentence wrapped over lines whole, but not a heading, a blank line or a new sentence', () => {
    assert.deepEqual(sentences('New team members receive a laptop. The IT desk sets up single sign-on and\nthe VPN client before noon.'), [
      'New team members receive a laptop.',
      'The IT desk sets up single sign-on and\nthe VPN client before noon.',
    ]);
    assert.deepEqual(sentences('## Accounts\nrequest access first.'), ['## Accounts', 'request access first.'], 'a heading');
    assert.deepEqual(sentences('7.3 Setting the hostname\nthe file is /etc/hostname.'), [
      '7.3 Setting the hostname',
      'the file is /etc/hostname.',
    ]);
    assert.deepEqual(sentences('One line ends here\n\nand a paragraph starts.'), ['One line ends here', 'and a paragraph starts.']);
    assert.deepEqual(sentences('It ends.\nthen lower case.'), ['It ends.', 'then lower case.'], 'an end mark before the break');
    assert.deepEqual(sentences('A list item\n- Next item'), ['A list item', '- Next item'], 'no lower case after it');
  });

  it('cuts a page into passages of about 300–800 characters that cover it in order', () => {
    const paragraphs = Array.from(
      { length: 12 },
      (_, i) => `## Section ${i}\n\n` + `Sentence ${i} says something about topic ${i}. `.repeat(3 + (i % 5) * 4).trim(),
    );
    const text = paragraphs.join('\n\n');
    const passages = pagePassages({ pageNo: 4, text });
    assert.ok(passages.length >= 5, `${passages.length} passages`);
    passages.forEach((p, i) => {
      assert.equal(p.subTextIndex, i);
      assert.equal(p.pageNo, 4);
      assert.equal(p.text, text.slice(p.start, p.end));
      assert.ok(p.text.length <= MAX_PASSAGE_CHARS + 100, `passage ${i}: ${p.text.length}`);
      if (i < passages.length - 1) assert.ok(p.text.length >= MIN_PASSAGE_CHARS / 2, `passage ${i}: ${p.text.length}`);
      assert.ok(!/\n## Section \d+$/.test(p.text), 'a heading stays with its text');
      assert.equal(p.lineStart, text.slice(0, p.start).split('\n').length - 1);
      assert.equal(p.lineEnd, text.slice(0, p.end).split('\n').length - 1);
    });
    const squash = (s: string) => s.replace(/\s+/g, '');
    assert.equal(squash(passages.map((p) => p.text).join('')), squash(text), 'nothing lost, nothing repeated');
    for (let i = 1; i < passages.length; i++) assert.ok(passages[i].start >= passages[i - 1].end);
    assert.deepEqual(pagePassages({ pageNo: 4, text }), passages, 'deterministic');
  });

  it('cuts an overlong line (a table row, a run-on sentence) at spaces', () => {
    const text = 'word '.repeat(500).trim();
    const passages = pagePassages({ pageNo: 1, text });
    assert.ok(passages.length >= 3);
    assert.ok(
      passages.every(
        (p) => p.text.length <= MAX_PASSAGE_CHARS + MIN_PASSAGE_CHARS / 2 && !p.text.startsWith(' ') && /^(word ?)+$/.test(p.text),
      ),
    );
  });

  const pdfPage: ExtractedPage = {
    pageNo: 2,
    text: 'Title line\n\nFirst sentence here. Second sentence\ncontinues here.\n\nThird paragraph.',
    items: [
      { str: 'Title line', box: [0.1, 0.1, 0.5, 0.12] },
      { str: 'First sentence here. Second sentence', box: [0.1, 0.2, 0.9, 0.22] },
      { str: 'continues here.', box: [0.1, 0.23, 0.4, 0.25] },
      { str: 'Third paragraph.', box: [0.1, 0.3, 0.45, 0.32] },
    ],
  };

  it('aligns PDF items with the page text and keeps the items of each passage', () => {
    const spans = alignItems(pdfPage);
    pdfPage.items!.forEach((item, i) => assert.equal(pdfPage.text.slice(spans[i]!.start, spans[i]!.end), item.str));
    const [p] = pagePassages(pdfPage);
    assert.deepEqual(p.items, [0, 3]);
    // Radical-unified or re-spaced items still align by their non-space characters.
    const spaced: ExtractedPage = {
      pageNo: 1,
      text: 'A B\tC',
      items: [
        { str: 'A  B', box: [0, 0, 0.5, 0.1] },
        { str: 'C', box: [0.6, 0, 0.7, 0.1] },
      ],
    };
    assert.deepEqual(alignItems(spaced), [
      { start: 0, end: 3 },
      { start: 4, end: 5 },
    ]);
  });

  it('boxes a PDF range by its items, narrowing partly covered items and merging each line', () => {
    const start = pdfPage.text.indexOf('Second sentence');
    const end = pdfPage.text.indexOf('Third') - 2;
    const boxes = pdfBoxes(pdfPage, start, end);
    assert.equal(boxes.length, 2, 'two lines');
    const item = pdfPage.items![1];
    const from = (start - pdfPage.text.indexOf(item.str)) / item.str.length;
    assert.ok(Math.abs(boxes[0].left - (0.1 + 0.8 * from)) < 1e-3, `narrowed to the covered part: ${boxes[0].left}`);
    assert.equal(boxes[0].right, 0.9);
    assert.deepEqual(boxes[1], { left: 0.1, top: 0.23, right: 0.4, bottom: 0.25 });
    const twoRuns: ExtractedPage = {
      pageNo: 1,
      text: 'Left cell\tRight cell',
      items: [
        { str: 'Left cell', box: [0.1, 0.5, 0.3, 0.52] },
        { str: 'Right cell', box: [0.6, 0.505, 0.8, 0.525] },
      ],
    };
    assert.deepEqual(pdfBoxes(twoRuns, 0, twoRuns.text.length), [{ left: 0.1, top: 0.5, right: 0.8, bottom: 0.525 }]);
    assert.equal(highlightFor(pdfPage, 0, 5).type, 'PARAGRAPH');
  });

  it('boxes other documents by line span: top = first line / lines, bottom = (last line + 1) / lines', () => {
    const text = 'l0\nl1\nl2\n\nl4 a\nl5 b\nl6\nl7';
    assert.deepEqual(lineSpanBox(text, text.indexOf('l4'), text.indexOf('l5 b') + 4), { left: 0, top: 0.5, right: 1, bottom: 0.75 });
    assert.deepEqual(highlightFor({ pageNo: 3, text }, 0, 2), {
      bboxes: [{ left: 0, top: 0, right: 1, bottom: 0.125 }],
      type: 'PARAGRAPH',
      pageNo: 3,
    });
  });

  it('encodes clue ids statelessly and rejects anything else', () => {
    const hash = 'ab'.repeat(32);
    const id = passageClueId('node-1', 3, 2, hash);
    assert.match(id, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeClueId(id), { kind: 'passage', nodeId: 'node-1', pageNo: 3, subTextIndex: 2, hash: hash.slice(0, 12) });
    assert.deepEqual(decodeClueId(qnaClueId('faq-9')), { kind: 'qna', faqId: 'faq-9' });
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const bad of [
      '',
      'a b',
      enc(['n', 0, 0, 'abababababab']),
      enc(['n', 1, -1, 'abababababab']),
      enc(['n', 1, 0, 'xyz']),
      enc({ nodeId: 'n' }),
      enc(['', 1, 0, 'abababababab']),
      'e30',
    ]) {
      assert.equal(decodeClueId(bad), undefined, bad);
    }
  });

  it('locates quoted text whatever its line breaks', () => {
    const text = 'Every expense above 5,000 yen needs a receipt; for smaller\namounts a short note is enough.';
    assert.deepEqual(locate(text, 'for smaller amounts a short note'), {
      start: text.indexOf('for smaller'),
      end: text.indexOf(' is enough'),
    });
    assert.equal(locate(text, 'not in the text'), undefined);
    assert.ok(locate(text, 'receipt; (for') === undefined, 'regex characters are literal');
  });
});
