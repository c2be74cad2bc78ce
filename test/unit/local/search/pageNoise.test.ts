// Running headers and footers, page numbers and contents lines stay in the page text but out of passages,
// so a search never finds them and an answer never quotes them.
import assert from 'node:assert/strict';
import type { ExtractedPage, Extraction } from '../../../../src/local/extract/types';
import type { Weights } from '../../../../src/local/search/fusion';
import { RetrievalIndex } from '../../../../src/local/search/retrievalIndex';

const BM25: Weights = { bm25: 1, text: 0, title: 0 };

const TOPICS = ['Holidays', 'Travel', 'Expenses', 'Laptops', 'Badges', 'Training', 'Printing', 'Meetings', 'Lockers', 'Visitors'];

function body(n: number): string {
  return (
    `${n}.1 ${TOPICS[n]} at the office\n\n` +
    `Paragraph about subject ${n}: employees submit form ${n} to the office before the deadline, and the manager ` +
    `reviews it within a week. Questions about subject ${n} go to the help desk.`
  );
}

/** A printed manual: a contents page, then pages with a running header, and a footer with the printed number. */
function manual(): Extraction {
  const pages: ExtractedPage[] = [
    {
      pageNo: 1,
      text:
        'Contents\n\n' +
        '1 Getting started . . . . . . . . . . . . 3\n2 Holidays and travel reimbursement . . . . . . 4\n' +
        '3 Parking permits . . . . . . . . . 5\n\nii',
    },
  ];
  for (let p = 2; p <= 9; p++) {
    const printed = p - 1;
    const footer = p % 2 ? `${p}.1. ${TOPICS[p]} at the office ${printed}` : `${printed} Chapter ${p}. Acme Staff Handbook`;
    const header =
      p % 2
        ? `CHAPTER ${p}. ${TOPICS[p].toUpperCase()} … ${p}.1. ${TOPICS[p].toUpperCase()} AT …`
        : `Acme Staff Handbook, Release 2.${p % 3}`;
    pages.push({ pageNo: p, text: `${header}\n\n${body(p)}\n\n${footer}` });
  }
  pages.push({ pageNo: 10, text: 'CHAPTER 9. PARKING … 9.2. PERMITS …\n\nParking permits are issued by the facilities team.\n\n9' });
  return { kind: 'pdf', pages };
}

/** A plain-text manual whose first page is a contents list without page numbers. */
function textManual(): Extraction {
  const contents = [
    '目次',
    '',
    '1. 定義と概要',
    '    1.1. この FAQ は何?',
    '    1.2. Debian GNU/Linux とは何?',
    '    1.3. Linux とは何?',
    '    1.4. Debian は GNU/Linux だけ?',
    '    1.5. 他のディストリビューションとの違いは',
    '    何? 選択すべき理由は?',
    '2. 取得とインストール',
    '    2.1. 最新のバージョンは何?',
  ].join('\n');
  return {
    kind: 'text',
    estimatedPages: true,
    pages: [
      { pageNo: 1, text: contents },
      { pageNo: 2, text: '1.1. この FAQ は何?\n\n    この文書は Debian についてよく聞かれる疑問に答えます。' },
    ],
  };
}

function passagesOf(index: RetrievalIndex, nodeId: string): Array<{ pageNo: number; text: string }> {
  return index.doc(nodeId)!.passageIds.map((id) => index.passage(id)!);
}

describe('Page noise: headers, footers, page numbers and contents lines are not content', () => {
  it('keeps running headers, printed page numbers and chapter footers out of passages, and the page text whole', () => {
    const index = new RetrievalIndex();
    const doc = manual();
    const before = doc.pages.map((p) => p.text);
    index.add('n1', 'h1', 'handbook.pdf', doc);
    const passages = passagesOf(index, 'n1');
    assert.ok(passages.length >= 9, `${passages.length} passages`);
    for (const p of passages) {
      assert.doesNotMatch(p.text, /Acme Staff Handbook/, `page ${p.pageNo}: ${p.text}`);
      assert.doesNotMatch(p.text, /\d$/, `page ${p.pageNo} ends in a page number: ${p.text}`);
      assert.doesNotMatch(p.text, /CHAPTER/, `page ${p.pageNo}: ${p.text}`);
    }
    assert.ok(passages.some((p) => p.pageNo === 10 && p.text === 'Parking permits are issued by the facilities team.'));
    assert.ok(
      passages.some((p) => p.pageNo === 4 && p.text.startsWith('4.1 Badges at the office')),
      'a section heading is content',
    );
    assert.deepEqual(
      doc.pages.map((p) => p.text),
      before,
      'the page text (what the viewer shows) is unchanged',
    );
    assert.deepEqual(
      index.search('Acme Staff Handbook Release', BM25, () => true),
      [],
      'the running header is not searchable',
    );
  });

  it('keeps table-of-contents lines (dot leaders, page numbers) out of passages and search', () => {
    const index = new RetrievalIndex();
    index.add('n1', 'h1', 'handbook.pdf', manual());
    assert.ok(!passagesOf(index, 'n1').some((p) => p.pageNo === 1), 'the contents page has no passage');
    const hits = index.search('parking permits', BM25, () => true);
    assert.deepEqual([...new Set(hits.map((h) => h.passage.pageNo))], [10], 'the page that says it, not the contents line');
  });

  it('keeps a plain-text contents list out of passages, but not the section it lists', () => {
    const index = new RetrievalIndex();
    index.add('n2', 'h2', 'faq.txt', textManual());
    const passages = passagesOf(index, 'n2');
    assert.deepEqual(
      passages.map((p) => p.pageNo),
      [2],
    );
    assert.deepEqual([...new Set(index.search('この FAQ は何', BM25, () => true).map((h) => h.passage.pageNo))], [2]);
  });

  it('keeps an index page out of passages, but not a list of quantities', () => {
    const index = new RetrievalIndex();
    const entries = ['apt-get, 12, 45', 'aptitude, 14', 'backports, 30–32', 'changelog, 7', 'debconf, 22, 23', 'dpkg, 9'];
    const stock = ['Pens 40', 'Paper 12', 'Staplers 3', 'Envelopes 250', 'Markers 18', 'Folders 60'];
    index.add('n4', 'h4', 'manual.txt', {
      kind: 'text',
      pages: [
        { pageNo: 1, text: `Stock on hand\n\n${stock.join('\n')}` },
        { pageNo: 2, text: `Index\n\n${entries.join('\n')}` },
      ],
    });
    assert.deepEqual(
      passagesOf(index, 'n4').map((p) => p.pageNo),
      [1],
    );
    assert.match(passagesOf(index, 'n4')[0].text, /Staplers 3/);
  });

  it('leaves body text alone when nothing repeats: a document without headers keeps every line', () => {
    const index = new RetrievalIndex();
    const pages = [1, 2, 3, 4, 5].map((n) => ({ pageNo: n, text: body(n) }));
    index.add('n3', 'h3', 'plain.pdf', { kind: 'pdf', pages });
    assert.deepEqual(
      passagesOf(index, 'n3').map((p) => p.text),
      pages.map((p) => p.text),
    );
  });
});
