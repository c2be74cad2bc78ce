// The generative-answer response (docs/api.md#answer-response; extractive, labelled local-extractive). Built
// for the first `count` chosen sentences, so a stream can send the same shape growing sentence by sentence.
import { createHash } from 'node:crypto';
import { renderInline } from '../../core/draftInline';
import type { AnswerSource, ChosenSentence } from './extractive';
import type { Intent, Lang } from './intent';
import { writtenCitations, type WrittenAnswer } from './answerWriter';

export const LOCAL_MODEL = 'local-extractive';
export const NO_ANSWER: Record<Lang, string> = {
  en: 'No answer was found in the knowledge base for this question.',
  ja: 'ナレッジベースにこの質問の答えは見つかりませんでした。',
};
/** After NO_ANSWER: the pages that came closest, so the reader can look there (no citation: they do not answer). */
const CLOSEST: Record<Lang, (pages: string) => string> = {
  en: (pages) => `The closest pages: ${pages}.`,
  ja: (pages) => `近いページ: ${pages}`,
};
const CLOSEST_PAGES = 3;

export interface AnswerPlan {
  query: string;
  lang: Lang;
  format: 'DRAFTJS' | 'MARKDOWN';
  chosen: ChosenSentence[];
  /** Sources read for the answer, best first (the clues). */
  sources: AnswerSource[];
  intent: Intent;
  includeCitations: boolean;
  clues: boolean;
  clueText: boolean;
  notes: string[];
  stateful?: { threadId: string; fuQuestion: string; rewrittenQuery: string };
  /** Name of the folder holding a document (null at the top level). */
  folderOf?: (node: NonNullable<AnswerSource['hit']>['node']) => string | null;
  /** Extra fields (previews) added to every line. */
  extra?: Record<string, unknown>;
  /** Set while (and after) a writer writes the answer (writtenAnswer.ts): shown instead of the sentences. */
  written?: WrittenAnswer;
  /** The writer's steps, when one is configured and the plan is written (writtenAnswer.ts). */
  write?: (signal: AbortSignal, streaming: boolean) => AsyncGenerator<void>;
}

interface Cited {
  index: number;
  source: AnswerSource;
}

/** The response with the first `count` sentences (all by default). */
export function answerBody(plan: AnswerPlan, count = plan.chosen.length): Record<string, unknown> {
  if (plan.written) return writtenBody(plan, plan.written);
  const sentences = plan.chosen.slice(0, count);
  const cited: Cited[] = [];
  const markers = sentences.map((s) => {
    let c = cited.find((x) => x.source === s.source);
    if (!c) cited.push((c = { index: cited.length + 1, source: s.source }));
    return c.index;
  });
  const none = noAnswer(plan);
  const markdown = sentences.length
    ? sentences.map((s, i) => `${renderInline({ text: s.text }, {}).join(' ')} [${markers[i]}]`).join('\n\n')
    : none.join('\n\n');
  const blocks = sentences.length ? sentences.map((s, i) => `${s.text} [${markers[i]}]`) : none;
  return body(plan, { markdown, blocks, cited, model: LOCAL_MODEL, answered: sentences.length > 0 });
}

/** The response with the answer a writer wrote: its markers are source numbers, and so are its citations' indexes. */
function writtenBody(plan: AnswerPlan, written: WrittenAnswer): Record<string, unknown> {
  const blocks = written.text.split(/\n{2,}/).filter((b) => b.trim());
  const cited = writtenCitations(plan.sources, written);
  return body(plan, { markdown: written.text, blocks, cited, model: written.model, answered: true });
}

function body(
  plan: AnswerPlan,
  { markdown, blocks, cited, model, answered }: { markdown: string; blocks: string[]; cited: Cited[]; model: string; answered: boolean },
): Record<string, unknown> {
  const confidence = plan.chosen.length ? round(Math.min(1, plan.chosen[0].coverage)) : 0;
  const doc = cited.find((c) => c.source.kind === 'document')?.source.hit;
  const out: Record<string, unknown> = {
    answer: plan.format === 'MARKDOWN' ? markdown : draft(blocks),
    answerHash: createHash('sha256').update(`${plan.query}\u0000${markdown}`).digest('hex').slice(0, 32),
    confidence,
    // No feedback on generated answers is collected locally, so nothing adjusts the confidence.
    effectiveConfidence: confidence,
    documentId: doc?.node.id ?? null,
    documentName: doc?.node.name ?? null,
    hashtags: doc?.node.hashtags ?? [],
    pageNo: doc?.passage.pageNo ?? null,
    createdDate: doc ? new Date(doc.node.createdAt).toISOString() : null,
    folder: doc && plan.folderOf ? plan.folderOf(doc.node) : null,
    intent: plan.intent,
    model,
    notes: plan.notes,
  };
  if (plan.stateful) {
    out.threadId = plan.stateful.threadId;
    out.fuQuestion = plan.stateful.fuQuestion;
    out.rewrittenQuery = plan.stateful.rewrittenQuery;
  }
  // With no answer, the clues are the closest pages' passages (the ones the answer text names).
  if (plan.clues) out.clues = (answered ? plan.sources : closestSources(plan)).map((s) => clue(s, plan.clueText));
  if (plan.includeCitations) out.citations = cited.map(citation);
  Object.assign(out, plan.extra);
  return out;
}

/** The honest no-answer: NO_ANSWER, then the closest pages when some passages were found. */
function noAnswer(plan: AnswerPlan): string[] {
  const pages = closestSources(plan).map((s) =>
    plan.lang === 'ja' ? `${s.title} ${s.hit!.passage.pageNo}ページ` : `${s.title} p. ${s.hit!.passage.pageNo}`,
  );
  return pages.length ? [NO_ANSWER[plan.lang], CLOSEST[plan.lang](pages.join(plan.lang === 'ja' ? '、' : '; '))] : [NO_ANSWER[plan.lang]];
}

/** The best document passage of each of the first CLOSEST_PAGES distinct pages read. */
function closestSources(plan: AnswerPlan): AnswerSource[] {
  const seen = new Set<string>();
  const out: AnswerSource[] = [];
  for (const s of plan.sources) {
    if (s.kind !== 'document' || !s.hit || out.length >= CLOSEST_PAGES) continue;
    const key = `${s.hit.node.id}\n${s.hit.passage.pageNo}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(s);
  }
  return out;
}

function citation({ index, source }: Cited): Record<string, unknown> {
  return { index, ...sourceRef(source), url: '', text: source.text };
}

function clue(source: AnswerSource, withText: boolean): Record<string, unknown> {
  return withText ? { ...sourceRef(source), text: source.text } : sourceRef(source);
}

/** What citations and clues both say about a source. */
function sourceRef(source: AnswerSource): Record<string, unknown> {
  return {
    clueId: source.clueId,
    source: source.kind,
    title: source.title,
    pageNo: source.hit?.passage.pageNo ?? null,
    knowledgeBaseId: source.hit?.node.id ?? '',
    faqId: source.faq?.id ?? '',
  };
}

/** Draft.js raw content: one unstyled block per sentence. */
function draft(texts: string[]): Record<string, unknown> {
  return {
    blocks: texts.map((text, i) => ({
      key: `s${i.toString(36).padStart(4, '0')}`,
      text,
      type: 'unstyled',
      depth: 0,
      inlineStyleRanges: [],
      entityRanges: [],
      data: {},
    })),
    entityMap: {},
  };
}

function round(n: number): number {
  return Math.round(n * 10000) / 10000;
}
