import assert from 'node:assert/strict';
import type { Candidate } from '../../../src/local/nlu/entity';
import { onWordBoundaries } from '../../../src/local/nlu/entity';
import { Gazetteer } from '../../../src/local/nlu/gazetteer';
import { cutText, Recognizer, resolve } from '../../../src/local/nlu/recognizer';

const recognizer = new Recognizer();
/** `tag:token` of every entity, after checking the offsets of each. */
function found(text: string, r: Recognizer = recognizer): string[] {
  const { inputText, entities } = r.recognize(text);
  for (const e of entities) assert.equal(inputText.slice(e.startIndex, e.endIndex), e.token, `offsets of ${e.token}`);
  return entities.map((e) => `${e.tag}:${e.token}`);
}
const only = (tag: string, text: string): string[] =>
  found(text)
    .filter((t) => t.startsWith(`${tag}:`))
    .map((t) => t.slice(tag.length + 1));

describe('Entity recognizer (patterns, gazetteer, overlaps)', () => {
  it('finds e-mail addresses and URLs, leaving sentence punctuation outside', () => {
    assert.deepEqual(only('EMAIL', 'Write to jane.smith+kd@mail.example.co.jp. Or ops@example.com, not a@b or x@y.z1.'), [
      'jane.smith+kd@mail.example.co.jp',
      'ops@example.com',
    ]);
    assert.deepEqual(
      only('URL', 'See https://example.com/docs?q=1. Also (http://example.org/a_(b)) and www.example.net, ftp://files.example.com/x!'),
      ['https://example.com/docs?q=1', 'http://example.org/a_(b)', 'www.example.net', 'ftp://files.example.com/x'],
    );
    assert.deepEqual(only('URL', '詳しくはhttps://example.jp/guideをご覧ください。'), ['https://example.jp/guide']);
    assert.deepEqual(only('URL', 'https:// alone, http://'), []);
  });

  it('finds international, US and Japanese phone numbers but not dates or plain numbers', () => {
    assert.deepEqual(only('PHONE', 'Call +81 3-1234-5678, +81-90-1234-5678, +1 (415) 555-0123 or +44 20 7946 0958.'), [
      '+81 3-1234-5678',
      '+81-90-1234-5678',
      '+1 (415) 555-0123',
      '+44 20 7946 0958',
    ]);
    assert.deepEqual(only('PHONE', 'US: (415) 555-0123, 415-555-0123, 415.555.0123'), ['(415) 555-0123', '415-555-0123', '415.555.0123']);
    assert.deepEqual(only('PHONE', '電話03-1234-5678、携帯090-1234-5678、フリーダイヤル0120-123-456、(03) 1234-5678、0466−12−3456'), [
      '03-1234-5678',
      '090-1234-5678',
      '0120-123-456',
      '(03) 1234-5678',
      '0466−12−3456',
    ]);
    assert.deepEqual(only('PHONE', '2026-11-21, 03-12-2026, 12345678, 1-2-3, v1.2.3, 4111-1111-1111-1111'), []);
  });

  it('finds amounts with a sign, a code, a word or a Japanese unit, never a bare number', () => {
    assert.deepEqual(
      only('MONEY', 'It costs $1,200 or US$30 or €5 or £3.50, maybe $1.2 million; USD 30, 30 USD, JPY 12,000, 100 dollars, 3 million yen.'),
      ['$1,200', 'US$30', '€5', '£3.50', '$1.2 million', 'USD 30', '30 USD', 'JPY 12,000', '100 dollars', '3 million yen'],
    );
    assert.deepEqual(only('MONEY', '¥12,000、￥500、12,000円、1.5万円、3億5000万円、１２，０００円、30ドル、100元、五千円、百円'), [
      '¥12,000',
      '￥500',
      '12,000円',
      '1.5万円',
      '3億5000万円',
      '１２，０００円',
      '30ドル',
      '100元',
      '五千円',
      '百円',
    ]);
    assert.deepEqual(only('MONEY', '何千円も、数万円、1200 people, 2026, 円安'), []);
  });

  it('finds dates in numeric, English and Japanese forms, and relative words', () => {
    assert.deepEqual(only('DATE', 'On 2026-11-21, 2026/11/21, 11/21/2026 and 21/11/2026 — not 2026-13-40, 11/21 or 99/99/2026.'), [
      '2026-11-21',
      '2026/11/21',
      '11/21/2026',
      '21/11/2026',
    ]);
    assert.deepEqual(
      only('DATE', 'November 21, 2026; Nov. 21st; 21 Nov; the 21st of November 2026; November 2026; in March; May 2026; May 5.'),
      ['November 21, 2026', 'Nov. 21st', '21 Nov', '21st of November 2026', 'November 2026', 'March', 'May 2026', 'May 5'],
    );
    assert.deepEqual(only('DATE', 'May I help? Today, tomorrow or next week, but not Mondayish; next Friday.'), [
      'Today',
      'tomorrow',
      'next week',
      'next Friday',
    ]);
    assert.deepEqual(
      only('DATE', '2026年11月21日(土)、11月21日、2026年11月、2026年度、１１月２１日、令和8年、平成元年5月1日、月曜日、3ヶ月後、13月40日'),
      ['2026年11月21日(土)', '11月21日', '2026年11月', '2026年度', '１１月２１日', '令和8年', '平成元年5月1日', '月曜日'],
    );
    assert.deepEqual(only('DATE', '今日と明日、明後日、一昨日、来週、再来週、先月、来年、本日'), [
      '今日',
      '明日',
      '明後日',
      '一昨日',
      '来週',
      '再来週',
      '先月',
      '来年',
      '本日',
    ]);
  });

  it('finds people by title or honorific, without the title, and their other mentions', () => {
    assert.deepEqual(only('PERSON', 'Dr. Jane Smith met Mr. McDonald and Ms. O’Brien. Later Smith left.'), [
      'Jane Smith',
      'McDonald',
      'O’Brien',
      'Smith',
    ]);
    assert.deepEqual(only('PERSON', '田中さんと佐藤太郎様、山田氏、鈴木先生、スミスさんに連絡。田中は不在。'), [
      '田中',
      '佐藤太郎',
      '山田',
      '鈴木',
      'スミス',
      '田中',
    ]);
    assert.deepEqual(only('PERSON', 'お客様、皆さん、ご担当者様、会員様、ユーザー様、学生さん、たくさん'), []);
    // The honorific beats the prefecture on the same span.
    assert.deepEqual(found('千葉さん'), ['PERSON:千葉']);
  });

  it('finds organisations by company form and by the built-in list', () => {
    assert.deepEqual(
      only('ORGANIZATION', 'The Acme Widgets, Inc. team, Globex Corp. and Tokyo Electric Power Co., Ltd. met Initech LLC and Google.'),
      ['Acme Widgets, Inc.', 'Globex Corp.', 'Tokyo Electric Power Co., Ltd.', 'Initech LLC', 'Google'],
    );
    assert.deepEqual(only('ORGANIZATION', 'トヨタ自動車株式会社と株式会社ソニー、(株)ナレッジ、有限会社山田商店、国連、楽天的な人'), [
      'トヨタ自動車株式会社',
      '株式会社ソニー',
      '(株)ナレッジ',
      '有限会社山田商店',
      '国連',
    ]);
  });

  it('finds places in English and Japanese, respecting word edges', () => {
    assert.deepEqual(only('LOCATION', 'From Tokyo to New York via San Francisco; Tokyoite is not a place; United States.'), [
      'Tokyo',
      'New York',
      'San Francisco',
      'United States',
    ]);
    assert.deepEqual(only('LOCATION', '東京都内、大阪、北海道、神奈川県、ニューヨーク、タイ。日本語のタイトル、日本人。'), [
      '東京都',
      '大阪',
      '北海道',
      '神奈川県',
      'ニューヨーク',
      'タイ',
    ]);
  });

  it('resolves overlaps by tier, then length, then rank', () => {
    const c = (start: number, end: number, tag: string, tier: Candidate['tier'], rank = 0): Candidate => ({ start, end, tag, tier, rank });
    assert.deepEqual(
      resolve([c(0, 3, 'A', 1), c(0, 2, 'B', 1), c(1, 3, 'C', 1)], 5).map((x) => x.tag),
      ['A'],
    );
    assert.deepEqual(
      resolve([c(0, 10, 'LONG', 1), c(2, 4, 'SHAPE', 2)], 10).map((x) => x.tag),
      ['SHAPE'],
    );
    assert.deepEqual(
      resolve([c(0, 4, 'LIST', 1, 1), c(0, 4, 'HONORIFIC', 1, 3)], 4).map((x) => x.tag),
      ['HONORIFIC'],
    );
    assert.deepEqual(
      resolve([c(4, 6, 'B', 1), c(0, 2, 'A', 1), c(1, 5, 'X', 1)], 6).map((x) => x.tag),
      ['X'],
    );
    // An e-mail address containing a taught word stays an e-mail address.
    const taught = new Recognizer(new Gazetteer([['support', 'TEAM']]));
    assert.deepEqual(found('Mail support@example.com, support team.', taught), ['EMAIL:support@example.com', 'TEAM:support']);
  });

  it('matches taught phrases exactly, at word edges, the latest tag winning', () => {
    const g = new Gazetteer();
    assert.equal(g.add('Project Phoenix', 'PROJECT'), true);
    assert.equal(g.add('Project Phoenix', 'PROJECT'), false);
    assert.equal(g.add('ナレッジ', 'PRODUCT'), true);
    assert.equal(g.add('ナレッジ', 'BRAND'), true);
    assert.equal(g.tagOf('ナレッジ'), 'BRAND');
    assert.equal(g.size, 2);
    const r = new Recognizer(g);
    assert.deepEqual(found('Project Phoenix, project phoenix, Project Phoenixes; ナレッジの話、ナレッジデスク', r), [
      'PROJECT:Project Phoenix',
      'BRAND:ナレッジ',
    ]);
    assert.equal(onWordBoundaries('東京都内', 0, 2), true);
    assert.equal(onWordBoundaries('タイトル', 0, 2), false);
  });

  it('counts offsets in UTF-16 code units, so an emoji before an entity counts 2', () => {
    const text = '👍🏽 café 😀 Tokyo 𠮷野家で 03-1234-5678';
    const { entities } = recognizer.recognize(text);
    assert.deepEqual(
      entities.map((e) => [e.tag, e.token, e.startIndex]),
      [
        ['LOCATION', 'Tokyo', text.indexOf('Tokyo')],
        ['PHONE', '03-1234-5678', text.indexOf('03-')],
      ],
    );
    assert.equal(text.indexOf('Tokyo'), 13, '👍🏽 is 4 code units, 😀 2');
  });

  it('considers the first 2,000 code units and returns no entity crossing the cut', () => {
    const pad = (n: number): string => 'x '.repeat(n / 2);
    assert.equal(cutText('a'.repeat(2500)).length, 2000);
    assert.equal(cutText('a'.repeat(1999) + '😀b').length, 1999, 'a surrogate pair is not split');
    // jane@example.com at 1995–2011 crosses the cut: not returned, and no fragment (jane@example.co) either.
    const crossing = recognizer.recognize(pad(1994) + ' jane@example.com Tokyo');
    assert.equal(crossing.inputText.length, 2000);
    assert.deepEqual(crossing.entities, []);
    // One that ends exactly at 2,000 is returned.
    const inside = recognizer.recognize(pad(1984) + 'jane@example.com and more text after the cut');
    assert.deepEqual(
      inside.entities.map((e) => [e.token, e.startIndex, e.endIndex]),
      [['jane@example.com', 1984, 2000]],
    );
  });

  it('keeps nested patterns from running away on hostile input', () => {
    // Runaway backtracking grows much faster than the input: each hostile input is timed (CPU, best of three)
    // against its own first half, a ratio no slow or busy machine changes. Linear is 2×, quadratic 4×.
    const cpuMs = (text: string): number => {
      let best = Infinity;
      for (let run = 0; run < 3; run++) {
        const before = process.cpuUsage();
        found(text);
        const used = process.cpuUsage(before);
        best = Math.min(best, (used.user + used.system) / 1000);
      }
      return best;
    };
    for (const hostile of ['1'.repeat(1999) + 'x', 'Dr. ' + 'Abc '.repeat(490), 'A '.repeat(999), '株式会社'.repeat(500)]) {
      const half = cpuMs(hostile.slice(hostile.length / 2));
      const full = cpuMs(hostile);
      const ratio = full / Math.max(half, 5);
      assert.ok(
        ratio < 8,
        `${JSON.stringify(hostile.slice(0, 12))}…: twice the input took ${ratio.toFixed(1)}× the CPU time (${half} → ${full} ms)`,
      );
    }
  });
});
