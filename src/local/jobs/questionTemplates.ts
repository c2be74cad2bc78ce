// The local question generator ("local-template"): no language model is available offline, so questions are
// templates around a key phrase of a sentence, and the answer is that sentence quoted verbatim. Transparent by
// design: every answer can be found word for word in its source document, and rare_config says which
// generator made the rows. The key phrase is the run of up to three content words (not numbers, not stop
// words) within one clause whose terms are rarest in the knowledge base (highest IDF); for Japanese, the
// run of up to four kanji/katakana/Latin words from Intl.Segmenter.
import { isHeadingLine } from '../answers/extractive';
import { languageOf, type Lang } from '../answers/intent';
import { sentenceSpans } from '../search/sentences';
import { normalizeText } from '../search/tokenizer';

const MIN_SENTENCE = 20;
const MAX_SENTENCE = 400;
const MAX_EN_WORDS = 3;
const MAX_JA_WORDS = 4;

const STOP = new Set(
  (
    'a an the and or but nor so yet of to in on at by for from with without into onto over under about above below between through during ' +
    'before after since until upon within per via as than then that this these those there here it its they them their we our us you your ' +
    'he she his her him i me my is are was were be been being am do does did done have has had having can could may might must shall should ' +
    'will would not no yes all any each every some such other another more most less least many much few only also very just same own ' +
    'which who whom whose what when where why how if whether while because although though get gets got make makes made use used using ' +
    'one two three first second new see e.g i.e etc please via following follows include includes including'
  ).split(' '),
);

const EN_WORD = /[\p{L}][\p{L}\p{N}'’-]*|\p{N}[\p{N},.]*/gu;
const CLAUSE_BREAK = /[,;:()[\]{}"“”‘’!?。、．，：；（）「」『』【】\u2013\u2014/|]+/u;
const HAS_DIGIT = /\p{N}/u;
const JA_CONTENT = /[\p{Script=Han}\p{Script=Katakana}ー\p{L}]/u;
const HIRAGANA_ONLY = /^[\p{Script=Hiragana}ー]+$/u;
const JA_STOP = new Set(
  '以降 以内 以上 以下 未満 場合 前 後 時 際 等 的 上 中 内 外 毎 各 全 他 方 者 よう ため こと もの とき'.split(' '),
);

let jaSegmenter: Intl.Segmenter | undefined;

/** Sentences of a chunk worth asking about: not headings, not fragments, not walls of text. */
export function askableSentences(text: string): string[] {
  const out: string[] = [];
  for (const span of sentenceSpans(text)) {
    const s = text.slice(span.start, span.end);
    // Table rows (tabs) and multi-line fragments read badly as answers.
    if (s.length < MIN_SENTENCE || s.length > MAX_SENTENCE || /[\n\t]/.test(s) || isHeadingLine(s)) continue;
    out.push(s);
  }
  return out;
}

/** The question language: the requested one (en/ja), else the sentence's own. */
export function questionLanguage(requested: string | undefined, sentence: string): Lang {
  const r = requested?.toLowerCase();
  if (r === 'ja' || r === 'japanese') return 'ja';
  if (r === 'en' || r === 'english') return 'en';
  return languageOf(sentence);
}

export function keyPhrase(sentence: string, idf: (term: string) => number): string | undefined {
  return languageOf(sentence) === 'ja' ? jaPhrase(sentence, idf) : enPhrase(sentence, idf);
}

/**
 * The best window of up to `maxWords` consecutive words of one run: the sum of the words' IDF minus, for
 * each word beyond the first, the mean IDF of the sentence's content words — so a phrase grows only by words
 * rarer than the sentence's average ("VPN client", not "VPN client installed").
 */
function bestWindow(runs: string[][], idf: (term: string) => number, maxWords: number, join: string, minChars: number): string | undefined {
  const weights = runs.map((run) => run.map((w) => idf(normalizeText(w))));
  const all = weights.flat();
  if (!all.length) return undefined;
  const penalty = all.reduce((a, b) => a + b, 0) / all.length;
  let best: { text: string; score: number } | undefined;
  runs.forEach((run, r) => {
    for (let i = 0; i < run.length; i++) {
      let sum = 0;
      for (let len = 1; len <= maxWords && i + len <= run.length; len++) {
        sum += weights[r][i + len - 1];
        const score = sum - penalty * (len - 1);
        const text = run.slice(i, i + len).join(join);
        if (text.length >= minChars && (!best || score > best.score)) best = { text, score };
      }
    }
  });
  return best?.text;
}

function enPhrase(sentence: string, idf: (term: string) => number): string | undefined {
  const runs: string[][] = [];
  for (const clause of sentence.split(CLAUSE_BREAK)) {
    let run: string[] = [];
    let end = 0;
    const close = (): void => {
      if (run.length) runs.push(run);
      run = [];
    };
    for (const m of clause.matchAll(EN_WORD)) {
      const w = m[0];
      // Words joined by anything but spaces (payroll@aozora.example, 2.4.0) do not make a phrase.
      if (/\S/.test(clause.slice(end, m.index))) close();
      end = m.index + w.length;
      if (!HAS_DIGIT.test(w) && w.length >= 3 && !STOP.has(w.toLowerCase())) run.push(w);
      else close();
    }
    close();
  }
  const phrase = bestWindow(runs, idf, MAX_EN_WORDS, ' ', 3);
  if (!phrase) return undefined;
  // The first word of a sentence loses its capital ("Employees" → "employees"), names ("VPN", "GlobalProtect") keep theirs.
  return sentence.startsWith(phrase) && /^\p{Lu}\p{Ll}*$/u.test(phrase.split(' ')[0]) ? phrase[0].toLowerCase() + phrase.slice(1) : phrase;
}

function jaPhrase(sentence: string, idf: (term: string) => number): string | undefined {
  jaSegmenter ??= new Intl.Segmenter('ja', { granularity: 'word' });
  const runs: string[][] = [];
  let run: string[] = [];
  let afterNumber = false;
  for (const { segment, isWordLike } of jaSegmenter.segment(sentence)) {
    // A counter after a number (22時, 5日間, 1泊) is part of the number, not of a phrase.
    const counter = afterNumber && segment.length <= 2;
    const numeric = HAS_DIGIT.test(segment);
    afterNumber = numeric;
    if (isWordLike && !counter && !numeric && JA_CONTENT.test(segment) && !HIRAGANA_ONLY.test(segment) && !JA_STOP.has(segment)) {
      // A one-kanji segment ends the compound before it (宿泊|費 → 宿泊費, 従業|員 → 従業員).
      if (run.length && segment.length === 1 && /\p{Script=Han}/u.test(segment)) run[run.length - 1] += segment;
      else run.push(segment);
    } else if (run.length) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return bestWindow(runs, idf, MAX_JA_WORDS, '', 2);
}

const EN_TEMPLATES = [
  (p: string) => `What does the document say about ${p}?`,
  (p: string, t: string) => `According to "${t}", what is stated about ${p}?`,
  (p: string) => `What information is given regarding ${p}?`,
];
const JA_TEMPLATES = [
  (p: string) => `文書では「${p}」について何と書かれていますか？`,
  (p: string, t: string) => `「${t}」によると、「${p}」についてどう定められていますか？`,
  (p: string) => `「${p}」について、どのような記載がありますか？`,
];

/** The `variant`-th template (rotating) around `phrase`; `title` is the source document's name. */
export function questionFor(phrase: string, lang: Lang, title: string, variant: number): string {
  const templates = lang === 'ja' ? JA_TEMPLATES : EN_TEMPLATES;
  return templates[variant % templates.length](phrase, title.replace(/\.[^.]{1,8}$/, ''));
}
