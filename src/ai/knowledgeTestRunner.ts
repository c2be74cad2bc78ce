// Runs knowledge tests against a service: one request per test (a generative answer, a Q&A search or a retrieval,
// with the test's scope, sources and hashtags as the chat sends them), then its assertions. Shared by the
// command-line tool and, later, the Test Explorer; no vscode here.
import type { ApiClient } from '../api/client';
import type { GenerativeAnswerRequest } from '../api/resources/answers';
import { normalizeHashtags } from '../core/hashtags';
import { pool } from '../core/pool';
import { evaluate, type AssertionResult, type Observation } from '../core/knowledgeTests/evaluate';
import { DEFAULT_TOP, type KnowledgeTest } from '../core/knowledgeTests/testSchema';
import { resolveScope } from './scope';

export interface TestToRun {
  file: string;
  test: KnowledgeTest;
}

export interface TestOutcome extends TestToRun {
  /** failed: an assertion did not hold; errored: the request itself failed, nothing was checked. */
  status: 'passed' | 'failed' | 'errored';
  durationMs: number;
  assertions: AssertionResult[];
  error?: string;
  observed?: Observation;
}

export interface RunOptions {
  concurrency?: number;
  signal?: AbortSignal;
  onStart?: (item: TestToRun) => void;
  onOutcome?: (outcome: TestOutcome) => void;
}

export const DEFAULT_CONCURRENCY = 4;

/** Runs every test (at most `concurrency` at once) and returns the outcomes in the order given. */
export async function runKnowledgeTests(client: ApiClient, items: readonly TestToRun[], options: RunOptions = {}): Promise<TestOutcome[]> {
  const outcomes = new Map<TestToRun, TestOutcome>();
  await pool(items, options.concurrency ?? DEFAULT_CONCURRENCY, options.signal, async (item) => {
    options.onStart?.(item);
    const outcome = await runOne(client, item, options.signal);
    outcomes.set(item, outcome);
    options.onOutcome?.(outcome);
  });
  return items.flatMap((item) => outcomes.get(item) ?? []);
}

export async function runOne(client: ApiClient, item: TestToRun, signal?: AbortSignal): Promise<TestOutcome> {
  const started = Date.now();
  let observed: Observation;
  try {
    observed = await observe(client, item.test, signal);
  } catch (error) {
    signal?.throwIfAborted();
    const message = error instanceof Error ? error.message : String(error);
    return { ...item, status: 'errored', durationMs: Date.now() - started, assertions: [], error: message };
  }
  const assertions = item.test.assert.map((a) => evaluate(a, observed));
  const status = assertions.every((a) => a.passed) ? 'passed' : 'failed';
  return { ...item, status, durationMs: Date.now() - started, assertions, observed };
}

/** The request of a test, as the chat (answer), the Q&A search or the retrieval page sends it. */
export async function observe(client: ApiClient, test: KnowledgeTest, signal?: AbortSignal): Promise<Observation> {
  const hashtags = normalizeHashtags(test.hashtags ?? []);
  const operator = test.hashtagsOperator ?? 'or';
  if (test.mode === 'qna') {
    const found = await client.faq.search(
      {
        query: test.question,
        maxResults: 5,
        format: 'text',
        // A test is not a person asking: it must not register candidates or count in the search history.
        autoRegisterCandidates: false,
        ...(hashtags.length ? { hashtags, hashtagsOperator: operator === 'and' ? 'AND' : 'OR' } : {}),
      },
      { signal },
    );
    return {
      mode: 'qna',
      results: found.result.map((q) => ({ id: q.id, question: q.question, answer: q.answer, confidence: q.confidence })),
    };
  }
  if (test.mode === 'retrieval') {
    const scope = await resolveScope(client, test.scope, test.question, signal);
    const top = Math.max(DEFAULT_TOP, ...test.assert.map((a) => ('retrieves' in a.assertion ? (a.assertion.retrieves.top ?? 0) : 0)));
    const items = await client.answers.retrieve(
      {
        question: test.question,
        maxDocumentClues: top,
        ...(scope.folderIds.length ? { folderIds: scope.folderIds } : {}),
        ...(scope.documentIds.length ? { knowledgeBaseIds: scope.documentIds } : {}),
        ...(hashtags.length ? { hashtags, hashtags_operator: operator } : {}),
      },
      { signal },
    );
    return { mode: 'retrieval', pages: items.map((p) => ({ title: p.title, pageNo: p.pageNo, documentId: p.kb_id, text: p.text })) };
  }
  const answer = await client.answers.generate(answerRequest(test), { signal });
  return { mode: 'answer', text: answer.answer, confidence: answer.confidence, citations: answer.citations };
}

/** The chat's request (buildAnswerRequest) for a test: same fields, temperature 0 so reruns compare. */
export function answerRequest(test: KnowledgeTest): GenerativeAnswerRequest {
  const request: GenerativeAnswerRequest = { query: test.question, includeCitations: true, clues: true, temperature: 0 };
  if (test.sources?.length) request.search_from = [...new Set(test.sources)];
  const hashtags = normalizeHashtags(test.hashtags ?? []);
  if (hashtags.length) request.hashtags = { docsInclude: hashtags, docsIncludeOption: test.hashtagsOperator ?? 'or' };
  if (test.scope?.length) request.source = { sharedKnowledgeBaseNodeIds: [...new Set(test.scope)] };
  return request;
}
