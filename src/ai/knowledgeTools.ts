// The knowledge tools as plain functions over the API client: what the language model tools (VS Code)
// and the MCP server (dist/mcp.js) both run. Each returns text a model can use, within OUTPUT_BUDGET.
import type { ApiClient } from '../api/client';
import type { GenerativeAnswer, RetrievalItem } from '../api/schemas/answers';
import type { FaqSearchItem } from '../api/schemas/faq';
import { excerpt } from '../core/excerpt';
import { clip, fitToBudget } from './budget';
import { resolveScope } from './scope';
import { TOOL_NAMES, type ToolName } from './toolNames';
import {
  DEFAULT_RESULTS,
  answerInput,
  parseToolInput,
  qnaInput,
  retrieveInput,
  type AnswerInput,
  type QnaInput,
  type RetrieveInput,
} from './toolInput';

export { TOOL_NAMES, type ToolName };

/** What a model reads to decide when to call a tool (also package.json `modelDescription`; a unit test keeps them equal). */
export const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  [TOOL_NAMES.retrieve]:
    "Searches the team's Knowledge Desk knowledge base (uploaded documents: handbooks, manuals, policies, guides) and returns the most relevant pages. Use it when a question may be answered by internal documentation and you want the source text to read or quote. Returns, for each page: the document name, document id, page number and the page's passage.",
  [TOOL_NAMES.qna]:
    "Searches the team's curated Q&A list (questions with approved answers) in Knowledge Desk. Use it for frequently asked questions about the team's own rules, processes and tools. Returns each matching Q&A's question, answer, confidence (0-1) and id; no match means no curated answer exists.",
  [TOOL_NAMES.answer]:
    "Asks Knowledge Desk to answer a question from the team's knowledge base (documents and Q&As) and returns the generated answer with numbered citations: for each citation the document name, page and cited passage. Use it for a direct, sourced answer about internal documentation; prefer knowledge_desk_retrieve_pages when you need raw passages.",
};

const PASSAGE_CHARS = 1_500;

export async function retrievePages(client: ApiClient, raw: unknown, signal?: AbortSignal): Promise<string> {
  const input: RetrieveInput = parseToolInput(retrieveInput, raw);
  const scope = await resolveScope(client, input.scopeIds, input.question, signal);
  const items = await client.answers.retrieve(
    {
      question: input.question,
      maxDocumentClues: input.maxResults ?? DEFAULT_RESULTS,
      ...(scope.folderIds.length ? { folderIds: scope.folderIds } : {}),
      ...(scope.documentIds.length ? { knowledgeBaseIds: scope.documentIds } : {}),
    },
    { signal },
  );
  const limited = items.slice(0, input.maxResults ?? DEFAULT_RESULTS);
  if (!limited.length) return `No pages of the knowledge base match "${clip(input.question, 200)}".`;
  return fitToBudget(
    `${limited.length} page${limited.length === 1 ? '' : 's'} of the knowledge base for "${clip(input.question, 200)}":`,
    limited.map((item, i) => formatPage(item, i + 1)),
    { noun: 'pages', hint: 'Ask a narrower question or a smaller maxResults.' },
  );
}

export function formatPage(item: RetrievalItem, n: number): string {
  return `[${n}] ${item.title} — page ${item.pageNo} (documentId ${item.kb_id})\n${clip(item.text, PASSAGE_CHARS)}`;
}

export async function searchQna(client: ApiClient, raw: unknown, signal?: AbortSignal): Promise<string> {
  const input: QnaInput = parseToolInput(qnaInput, raw);
  const found = await client.faq.search(
    // A model's query is not a person's: it must not become a candidate Q&A or count in the search history.
    { query: input.question, maxResults: input.maxResults ?? DEFAULT_RESULTS, format: 'text', autoRegisterCandidates: false },
    { signal },
  );
  const items = found.result.slice(0, input.maxResults ?? DEFAULT_RESULTS);
  if (!items.length) return `No Q&A matches "${clip(input.question, 200)}".`;
  return fitToBudget(
    `${items.length} Q&A${items.length === 1 ? '' : 's'} for "${clip(input.question, 200)}":`,
    items.map((item, i) => formatQna(item, i + 1)),
    { noun: 'Q&As', hint: 'Ask a narrower question or a smaller maxResults.' },
  );
}

export function formatQna(item: FaqSearchItem, n: number): string {
  return `[${n}] Q: ${clip(item.question, 500)} (confidence ${item.confidence.toFixed(2)}, id ${item.id})\nA: ${clip(item.answer, PASSAGE_CHARS)}`;
}

/** Options of the answer request that callers share (the chat participant adds its thread). */
export async function answerRequestFor(client: ApiClient, input: AnswerInput, signal?: AbortSignal) {
  const scope = await resolveScope(client, input.scopeIds, input.question, signal);
  const ids = [...scope.folderIds, ...scope.documentIds];
  return {
    query: input.question,
    includeCitations: true,
    clues: true,
    ...(ids.length ? { source: { sharedKnowledgeBaseNodeIds: ids } } : {}),
  };
}

export async function answerQuestion(client: ApiClient, raw: unknown, signal?: AbortSignal): Promise<string> {
  const input = parseToolInput(answerInput, raw);
  const request = await answerRequestFor(client, input, signal);
  const answer = await client.answers.generate(request, { signal });
  return formatAnswer(answer);
}

/** The answer (clipped to half the budget at most), then its citations as far as they fit, then the follow-up. */
export function formatAnswer(answer: GenerativeAnswer): string {
  const text = clip(answer.answer || '(The service returned an empty answer.)', 4_000);
  const sources = answer.citations.map(
    (c) =>
      `[${c.index}] ${c.title || c.url || (c.faqId ? `Q&A ${c.faqId}` : 'source')}${c.pageNo ? ` — page ${c.pageNo}` : ''}${c.knowledgeBaseId ? ` (documentId ${c.knowledgeBaseId})` : ''}${c.text ? `\n${excerpt(c.text, 1_000)}` : ''}`,
  );
  const followUp = answer.fuQuestion ? `\n\nSuggested follow-up question: ${clip(answer.fuQuestion, 300)}` : '';
  if (!sources.length) return `${text}\n\n(No citations: the answer is not backed by a document.)${followUp}`;
  return `${fitToBudget(`${text}\n\nCitations:`, sources, { budget: 8_000 - followUp.length, noun: 'citations', hint: 'Use knowledge_desk_retrieve_pages to read more pages.' })}${followUp}`;
}

export const TOOL_RUNNERS: Record<ToolName, (client: ApiClient, raw: unknown, signal?: AbortSignal) => Promise<string>> = {
  [TOOL_NAMES.retrieve]: retrievePages,
  [TOOL_NAMES.qna]: searchQna,
  [TOOL_NAMES.answer]: answerQuestion,
};
