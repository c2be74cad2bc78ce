// The extractive answerer (docs/api.md#extractive-answers). A matching Q&A answers by itself (qnaAnswer).
// Otherwise the top passages are split into sentences; each sentence is scored by the weighted share of the
// query terms it covers (rarer terms weigh more) plus a small bonus for higher-ranked sources. The best
// sentence covering at least MIN_COVERAGE of the query anchors the answer, which is that sentence and its
// neighbours in the same passage: 2 to 4 contiguous sentences in document order, never crossing a heading
// (a heading ends the section) — one place in the document, not fragments stitched from several. Nothing
// qualifying → no answer: the service says so instead of guessing.
//
// Word forms match at a discount ("submit an expense" ~ "expenses must be submitted"): tokens are compared
// by their index form too (analysis.ts: katakana long vowels) and by a light English suffix stripper.
//
// Context counts too, at a discount: the heading a sentence sits under ("## Accommodation" over "The limit is
// 12,000 yen per night.") and, for a Q&A, the question its answer answers.
import type { PassageHit } from '../search/retrieval';
import type { WeightedTerm } from '../search/queryTerms';
import { termOf } from '../search/analysis';
import { sentenceClueId } from '../search/clueId';
import { sentenceSpans, type Span } from '../search/sentences';
import { tokenize } from '../search/tokenizer';

export const MIN_COVERAGE = 0.5;
/** An answer's sentences: at least two where the section has them, at most four. */
export const MIN_ANSWER_SENTENCES = 2;
export const MAX_ANSWER_SENTENCES = 4;
/** Beyond the first two, a neighbour joins only while the answer stays this short and it covers a query term. */
const MAX_ANSWER_CHARS = 600;
const RANK_BONUS = 0.1;
const HEADING_WEIGHT = 0.5;
const QNA_QUESTION_WEIGHT = 0.8;
const INFLECTION_WEIGHT = 0.9;
const MIN_SENTENCE_CHARS = 12;

export interface AnswerSource {
  kind: 'document' | 'qna';
  /** 0 = best */
  rank: number;
  text: string;
  clueId: string;
  title: string;
  /** document sources */
  hit?: PassageHit;
  /** Q&A sources */
  faq?: { id: string; question: string; confidence: number };
}

export interface ChosenSentence {
  text: string;
  source: AnswerSource;
  /** Weighted share of the query terms covered, 0–1 (for an answer of several sentences: all of them together). */
  coverage: number;
  score: number;
  /** Where the sentence lies in source.text (document sources), for highlights that mark it alone. */
  span?: Span;
}

interface Sentence {
  text: string;
  span: Span;
  /** A heading line: a section boundary, never quoted. */
  heading: boolean;
  /** Query terms it holds (indexes into the terms), with their credit (1, or a discount). */
  credit: Map<number, number>;
  coverage: number;
  /** Whether the sentence itself (not its heading or Q&A question) holds a query term. */
  ownMatch: boolean;
}

export function chooseSentences(terms: readonly WeightedTerm[], sources: readonly AnswerSource[]): ChosenSentence[] {
  const total = terms.reduce((s, t) => s + t.weight, 0);
  if (!total || !sources.length) return [];
  const ranks = sources.reduce((max, s) => Math.max(max, s.rank), 0) + 1;
  const termForms = terms.map((t) => formOf(t.term));
  let best: { source: AnswerSource; sentences: Sentence[]; at: number; score: number } | undefined;
  for (const source of sources) {
    const bonus = RANK_BONUS * (1 - source.rank / ranks);
    const sentences = splitSentences(source, terms, termForms, total);
    sentences.forEach((s, at) => {
      if (s.heading || s.coverage < MIN_COVERAGE || !quotable(s.text)) return;
      const score = s.coverage + bonus;
      if (!best || score > best.score) best = { source, sentences, at, score };
    });
  }
  if (!best) return [];
  const { source, sentences, at, score } = best;
  let first = at;
  let last = at;
  const chars = (): number => sentences.slice(first, last + 1).reduce((n, s) => n + s.text.length, 0);
  // A heading, or a section-number fragment ("2." of "2. Cafeteria"), ends the section.
  const usable = (i: number): boolean =>
    i >= 0 &&
    i < sentences.length &&
    !sentences[i].heading &&
    /\p{L}{2}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(sentences[i].text);
  while (last - first + 1 < MAX_ANSWER_SENTENCES) {
    const before = usable(first - 1) ? sentences[first - 1] : undefined;
    const after = usable(last + 1) ? sentences[last + 1] : undefined;
    // The next sentence usually carries the explanation on; the previous one wins only when it alone holds a query word.
    const pick = after && (!before || after.ownMatch || !before.ownMatch) ? 'after' : before ? 'before' : undefined;
    if (!pick) break;
    const next = pick === 'after' ? after! : before!;
    if (last - first + 1 >= MIN_ANSWER_SENTENCES && (!next.ownMatch || chars() + next.text.length > MAX_ANSWER_CHARS)) break;
    if (pick === 'after') last++;
    else first--;
  }
  const used = sentences.slice(first, last + 1);
  const credit = new Map<number, number>();
  for (const s of used) for (const [i, c] of s.credit) credit.set(i, Math.max(credit.get(i) ?? 0, c));
  let covered = 0;
  for (const [i, c] of credit) covered += c * terms[i].weight;
  const coverage = Math.min(1, covered / total);
  return used.map((s) => ({ text: s.text, source, coverage, score, span: s.span }));
}

/** A sentence worth quoting: not a fragment (a few CJK characters are a phrase, not a fragment). */
function quotable(text: string): boolean {
  return text.length >= MIN_SENTENCE_CHARS || /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{6}/u.test(text);
}

/** The sentences of a source, in order, each with the query terms it covers (heading and Q&A question at a discount). */
function splitSentences(source: AnswerSource, terms: readonly WeightedTerm[], termForms: readonly string[], total: number): Sentence[] {
  const questionTokens = new Set(source.faq ? tokenize(source.faq.question) : []);
  let headingTokens = new Set<string>();
  const out: Sentence[] = [];
  for (const span of sentenceSpans(source.text)) {
    const raw = source.text.slice(span.start, span.end);
    if (source.kind === 'document' && isHeadingLine(raw)) {
      headingTokens = new Set(tokenize(raw));
      out.push({ text: raw, span, heading: true, credit: new Map(), coverage: 0, ownMatch: false });
      continue;
    }
    const text = cleanSentence(raw);
    const tokens = new Set(tokenize(text));
    const forms = new Set([...tokens].map(formOf));
    const credit = new Map<number, number>();
    let ownMatch = false;
    terms.forEach(({ term }, i) => {
      const c = tokens.has(term)
        ? 1
        : forms.has(termForms[i])
          ? INFLECTION_WEIGHT
          : questionTokens.has(term)
            ? QNA_QUESTION_WEIGHT
            : headingTokens.has(term)
              ? HEADING_WEIGHT
              : 0;
      if (c) credit.set(i, c);
      if (c >= INFLECTION_WEIGHT) ownMatch = true;
    });
    let covered = 0;
    for (const [i, c] of credit) covered += c * terms[i].weight;
    out.push({ text, span, heading: false, credit, coverage: covered / total, ownMatch });
  }
  return out;
}

/**
 * The chosen sentences citing their source narrowed to the characters they span (clueId.ts), so the
 * citation's highlight marks the sentences used rather than the whole passage. The source is copied, not
 * changed.
 */
export function citeSentences(chosen: readonly ChosenSentence[]): ChosenSentence[] {
  const narrowed = new Map<AnswerSource, AnswerSource>();
  for (const source of new Set(chosen.map((c) => c.source))) {
    const spans = chosen.filter((c) => c.source === source && c.span).map((c) => c.span!);
    if (source.kind !== 'document' || !spans.length) continue;
    // A loop, not Math.min(...): the rule of src/local (noArgumentSpread.test.ts) holds for short arrays too.
    let start = Infinity;
    let end = -Infinity;
    for (const s of spans) {
      start = Math.min(start, s.start);
      end = Math.max(end, s.end);
    }
    narrowed.set(source, { ...source, clueId: sentenceClueId(source.clueId, start, end) });
  }
  return chosen.map((c) => ({ ...c, source: narrowed.get(c.source) ?? c.source }));
}

/**
 * A matching Q&A's answer as the answer: every line (paragraphs of an HTML answer become lines) in order, each cited, its coverage the Q&A's
 * confidence (the Q&A search's match of the question). Empty when the answer has no text.
 */
export function qnaAnswer(source: AnswerSource): ChosenSentence[] {
  const coverage = source.faq?.confidence ?? 0;
  return source.text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .map((text) => ({ text, source, coverage, score: coverage }));
}

/** A heading: Markdown `#`, or one short line without closing punctuation and without table cells. */
export function isHeadingLine(text: string): boolean {
  const t = text.trim();
  if (/^#{1,6}\s/.test(t)) return true;
  return t.length <= 80 && !t.includes('\n') && !t.includes('\t') && !/[.!?。！？:：;；、,]["'」』）)]*$/.test(t);
}

/** One line of display text: list and heading markers dropped, table cells joined with " | ", spaces collapsed. */
export function cleanSentence(raw: string): string {
  return raw
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s*(#{1,6}\s+|[-*+•・]\s+|>\s*)/u, '')
        .split('\t')
        .map((c) => c.trim())
        .filter(Boolean)
        .join(' | '),
    )
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The form word variants share: index form (analysis.ts), then English suffixes stripped. */
function formOf(token: string): string {
  return lightStem(termOf(token));
}

/**
 * A deliberately small English suffix stripper (plural -s/-es/-ies, -ed, -ing, doubled final consonant):
 * enough to match inflections of the same word, not a Porter stemmer. Other scripts pass through.
 */
export function lightStem(token: string): string {
  if (token.length < 4 || !/^[a-z]+$/.test(token)) return token;
  let t = token;
  if (t.endsWith('ies') && t.length > 4) return `${t.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(t)) return t;
  if (/(sses|xes|ches|shes|zes)$/.test(t)) t = t.slice(0, -2);
  else if (t.endsWith('s')) t = t.slice(0, -1);
  else if (t.endsWith('ied') && t.length > 4) return `${t.slice(0, -3)}y`;
  else if (t.endsWith('ed') && t.length > 4) t = t.slice(0, -2);
  else if (t.endsWith('ing') && t.length > 5) t = t.slice(0, -3);
  else return t;
  // submitt(ed) → submit, plann(ing) → plan; but not fill, pass, buzz.
  if (/([b-df-hj-np-tv-z])\1$/.test(t) && !/(ll|ss|zz)$/.test(t)) t = t.slice(0, -1);
  return t;
}
