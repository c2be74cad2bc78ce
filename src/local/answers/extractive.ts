// The extractive answerer (docs/api.md#extractive-answers). A matching Q&A answers by itself (qnaAnswer).
// Otherwise the top passages are split into sentences; each sentence is scored by the weighted share of the query terms it
// covers (rarer terms weigh more) plus a small bonus for higher-ranked sources; up to two non-duplicate
// sentences covering at least 0.34 of the query are kept, the second only if it scores at least 0.6 of the
// best. Nothing qualifying → no answer: the service says so instead of guessing.
//
// English inflections match at a discount ("submit an expense" ~ "expenses must be submitted"): the index has
// no stemmer, so without this an answer sentence in other word forms would never qualify.
//
// Context counts too, at a discount: the heading a sentence sits under ("## Accommodation" over "The limit is
// 12,000 yen per night.") and, for a Q&A, the question its answer answers.
import type { PassageHit } from '../search/retrieval';
import type { WeightedTerm } from '../search/queryTerms';
import { sentenceSpans } from '../search/sentences';
import { tokenize } from '../search/tokenizer';

export const MIN_COVERAGE = 0.34;
export const SECOND_SENTENCE_RATIO = 0.6;
const RANK_BONUS = 0.1;
const HEADING_WEIGHT = 0.5;
const QNA_QUESTION_WEIGHT = 0.8;
const DUPLICATE_OVERLAP = 0.6;
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
  /** Weighted share of the query terms covered, 0–1. */
  coverage: number;
  score: number;
}

interface Candidate extends ChosenSentence {
  tokens: Set<string>;
}

export function chooseSentences(terms: readonly WeightedTerm[], sources: readonly AnswerSource[]): ChosenSentence[] {
  const total = terms.reduce((s, t) => s + t.weight, 0);
  if (!total || !sources.length) return [];
  const ranks = sources.reduce((max, s) => Math.max(max, s.rank), 0) + 1;
  const candidates: Candidate[] = [];
  for (const source of sources) {
    const bonus = RANK_BONUS * (1 - source.rank / ranks);
    const questionTokens = new Set(source.faq ? tokenize(source.faq.question) : []);
    let headingTokens = new Set<string>();
    for (const span of sentenceSpans(source.text)) {
      const raw = source.text.slice(span.start, span.end);
      if (source.kind === 'document' && isHeadingLine(raw)) {
        headingTokens = new Set(tokenize(raw));
        continue;
      }
      const text = cleanSentence(raw);
      if (text.length < MIN_SENTENCE_CHARS && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{6}/u.test(text)) continue;
      const tokens = new Set(tokenize(text));
      const stems = new Set([...tokens].map(lightStem));
      let covered = 0;
      for (const { term, weight } of terms) {
        if (tokens.has(term)) covered += weight;
        else if (stems.has(lightStem(term))) covered += INFLECTION_WEIGHT * weight;
        else if (questionTokens.has(term)) covered += QNA_QUESTION_WEIGHT * weight;
        else if (headingTokens.has(term)) covered += HEADING_WEIGHT * weight;
      }
      const coverage = covered / total;
      candidates.push({ text, source, coverage, score: coverage + bonus, tokens });
    }
  }
  const ranked = candidates.filter((c) => c.coverage >= MIN_COVERAGE).sort((a, b) => b.score - a.score || a.source.rank - b.source.rank);
  const best = ranked[0];
  if (!best) return [];
  const chosen: Candidate[] = [best];
  for (const c of ranked.slice(1)) {
    if (c.score < SECOND_SENTENCE_RATIO * best.score) break;
    if (!isDuplicate(c, best)) {
      chosen.push(c);
      break;
    }
  }
  return chosen.map(({ tokens: _t, ...rest }) => rest);
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

function isDuplicate(a: Candidate, b: Candidate): boolean {
  if (a.text === b.text) return true;
  let shared = 0;
  for (const t of a.tokens) if (b.tokens.has(t)) shared++;
  const union = a.tokens.size + b.tokens.size - shared;
  return union > 0 && shared / union >= DUPLICATE_OVERLAP;
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
