import type { CallOptions, Requester } from '../requester';
import type { CandidateOrder } from '../../core/faqWire';
import { endpoint } from '../endpoint';
import { getJson, sendJson } from '../requestSpecs';
import type { QaFields, QaFilterFields, QaUpdateFields } from '../../core/qaFields';
import type { BufferPart, FilePart } from '../multipart';
import {
  addCandidatesResponseSchema,
  candidatesResponseSchema,
  dailyAnalyticsResponseSchema,
  dailyCountResponseSchema,
  deleteResponseSchema,
  embeddingStatusSchema,
  faqListResponseSchema,
  faqSearchResponseSchema,
  feedbackHistoryResponseSchema,
  feedbackResponseSchema,
  registerResponseSchema,
  searchHistoryResponseSchema,
  selectAnswerResponseSchema,
  singleFaqResponseSchema,
  uploadFaqFileResponseSchema,
  type CandidatesPage,
  type DailyAnalytics,
  type DailyCount,
  type EmbeddingStatus,
  type FaqDetail,
  type FaqListResponse,
  type FaqSearchResponse,
  type FeedbackHistory,
  type FeedbackResponse,
  type SearchHistory,
  type UploadFaqFileResult,
} from '../schemas/faq';

export type AnswerFormat = 'html' | 'text';

export interface FaqSearchParams {
  query: string;
  maxResults?: number;
  format?: AnswerFormat;
  hashtags?: string[];
  hashtagsOperator?: 'AND' | 'OR';
  /** Default true on the service; false keeps a query without a good match out of the candidates. */
  autoRegisterCandidates?: boolean;
}

export interface FaqFilterParams extends QaFilterFields {
  searchTerm?: string;
  format?: AnswerFormat;
  offset?: number;
  /** At most 1000 (the default). */
  limit?: number;
}

export type RegisterFaq = QaFields;

/** Only the fields given change (note `similar_questions` in snake_case, as the service names it; docs/api.md#update-a-qa). */
export type UpdateFaq = QaUpdateFields & { id: string };

export interface HistoryParams {
  limit?: number;
  offset?: number;
  startDate?: string;
  endDate?: string;
  sortOrder?: 'DESC' | 'ASC';
  searchTerm?: string;
}

export interface CandidateParams {
  offset?: number;
  /** At most 100. */
  limit?: number;
  hashtags?: string[];
  searchTerm?: string;
  order?: CandidateOrder;
  status?: 'ALL' | 'ACTIVE' | 'ARCHIVED';
}

/** The 17 Q&A operations (docs/api.md#qa; parameter names the service leaves open are ours). */
export class FaqResource {
  constructor(private readonly client: Requester) {}

  /** Q&A embedding counts; also the cheap authenticated call used to check a key. */
  embeddingStatus(options?: CallOptions): Promise<EmbeddingStatus> {
    return this.client.request(getJson(endpoint('faq.embeddingStatus'), embeddingStatusSchema), options);
  }

  /** Searches as an end user would; read-only unless it registers a candidate, so not retried blindly. */
  search(params: FaqSearchParams, options?: CallOptions): Promise<FaqSearchResponse> {
    return this.client.request(
      sendJson(endpoint('faq.search'), params, faqSearchResponseSchema, {
        idempotent: params.autoRegisterCandidates === false,
      }),
      options,
    );
  }

  /** Records which Q&A the user chose for a search; no id registers the query as a candidate. */
  selectAnswer(body: { hashId: string; id?: string }, options?: CallOptions): Promise<{ result?: string }> {
    return this.client.request(sendJson(endpoint('faq.selectAnswer'), body, selectAnswerResponseSchema), options);
  }

  get(id: string, params: { format?: AnswerFormat } = {}, options?: CallOptions): Promise<FaqDetail> {
    return this.client.request(getJson(endpoint('faq.get'), singleFaqResponseSchema, { id, format: params.format }), options);
  }

  list(params: { offset?: number; limit?: number; format?: AnswerFormat } = {}, options?: CallOptions): Promise<FaqListResponse> {
    return this.client.request(getJson(endpoint('faq.list'), faqListResponseSchema, { ...params }), options);
  }

  filter(params: FaqFilterParams, options?: CallOptions): Promise<FaqListResponse> {
    return this.client.request(sendJson(endpoint('faq.filter'), params, faqListResponseSchema, { idempotent: true }), options);
  }

  /** Creates a Q&A, or updates the answer of the one with the same question. Safe to repeat. */
  async register(body: RegisterFaq, options?: CallOptions): Promise<{ id: string; status?: string }> {
    const res = await this.client.request(sendJson(endpoint('faq.register'), body, registerResponseSchema, { idempotent: true }), options);
    return res.result;
  }

  async update(body: UpdateFaq, options?: CallOptions): Promise<{ id: string; status?: string }> {
    const res = await this.client.request(sendJson(endpoint('faq.update'), body, registerResponseSchema), options);
    return res.result;
  }

  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.client.request(sendJson(endpoint('faq.delete'), { id }, deleteResponseSchema), options);
  }

  /** isPositive: true (good), false (bad) or null (cancel). Counted for the agent or user of the identity headers. */
  feedback(body: { query: string; id: string; isPositive: boolean | null }, options?: CallOptions): Promise<FeedbackResponse> {
    return this.client.request(sendJson(endpoint('faq.feedback'), body, feedbackResponseSchema, { idempotent: true }), options);
  }

  feedbackHistory(params: { offset?: number; limit?: number } = {}, options?: CallOptions): Promise<FeedbackHistory> {
    return this.client.request(getJson(endpoint('faq.feedbackHistory'), feedbackHistoryResponseSchema, { ...params }), options);
  }

  /** Sends a CSV, TSV, XLSX or ZIP of Q&As as it is; rows the service could not take come back in notUploaded. */
  uploadFile(file: FilePart | BufferPart, options?: CallOptions): Promise<UploadFaqFileResult> {
    return this.client.request(
      {
        ...endpoint('faq.uploadFile'),
        multipart: { file },
        schema: uploadFaqFileResponseSchema,
      },
      options,
    );
  }

  searchHistory(params: HistoryParams = {}, options?: CallOptions): Promise<SearchHistory> {
    return this.client.request(getJson(endpoint('faq.searchHistory'), searchHistoryResponseSchema, { ...params }), options);
  }

  candidates(params: CandidateParams = {}, options?: CallOptions): Promise<CandidatesPage> {
    return this.client.request(getJson(endpoint('faq.candidates'), candidatesResponseSchema, { ...params }), options);
  }

  dailyCount(params: { startDate: string; endDate: string }, options?: CallOptions): Promise<DailyCount> {
    return this.client.request(getJson(endpoint('faq.dailyCount'), dailyCountResponseSchema, params), options);
  }

  dailyAnalytics(params: { topN: 1 | 5 | 10 | 20; startDate: string; endDate: string }, options?: CallOptions): Promise<DailyAnalytics> {
    return this.client.request(getJson(endpoint('faq.dailyAnalytics'), dailyAnalyticsResponseSchema, params), options);
  }

  async addCandidates(queries: string[], options?: CallOptions): Promise<Array<{ id: string }>> {
    const res = await this.client.request(sendJson(endpoint('faq.addCandidates'), { queries }, addCandidatesResponseSchema), options);
    return res.candidates;
  }
}

/** On or off: the status the service sent, else whichever of statusOnAt / statusOffAt is later. */
export { faqStatus } from '../values';
