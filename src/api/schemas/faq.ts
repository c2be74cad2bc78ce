import { z } from 'zod';
import { feedbackCountsSchema, listOf, nullish, textOrEmpty, unwrapResult } from './common';

const counts = feedbackCountsSchema.nullish().transform((v) => v ?? { positiveCount: 0, negativeCount: 0 });
const strings = listOf(z.string());

export const embeddingStatusSchema = unwrapResult(
  z.object({ total: z.number().int(), pending: z.number().int(), ready: z.number().int() }).passthrough(),
);
export type EmbeddingStatus = z.infer<typeof embeddingStatusSchema>;

/** Fields of list and filter results (docs/api.md#qa-record). */
export const faqListItemSchema = z
  .object({
    id: z.string(),
    question: z.string(),
    answer: textOrEmpty,
    hashtags: strings,
    userFeedback: counts,
    agentFeedback: counts,
    lastUpdatedDate: nullish(z.string()),
    createdDate: nullish(z.string()),
  })
  .passthrough();
export type FaqListItem = z.infer<typeof faqListItemSchema>;

export const faqSearchItemSchema = faqListItemSchema.extend({ confidence: z.number(), effectiveConfidence: z.number() });
export type FaqSearchItem = z.infer<typeof faqSearchItemSchema>;

export const faqSearchResponseSchema = z
  .object({
    result: listOf(faqSearchItemSchema),
    count: z.number().int().optional(),
    hashId: textOrEmpty,
  })
  .passthrough();
export type FaqSearchResponse = z.infer<typeof faqSearchResponseSchema>;

/** Single lookup: the fields docs/api.md#qa-record marks "single lookup". */
export const faqDetailSchema = faqListItemSchema.extend({
  similar_questions: strings,
  statusOnAt: nullish(z.string()),
  statusOffAt: nullish(z.string()),
  folder: nullish(z.string()),
  agentEditor: strings,
  agentViewer: strings,
  allowOtherAgentsView: nullish(z.boolean()),
  allowOtherUsersView: nullish(z.boolean()),
  /** Not in the service's documented fields, but needed to show on/off; services that send it are believed. */
  status: nullish(z.union([z.enum(['on', 'off']), z.boolean()]).transform((v) => (typeof v === 'boolean' ? (v ? 'on' : 'off') : v))),
});
export type FaqDetail = z.infer<typeof faqDetailSchema>;
export const singleFaqResponseSchema = unwrapResult(faqDetailSchema);

export const faqListResponseSchema = z
  .object({
    offset: z.number().int().default(0),
    count: z.number().int().optional(),
    total_count: z.number().int().optional(),
    results: listOf(faqListItemSchema),
  })
  .passthrough();
export type FaqListResponse = z.infer<typeof faqListResponseSchema>;

export const registerResponseSchema = z
  .object({ result: z.object({ status: z.string().optional(), id: z.string() }).passthrough(), errors: z.unknown().optional() })
  .passthrough();
export const deleteResponseSchema = z
  .object({ result: z.object({ status: z.string().optional() }).passthrough().nullish(), errors: z.unknown().optional() })
  .passthrough();
export const selectAnswerResponseSchema = z.object({ result: z.string().optional() }).passthrough();

export const feedbackResponseSchema = z
  .object({
    result: z
      .object({
        faqTrainSearchResult: z
          .object({ faq: z.object({ id: z.string() }).passthrough(), agentFeedback: counts, userFeedback: counts.optional() })
          .passthrough()
          .nullish(),
      })
      .passthrough()
      .nullish(),
    errors: z.unknown().optional(),
  })
  .passthrough();
export type FeedbackResponse = z.infer<typeof feedbackResponseSchema>;

/** Items of feedbacks have no documented shape (docs/api.md#qa-feedback-history); kept as loose records. */
export const feedbackHistoryResponseSchema = z
  .object({
    result: listOf(
      z
        .object({
          query: textOrEmpty,
          feedbacks: listOf(z.record(z.unknown())),
        })
        .passthrough(),
    ),
    count: z.number().int().optional(),
  })
  .passthrough();
export type FeedbackHistory = z.infer<typeof feedbackHistoryResponseSchema>;

export const uploadFaqFileResponseSchema = z
  .object({
    result: z.unknown().optional(),
    notUploaded: listOf(
      z
        .object({
          question: textOrEmpty,
          state: textOrEmpty,
        })
        .passthrough(),
    ),
  })
  .passthrough();
export type UploadFaqFileResult = z.infer<typeof uploadFaqFileResponseSchema>;

/** One answer the service showed for a logged search. */
const shownAnswerSchema = z
  .object({
    faq: z.object({ id: z.string() }).passthrough().nullish(),
    effectiveConfidence: z.number().nullish(),
    confidence: z.number().nullish(),
  })
  .passthrough();

/** One logged search: what was asked and what was shown. */
const searchHistoryEntrySchema = z
  .object({
    id: z.string().optional(),
    agent: z.object({ id: z.string().nullish() }).passthrough().nullish(),
    question: textOrEmpty,
    answers: listOf(shownAnswerSchema),
    createdAt: z.union([z.number(), z.string()]).optional(),
  })
  .passthrough();

export const searchHistoryResponseSchema = unwrapResult(
  z.object({ histories: listOf(searchHistoryEntrySchema), count: z.number().int().optional() }).passthrough(),
);
export type SearchHistory = z.infer<typeof searchHistoryResponseSchema>;

export const candidateSchema = z
  .object({
    id: z.string(),
    frequency: z.number().int().default(0),
    textAnswer: textOrEmpty,
    state: textOrEmpty,
    createdAt: z.number().optional(),
    questions: listOf(
      z
        .object({
          id: z.string(),
          question: z.string(),
          frequency: z.number().int().default(0),
          history: z.object({ id: z.string() }).passthrough().nullish(),
        })
        .passthrough(),
    ),
  })
  .passthrough();
export type Candidate = z.infer<typeof candidateSchema>;

export const candidatesResponseSchema = unwrapResult(
  z
    .object({
      faqCandidates: listOf(candidateSchema),
      count: z.number().int().optional(),
    })
    .passthrough(),
);
export type CandidatesPage = z.infer<typeof candidatesResponseSchema>;

export const dailyCountResponseSchema = unwrapResult(
  z
    .object({
      dailyTotalCount: listOf(z.object({ date: z.string(), count: z.number().int() }).passthrough()),
      state: z.string().optional(),
      campaignCount: z.number().int().optional(),
    })
    .passthrough(),
);
export type DailyCount = z.infer<typeof dailyCountResponseSchema>;

/** One Q&A's shown/selected figures over the asked period. */
const faqDailyFiguresSchema = z
  .object({
    totalCount: z.number().int(),
    totalShownCount: z.number().int(),
    selectedRatio: z.number(),
    faq: z.object({ id: z.string(), question: z.string() }).passthrough(),
    stats: listOf(z.object({ date: z.string(), selectedCount: z.number().int() }).passthrough()),
  })
  .passthrough();

export const dailyAnalyticsResponseSchema = unwrapResult(z.object({ faqDailyAnalytics: listOf(faqDailyFiguresSchema) }).passthrough());
export type DailyAnalytics = z.infer<typeof dailyAnalyticsResponseSchema>;

export const addCandidatesResponseSchema = unwrapResult(
  z.object({ candidates: listOf(z.object({ id: z.string() }).passthrough()) }).passthrough(),
);
