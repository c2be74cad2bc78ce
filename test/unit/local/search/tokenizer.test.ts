import assert from 'node:assert/strict';
import { normalizeText, tokenize, tokenizerMode, tokenizeWithBigrams, tokenSet } from '../../../../src/local/search/tokenizer';

describe('Multilingual tokenizer', () => {
  it('uses Intl.Segmenter in this Node (the probe found a Japanese dictionary)', () => {
    assert.equal(tokenizerMode(), 'segmenter');
  });

  it('keeps katakana words whole across the prolonged sound mark ー', () => {
    assert.deepEqual(tokenize('ファイル'), ['ファイル']);
    assert.deepEqual(tokenize('スーパーマーケット'), ['スーパーマーケット']);
    // The Segmenter's own split of this compound, not a break at ー.
    assert.deepEqual(tokenize('アップロード'), ['アップ', 'ロード']);
    assert.ok(tokenize('ファイルをアップロードする').every((t) => !t.startsWith('ー') && !t.endsWith('ァ')));
  });

  it('keeps the iteration mark 々 inside words', () => {
    assert.deepEqual(tokenize('佐々木'), ['佐々木']);
    assert.deepEqual(tokenize('日々の業務'), ['日々', 'の', '業務']);
  });

  it('segments a Japanese sentence into words', () => {
    assert.deepEqual(tokenize('東京都に住んでいる'), ['東京', '都', 'に', '住', 'んで', 'いる']);
  });

  it('splits mixed English and Japanese and lower-cases', () => {
    assert.deepEqual(tokenize('VPNの設定方法を教えて (Setup)!'), ['vpn', 'の', '設定', '方法', 'を', '教え', 'て', 'setup']);
    assert.deepEqual(tokenize('第3回会議は25日です'), ['第', '3', '回', '会議', 'は', '25', '日', 'です']);
  });

  it('makes character bigrams of Korean so particles do not hide the word', () => {
    assert.deepEqual(tokenize('휴가를 신청하는 방법'), ['휴가', '가를', '신청', '청하', '하는', '방법']);
    assert.ok(
      tokenize('휴가').every((t) => tokenize('휴가를').includes(t)),
      '휴가 matches 휴가를',
    );
    assert.deepEqual(tokenize('2024년 휴가'), ['2024', '년', '휴가']);
    assert.deepEqual(tokenize('가'), ['가']);
  });

  it('segments Chinese into words', () => {
    assert.deepEqual(tokenize('如何申请年假？'), ['如何', '申请', '年假']);
  });

  it('normalises full-width and half-width forms (NFKC) before lower-casing', () => {
    assert.equal(normalizeText('Ａ１'), 'a1');
    assert.deepEqual(tokenize('Ａ１'), ['a1']);
    assert.deepEqual(tokenize('Ｖｅｒ２．０'), ['ver2.0']);
    assert.deepEqual(tokenize('ｶﾀｶﾅ'), ['カタカナ']);
    assert.deepEqual(tokenize('㈱テスト'), ['株', 'テスト']);
  });

  it("drops punctuation and whitespace, keeps numbers and word-internal . ' ,", () => {
    assert.deepEqual(tokenize('Hello, world! 1,000円 — “quoted” … 3.14'), ['hello', 'world', '1,000', '円', 'quoted', '3.14']);
    assert.deepEqual(tokenize("don't e-mail user@example.com snake_case a,b"), [
      "don't",
      'e',
      'mail',
      'user',
      'example.com',
      'snake_case',
      'a',
      'b',
    ]);
    assert.deepEqual(tokenize('。、！？ ... --- ()'), []);
    assert.deepEqual(tokenize(''), []);
  });

  it('tokenizes Latin words the same with or without Japanese around them', () => {
    for (const word of ["don't", 'example.com', '1,000', 'v1.2.3', 'snake_case', 'café', 'привет']) {
      const alone = tokenize(word);
      const inJapanese = tokenize(`これは${word}です`);
      assert.ok(
        alone.every((t) => inJapanese.includes(t)),
        `${word}: ${JSON.stringify(alone)} in ${JSON.stringify(inJapanese)}`,
      );
    }
  });

  it('tokenSet removes repeats in first-occurrence order', () => {
    assert.deepEqual(tokenSet('VPN vpn ＶＰＮ setup VPN'), ['vpn', 'setup']);
  });

  it('falls back to bigrams for Han and Kana (without splitting ー or 々 out)', () => {
    assert.deepEqual(tokenizeWithBigrams('東京都'), ['東京', '京都']);
    assert.deepEqual(tokenizeWithBigrams('佐々木'), ['佐々', '々木']);
    assert.deepEqual(tokenizeWithBigrams('VPNの設定'), ['vpn', 'の設', '設定']);
    assert.deepEqual(tokenizeWithBigrams('ファイル'), ['ファ', 'ァイ', 'イル']);
  });

  it('handles long text in pieces without losing or splitting words', () => {
    const sentence = '経費精算の申請は、月末までにワークフローシステムから行ってください。';
    const long = sentence.repeat(200);
    const tokens = tokenize(long);
    assert.deepEqual(tokens, Array.from({ length: 200 }, () => tokenize(sentence)).flat());
    // A run without any boundary for thousands of characters is cut but never drops characters.
    const kanji = '漢'.repeat(5000);
    assert.equal(tokenize(kanji).join('').length, 5000);
    const astral = '𠮷'.repeat(3000); // astral Han: a cut must not split a surrogate pair
    assert.ok(tokenize(astral).every((t) => !/[\ud800-\udbff]$/.test(t) && !/^[\udc00-\udfff]/.test(t)));
  });

  // Measured ≈450k tokens/s (Japanese) and ≈1.5M (English) on a 2-core machine; the floors leave room for a busy
  // CI machine and still catch the quadratic slow-down of feeding the Segmenter one huge string (≈2k tokens/s).
  it('tokenizes in time linear in the text (the throughput itself is in npm run bench)', () => {
    const ja =
      '経費精算の申請は、月末までにワークフローシステムから行ってください。佐々木部長の承認が必要です。東京都内の出張は日当の対象外となります。';
    const en = 'To set up the VPN on a new laptop, install the client, sign in with your company account and choose the nearest gateway. ';
    const textOf = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    // CPU time (best of three) at 40k and 320k characters: 8× if linear, 64× if quadratic; a ratio, so machine speed cancels out.
    const cpuMs = (text: string): number => {
      let best = Infinity;
      for (let run = 0; run < 3; run++) {
        const before = process.cpuUsage();
        assert.ok(tokenize(text).length > 0);
        const used = process.cpuUsage(before);
        best = Math.min(best, (used.user + used.system) / 1000);
      }
      return best;
    };
    tokenize(textOf(ja, 5000));
    for (const [name, unit] of [
      ['ja', ja],
      ['en', en],
    ] as const) {
      const small = cpuMs(textOf(unit, 40_000));
      const large = cpuMs(textOf(unit, 320_000));
      const ratio = large / Math.max(small, 2);
      assert.ok(ratio < 24, `${name}: 8× the text took ${ratio.toFixed(1)}× the CPU time (${small.toFixed(0)} → ${large.toFixed(0)} ms)`);
    }
  });
});
