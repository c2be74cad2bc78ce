// Answers one row of a bulk run. `ga`: the local generative answer (extractive, local-extractive), its
// sentences each followed by the [n] of its source in `sources`. `rag`: the top retrieval passages (up to 3
// pages) joined as the answer, the best fused score as the confidence; `rag_agent_v2` ("the general-agent
// variant") is the same with the reranker on. search_type per row: for ga `document` / `qna` limit the
// sources (anything else: both); for rag `keyword`/`bm25` or `vector`/`semantic` choose the signal (anything
// else: the hybrid default). `model` is passed to ga, which notes that only local-extractive exists.
import { NO_ANSWER } from '../answers/answerBody';
import { answerRequestSchema } from '../answers/answerSchema';
import type { AnswerService } from '../answers/answerService';
import { languageOf } from '../answers/intent';
import type { Weights } from '../search/fusion';
import type { Retrieval } from '../search/retrieval';
import type { BulkType } from './jobRecords';

export interface RowAnswer {
  answer: string;
  /** 0..1 */
  confidence: number;
  /** Document names and pages (Q&As by their question), "; "-separated, in citation order. */
  sources: string;
}

export interface AnswerDeps {
  answers: AnswerService;
  retrieval: Retrieval;
}

const RAG_PAGES = 3;
const HYBRID: Weights = { bm25: 9, text: 1, title: 0 };

const round = (n: number): number => Math.round(Math.min(1, Math.max(0, n)) * 10000) / 10000;

export async function answerRow(
  type: BulkType,
  row: { question: string; model: string; searchType: string },
  deps: AnswerDeps,
): Promise<RowAnswer> {
  if (!row.question) return { answer: '(not answered: the question cell is empty)', confidence: 0, sources: '' };
  return type === 'ga' ? generative(row, deps.answers) : retrieved(type, row, deps.retrieval);
}

async function generative(row: { question: string; model: string; searchType: string }, answers: AnswerService): Promise<RowAnswer> {
  const st = row.searchType.toLowerCase();
  const searchFrom = st === 'document' || st === 'documents' ? ['document'] : st === 'qna' || st === 'faq' ? ['qna'] : undefined;
  const parsed = answerRequestSchema.safeParse({
    query: row.question,
    model: row.model || undefined,
    search_from: searchFrom,
    answerFormat: 'MARKDOWN',
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { answer: `(not answered: ${issue.path.join('.')}: ${issue.message})`, confidence: 0, sources: '' };
  }
  const { plan } = await answers.prepare(parsed.data, {}, 'http://127.0.0.1');
  if (!plan.chosen.length) return { answer: NO_ANSWER[plan.lang], confidence: 0, sources: '' };
  const cited: typeof plan.sources = [];
  const parts = plan.chosen.map((s) => {
    if (!cited.includes(s.source)) cited.push(s.source);
    return `${s.text} [${cited.indexOf(s.source) + 1}]`;
  });
  const sources = cited.map((s) => (s.hit ? `${s.hit.node.name} p.${s.hit.passage.pageNo}` : `Q&A: ${s.faq?.question ?? s.title}`));
  return { answer: parts.join(' '), confidence: round(plan.chosen[0].coverage), sources: sources.join('; ') };
}

async function retrieved(type: BulkType, row: { question: string; searchType: string }, retrieval: Retrieval): Promise<RowAnswer> {
  const st = row.searchType.toLowerCase();
  const weights: Weights =
    st === 'keyword' || st === 'bm25'
      ? { bm25: 1, text: 0, title: 0 }
      : st === 'vector' || st === 'semantic'
        ? { bm25: 0, text: 1, title: 1 }
        : HYBRID;
  const hits = await retrieval.searchPages(row.question.slice(0, 2000), {
    weights,
    scope: {},
    maxPages: RAG_PAGES,
    rerank: type === 'rag_agent_v2' ? { candidates: 16, maxTokens: 1024 } : undefined,
  });
  if (!hits.length) return { answer: NO_ANSWER[languageOf(row.question)], confidence: 0, sources: '' };
  return {
    answer: hits.map((h) => h.passage.text).join('\n\n'),
    confidence: round(hits[0].score),
    sources: hits.map((h) => `${h.node.name} p.${h.passage.pageNo}`).join('; '),
  };
}
