import { z } from 'zod';
import { feedbackCountsSchema, nullish } from './common';

const unwrap = (body: unknown): unknown => (body as { result?: unknown })?.result ?? body;
const counts = feedbackCountsSchema.nullish().transform((v) => v ?? { positiveCount: 0, negativeCount: 0 });
const strings = z
  .array(z.string())
  .nullish()
  .transform((v) => v ?? []);

export const embeddingStatusSchema = z.preprocess(
  unwrap,
  z.object({ total: z.number().int(), pending: z.number().int(), ready: z.number().int() }).passthrough(),
);
export type EmbeddingStatus = z.infer<typeof embeddingStatusSchema>;

/** Fields of list and filter results (docs/api.md#qa-record). */
export const faqListItemSchema = z
  .object({
    id: z.string(),
    question: z.string(),
    answer: z
      .string()
      .nullish()
      .transform((v) => v ?? ''),
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
    result: z
      .array(faqSearchItemSchema)
      .nullish()
      .transform((v) => v ?? []),
    count: z.number().int().optional(),
    hashId: z
      .string()
      .nullish()
      .transform((v) => v ?? ''),
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
export const singleFaqResponseSchema = z.preprocess(unwrap, faqDetailSchema);

export const faqListResponseSchema = z
  .object({
    offset: z.number().int().default(0),
    count: z.number().int().optional(),
    total_count: z.number().int().optional(),
    results: z
      .array(faqListItemSchema)
      .nullish()
      .transform((v) => v ?? []),
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
    result: z
      .array(
        z
          .object({
            query: z
              .string()
              .nullish()
              .transform((v) => v ?? ''),
            feedbacks: z
              .array(z.record(z.unknown()))
              .nullish()
              .transform((v) => v ?? []),
          })
          .passthrough(),
      )
      .nullish()
      .transform((v) => v ?? []),
    count: z.number().int().optional(),
  })
  .passthrough();
export type FeedbackHistory = z.infer<typeof feedbackHistoryResponseSchema>;

export const uploadFaqFileResponseSchema = z
  .object({
    result: z.unknown().optional(),
    notUploaded: z
      .array(
        z
          .object({
            question: z
              .string()
              .nullish()
              .transform((v) => v ?? ''),
            state: z
              .string()
              .nullish()
              .transform((v) => v ?? ''),
          })
          .passthrough(),
      )
      .nullish()
      .transform((v) => v ?? []),
  })
  .passthrough();
export type UploadFaqFileResult = z.infer<typeof uploadFaqFileResponseSchema>;

export const searchHistoryResponseSchema = z.preprocess(
  unwrap,
  z
    .object({
      histories: z
        .array(
          z
            .object({
              id: z.string().optional(),
              agent: z.object({ id: z.string().nullish() }).passthrough().nullish(),
              question: z
                .string()
                .nullish()
                .transform((v) => v ?? ''),
              answers: z
                .array(
                  z
                    .object({
                      faq: z.object({ id: z.string() }).passthrough().nullish(),
                      effectiveConfidence: z.number().nullish(),
                      confidence: z.number().nullish(),
                    })
                    .passthrough(),
                )
                .nullish()
                .transform((v) => v ?? []),
              createdAt: z.union([z.number(), z.string()]).optional(),
            })
            .passthrough(),
        )
        .nullish()
        .transform((v) => v ?? []),
      count: z.number().int().optional(),
    })
    .passthrough(),
);
export type SearchHistory = z.infer<typeof searchHistoryResponseSchema>;

export const candidateSchema = z
  .object({
    id: z.string(),
    frequency: z.number().int().default(0),
    textAnswer: z
      .string()
      .nullish()
      .transform((v) => v ?? ''),
    state: z
      .string()
      .nullish()
      .transform((v) => v ?? ''),
    createdAt: z.number().optional(),
    questions: z
      .array(
        z
          .object({
            id: z.string(),
            question: z.string(),
            frequency: z.number().int().default(0),
            history: z.object({ id: z.string() }).passthrough().nullish(),
          })
          .passthrough(),
      )
      .nullish()
      .transform((v) => v ?? []),
  })
  .passthrough();
export type Candidate = z.infer<typeof candidateSchema>;

export const candidatesResponseSchema = z.preprocess(
  unwrap,
  z
    .object({
      faqCandidates: z
        .array(candidateSchema)
        .nullish()
        .transform((v) => v ?? []),
      count: z.number().int().optional(),
    })
    .passthrough(),
);
export type CandidatesPage = z.infer<typeof candidatesResponseSchema>;

export const dailyCountResponseSchema = z.preprocess(
  unwrap,
  z
    .object({
      dailyTotalCount: z
        .array(z.object({ date: z.string(), count: z.number().int() }).passthrough())
        .nullish()
        .transform((v) => v ?? []),
      state: z.string().optional(),
      campaignCount: z.number().int().optional(),
    })
    .passthrough(),
);
export type DailyCount = z.infer<typeof dailyCountResponseSchema>;

export const dailyAnalyticsResponseSchema = z.preprocess(
  unwrap,
  z
    .object({
      faqDailyAnalytics: z
        .array(
          z
            .object({
              totalCount: z.number().int(),
              totalShownCount: z.number().int(),
              selectedRatio: z.number(),
              faq: z.object({ id: z.string(), question: z.string() }).passthrough(),
              stats: z
                .array(z.object({ date: z.string(), selectedCount: z.number().int() }).passthrough())
                .nullish()
                .transform((v) => v ?? []),
            })
            .passthrough(),
        )
        .nullish()
        .transform((v) => v ?? []),
    })
    .passthrough(),
);
export type DailyAnalytics = z.infer<typeof dailyAnalyticsResponseSchema>;

export const addCandidatesResponseSchema = z.preprocess(
  unwrap,
  z
    .object({
      candidates: z
        .array(z.object({ id: z.string() }).passthrough())
        .nullish()
        .transform((v) => v ?? []),
    })
    .passthrough(),
);
