import assert from 'node:assert/strict';
import { loadPage } from './support/page';

type Range = { start: number; end: number; exact: boolean } | null;
const m = loadPage<{
  normalizeForMatch(s: string): { text: string; starts: number[]; ends: number[] };
  findPassage(h: string, p: string): Range;
}>('src/webview/citation/passageMatch');
const t = loadPage<{
  locatePassage(
    pages: Array<{ pageNo: number; text: string }>,
    passage: string,
    cited: number | null,
  ): { pageNo: number; range: NonNullable<Range> } | null;
}>('src/webview/citation/textView');

const marked = (text: string, r: Range): string => (r ? text.slice(r.start, r.end) : '(none)');

describe('Citation viewer: finding the passage in the text', () => {
  it('normalizes with NFKC and lower case, drops whitespace, and maps back to the original offsets', () => {
    const n = m.normalizeForMatch('Ｐａｉｄ  Leave\n⽉ ｶﾞ');
    assert.equal(n.text, 'paidleave月ガ');
    assert.equal(n.starts[4], 6, 'l of Leave starts after the two spaces');
    assert.equal(n.starts[9], 12, '月 comes from ⽉ at offset 12');
    assert.equal(n.ends[n.text.length - 1], 16);
  });

  it('finds a passage whose line breaks and spacing differ from the page', () => {
    const page =
      'Paid leave increases by one day for each full year of service, up to a maximum of 25 days per\nyear.\nUp to 5 unused days…';
    const r = m.findPassage(page, 'up to a maximum of 25 days per year.');
    assert.deepEqual(r && { ...r }, { start: page.indexOf('up to a maximum'), end: page.indexOf('year.\n') + 5, exact: true });
    assert.equal(marked(page, r), 'up to a maximum of 25 days per\nyear.');
  });

  it('finds Japanese passages across spaces, line breaks, full-width digits and CJK compatibility radicals', () => {
    const page = '第7条（時間外労働）時間外労働は1か⽉45時間、\n1年 360時間を上限とする。\n第3章 休⽇および休暇';
    const r = m.findPassage(page, '時間外労働は１か月４５時間、１年３６０時間を上限とする。');
    assert.equal(r?.exact, true);
    assert.equal(marked(page, r), '時間外労働は1か⽉45時間、\n1年 360時間を上限とする。');
    const holiday = m.findPassage(page, '休日および休暇');
    assert.equal(marked(page, holiday), '休⽇および休暇');
  });

  it('falls back to the passage’s beginning and end when its middle differs', () => {
    const page =
      'Intro. Every expense above 5,000 yen needs a receipt; for smaller amounts a short note in the finance portal is enough. Next.';
    const passage = 'Every expense above 5,000 yen needs a receipt - for smaller amounts a short note in the finance portal is enough.';
    const r = m.findPassage(page, passage);
    assert.equal(r?.exact, false);
    assert.equal(
      marked(page, r),
      'Every expense above 5,000 yen needs a receipt; for smaller amounts a short note in the finance portal is enough.',
    );
  });

  it('marks the longest beginning or end of a passage that runs onto another page, and nothing for unrelated text', () => {
    const page = 'Client dinners are limited to 10,000 yen per person, including drinks.';
    const r = m.findPassage(page, 'including drinks. Approved expenses are reimbursed with the next monthly salary payment.');
    assert.equal(marked(page, r), 'including drinks.');
    assert.equal(m.findPassage(page, 'Quarterly bonuses are paid in April and October.'), null);
    assert.equal(m.findPassage(page, '   '), null);
  });

  it('looks on the cited page first, then elsewhere, preferring an exact match', () => {
    const pages = [
      { pageNo: 1, text: '宿泊費の上限は1泊12,000円です。' },
      { pageNo: 2, text: '日当は1日2,000円です。宿泊費の上限は1泊12,000円です。東京23区は15,000円まで。' },
    ];
    assert.equal(t.locatePassage(pages, '宿泊費の上限は1泊12,000円です。', 2)?.pageNo, 2);
    assert.equal(t.locatePassage(pages, '宿泊費の上限は1泊12,000円です。', 1)?.pageNo, 1);
    assert.equal(t.locatePassage(pages, '東京23区は15,000円まで。', 1)?.pageNo, 2);
    assert.equal(t.locatePassage(pages, '', 1), null);
  });
});
