// The multilingual tokenizer shared by Q&A search and document retrieval
// (docs/api.md#text-search-and-lexical-hash-v1). After NFKC and lower-casing, text is cut into
// runs by script:
// - Han and Kana (plus Thai, Lao, Khmer, Myanmar, which also need a dictionary) go through Intl.Segmenter,
//   which splits Japanese and Chinese into words. ー (U+30FC) and 々 belong to the run although they are not
//   in the Han or Kana script classes; splitting there would break ファイル, アップロード, 佐々木;
// - Hangul becomes character bigrams: the Segmenter only splits Korean at spaces, leaving particles attached
//   (휴가를 would never match 휴가);
// - everything else (Latin, Cyrillic, digits…) is split by a regular expression following the Unicode word
//   rules the Segmenter applies to it ("don't", "example.com", "1,000", "3.14", "a1" stay whole), because the
//   Segmenter costs ~2 µs per segment and most questions are mostly Latin;
// - punctuation and whitespace are dropped, numbers kept.

const DICT =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}ー々〆ヶヵ';
const HANGUL = '\\p{Script=Hangul}';
// Letters, marks, digits and the connector _ of the other scripts (set subtraction needs the v flag).
const W = `[[\\p{L}\\p{M}\\p{N}_]--[${DICT}${HANGUL}]]`;
// A word: W+ joined by . ' ’ (between letters or digits) or by , between digits — as Unicode word rules do.
const WORD = `${W}+(?:(?:[.'’]|(?<=\\p{N}),(?=\\p{N}))${W}+)*`;
const RUNS = new RegExp(`([${DICT}]+)|([${HANGUL}]+)|(${WORD})`, 'gv');
const HAS_DICT = new RegExp(`[${DICT}]`, 'v');
const DICT_WORD = new RegExp(`^[${DICT}]+$`, 'v');
// The fallback (no usable Segmenter) makes bigrams of dictionary runs too.
const HAS_LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
// Intl.Segmenter slows down more than linearly on long strings (16k characters take 4× longer than 16 × 1k),
// so long text is fed in pieces, cut after whitespace or 。、！？ where possible (no word continues there).
const CHUNK = 512;
const CUT_AFTER = /[\s。、！？!?]/u;

/** NFKC then lower case: full-width Ａ１ becomes a1, half-width ｶﾀｶﾅ becomes カタカナ. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Every token of `text` in order, repeats kept (BM25 needs term frequencies). */
export function tokenize(text: string): string[] {
  return tokenizeNormalized(normalizeText(text), wordSegmenter());
}

/** The distinct tokens of `text`, in first-occurrence order. */
export function tokenSet(text: string): string[] {
  return [...new Set(tokenize(text))];
}

/** The fallback used when Intl.Segmenter cannot split Japanese: bigrams for CJK and Hangul, words otherwise. */
export function tokenizeWithBigrams(text: string): string[] {
  return tokenizeNormalized(normalizeText(text), null);
}

/** Which method `tokenize` uses in this runtime (the probe runs once). */
export function tokenizerMode(): 'segmenter' | 'bigrams' {
  return wordSegmenter() ? 'segmenter' : 'bigrams';
}

function tokenizeNormalized(text: string, segmenter: Intl.Segmenter | null): string[] {
  const out: string[] = [];
  // Text with Japanese (or Chinese, Thai…) goes to the Segmenter whole: one call per text is much cheaper
  // than one per script run. Its segments other than pure dictionary-script words are re-split by the
  // expression, so Latin words and Hangul come out exactly as they do from text without any Japanese.
  if (segmenter && HAS_DICT.test(text)) segmentInto(segmenter, text, out);
  else splitRuns(text, segmenter, out);
  return out;
}

function splitRuns(text: string, segmenter: Intl.Segmenter | null, out: string[]): void {
  for (const m of text.matchAll(RUNS)) {
    if (m[1] !== undefined) {
      if (segmenter) segmentInto(segmenter, m[1], out);
      else pushBigrams(m[1], out);
    } else if (m[2] !== undefined) {
      pushBigrams(m[2], out);
    } else {
      out.push(m[0]);
    }
  }
}

let probed: Intl.Segmenter | null | undefined;

/**
 * The Segmenter, or null when this runtime lacks it or lacks the dictionary (a small-ICU build returns a
 * whole Japanese phrase as one word, which would make every Japanese query miss).
 */
function wordSegmenter(): Intl.Segmenter | null {
  if (probed !== undefined) return probed;
  probed = null;
  try {
    if (typeof Intl.Segmenter === 'function') {
      const candidate = new Intl.Segmenter('ja', { granularity: 'word' });
      const words = [...candidate.segment('東京都に住んでいる人がファイルをアップロードした')].filter((s) => s.isWordLike);
      if (words.length >= 6 && words.every((w) => w.segment.length <= 6)) probed = candidate;
    }
  } catch {
    probed = null;
  }
  return probed;
}

function segmentInto(segmenter: Intl.Segmenter, run: string, out: string[]): void {
  // (run: a whole text holding dictionary-script characters, or one pure dictionary-script run)
  let start = 0;
  while (start < run.length) {
    let end = Math.min(start + CHUNK, run.length);
    if (end < run.length) {
      let cut = end;
      while (cut > start + CHUNK / 2 && !CUT_AFTER.test(run[cut - 1])) cut--;
      if (cut > start + CHUNK / 2) end = cut;
      else if (isLowSurrogate(run.charCodeAt(end))) end--; // no boundary nearby: never split a surrogate pair
    }
    for (const { segment, isWordLike } of segmenter.segment(run.slice(start, end))) {
      if (!isWordLike && !HAS_LETTER_OR_NUMBER.test(segment)) continue;
      if (DICT_WORD.test(segment)) out.push(segment);
      else splitRuns(segment, segmenter, out);
    }
    start = end;
  }
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Overlapping character pairs; a single character stands for itself. Iterates code points, not UTF-16 units. */
function pushBigrams(run: string, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(chars[0]);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
}
