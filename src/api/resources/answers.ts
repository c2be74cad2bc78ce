import type { CallOptions, Requester } from '../requester';
import { endpoint } from '../endpoint';
import { getJson, sendJson } from '../requestSpecs';
import { readAnswerStream } from '../stream/answerStream';
import {
  generativeAnswerSchema,
  highlightSchema,
  retrievalResponseSchema,
  type GenerativeAnswer,
  type Highlight,
  type RetrievalItem,
} from '../schemas/answers';
import { parseResponse } from '../validate';
import { answerFeedbackHistorySchema, answerFeedbackResponseSchema, type AnswerFeedbackHistory } from '../schemas/kbOps';
import type { FeedbackCounts } from '../schemas/common';

/** Feedback on one generative answer (`POST /webapi/mrc/user_feedback`, public). */
export interface AnswerFeedback {
  /** The answer's `answerHash`. */
  answerHash: string;
  answer: string;
  /** The document the answer came from (its first cited document). */
  documentId: string;
  query: string;
  /** true 👍, false 👎, null cancels the user's earlier feedback. */
  positive: boolean | null;
}

export type AndOr = 'and' | 'or';

export interface GenerativeAnswerRequest {
  query: string;
  model?: string;
  /** MARKDOWN unless asked otherwise (the service's default, DRAFTJS, is converted when it comes). */
  answerFormat?: 'DRAFTJS' | 'MARKDOWN';
  isStateful?: boolean;
  threadId?: string;
  promptGroupId?: string;
  clueText?: boolean;
  clues?: boolean;
  includeCitations?: boolean;
  hashtags?: {
    qnaInclude?: string[];
    qnaIncludeOption?: AndOr;
    qnaExclude?: string[];
    qnaExcludeOption?: AndOr;
    docsInclude?: string[];
    docsIncludeOption?: AndOr;
    docsExclude?: string[];
    docsExcludeOption?: AndOr;
  };
  search_from?: Array<'web' | 'qna' | 'document'>;
  temperature?: number;
  source?: { sharedKnowledgeBaseNodeIds?: string[]; personalKnowledgeBaseNodeIds?: string[]; webSites?: string[] };
  /** Legacy: prefer source. */
  knowledgeBaseIds?: string[];
  /** Legacy: prefer source. */
  folderIds?: string[];
  returnPreview?: boolean;
  returnPdfPreview?: boolean;
}

export interface RetrievalRequest {
  question: string;
  maxDocumentClues?: number;
  bm25_score_weight?: number;
  text_vector_score_weight?: number;
  title_vector_score_weight?: number;
  hashtags?: string[];
  hashtags_operator?: AndOr;
  exclude_hashtags?: string[];
  exclude_hashtags_operator?: AndOr;
  targetFolders?: string[];
  folderIds?: string[];
  knowledgeBaseIds?: string[];
  enablePersonalFolderSearch?: boolean;
  personalFolderIds?: string[];
  personalDocumentIds?: string[];
  use_keywords?: boolean;
  use_clue_feedback?: boolean;
  use_reranker?: boolean;
  reranker_candidates_num?: number;
  reranker_max_tokens?: number;
}

export type AnswerChunk = { type: 'delta'; delta: string; answer: string; replaced: boolean } | { type: 'done'; result: GenerativeAnswer };

export interface StreamOptions extends CallOptions {
  /** Raw bytes as they arrive (the "log raw stream" setting). */
  onRaw?: (chunk: Uint8Array) => void;
}

export class AnswersResource {
  constructor(private readonly client: Requester) {}

  generate(request: GenerativeAnswerRequest, options?: CallOptions): Promise<GenerativeAnswer> {
    return this.client.request(
      sendJson(endpoint('answers.generate'), { answerFormat: 'MARKDOWN', ...request, mode: 'sync' }, generativeAnswerSchema),
      options,
    );
  }

  /**
   * Streams a generative answer: deltas as they come, then the whole response, validated. Leaving
   * the loop early (or aborting the signal) closes the request. A stream that breaks throws an
   * AnswerStreamError carrying the partial answer.
   */
  async *stream(request: GenerativeAnswerRequest, options: StreamOptions = {}): AsyncGenerator<AnswerChunk> {
    const raw = await this.client.requestRaw(
      {
        ...endpoint('answers.generate'),
        json: { answerFormat: 'MARKDOWN', ...request, mode: 'stream' },
        schema: generativeAnswerSchema,
      },
      options,
    );
    let last: Record<string, unknown> | undefined;
    try {
      for await (const event of readAnswerStream(raw.body, { signal: options.signal, onRaw: options.onRaw })) {
        last = event.merged;
        if (event.delta || event.replaced) yield { type: 'delta', delta: event.delta, answer: event.answer, replaced: event.replaced };
      }
    } finally {
      raw.cancel();
    }
    yield { type: 'done', result: parseResponse('answers.generate', generativeAnswerSchema, last ?? {}) };
  }

  async retrieve(request: RetrievalRequest, options?: CallOptions): Promise<RetrievalItem[]> {
    const body = await this.client.request(
      sendJson(endpoint('retrieval.search'), request, retrievalResponseSchema, { idempotent: true }),
      options,
    );
    return body.result;
  }

  highlightsForClue(clueId: string, options?: CallOptions): Promise<Highlight> {
    return this.client.request(getJson(endpoint('highlights.forClue', { clue_id: clueId }), highlightSchema), options);
  }

  highlightForRetrieval(
    body: { kbId: string; pageNo: number; subTextIndex?: number; passageText?: string; question?: string; answer?: string },
    options?: CallOptions,
  ): Promise<Highlight> {
    return this.client.request(sendJson(endpoint('highlights.forRetrieval'), body, highlightSchema, { idempotent: true }), options);
  }

  /** Sends (or with `positive: null` cancels) the user's feedback on an answer; returns the answer's counts after it. */
  feedback(feedback: AnswerFeedback, options?: CallOptions): Promise<FeedbackCounts> {
    const { answerHash, answer, documentId, query, positive } = feedback;
    return this.client.requestOptional(
      {
        ...endpoint('answers.feedback'),
        json: { answerHash, answer, id: documentId, query, positive },
        schema: answerFeedbackResponseSchema,
        // The same feedback sent twice counts once (one vote per user and answer), so it is safe to resend.
        idempotent: true,
      },
      options,
      { ids: [documentId] },
    );
  }

  /** Feedback history, grouped by query (`GET /webapi/mrc_feedbacks`; limit at most 100). */
  feedbackHistory(params: { offset?: number; limit?: number } = {}, options?: CallOptions): Promise<AnswerFeedbackHistory> {
    return this.client.requestOptional(
      {
        ...endpoint('answers.feedbackHistory'),
        query: { offset: params.offset, limit: params.limit },
        schema: answerFeedbackHistorySchema,
      },
      options,
    );
  }
}
