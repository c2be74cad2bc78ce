// Messages of the Q&A analytics webview, imported by the host (analyticsPanel.ts) and the page
// (src/webview/analytics). No vscode and no DOM here.
import { z } from 'zod';
import { defineProtocol, emptySchema, panelConnectionSchema, request, withPageNotifications } from '../../../platform/webview/protocol';

export const ANALYTICS_VIEW_TYPE = 'knowledgeDesk.analytics';

export const TOP_N_VALUES = [1, 5, 10, 20] as const;
export const dateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');
export const topNSchema = z.union([z.literal(1), z.literal(5), z.literal(10), z.literal(20)]);

export const analyticsQuerySchema = z
  .object({ startDate: dateSchema, endDate: dateSchema, topN: topNSchema })
  .refine((q) => q.startDate <= q.endDate, { message: 'The start date is after the end date', path: ['startDate'] }); // l10n-ignore: a protocol check (a bug on one side), logged
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

const count = z.number().int().nonnegative();
const ratio = z.number().finite();

export const topFaqSchema = z.object({ id: z.string(), question: z.string(), shown: count, selected: count, selectedRatio: ratio });
export type TopFaq = z.infer<typeof topFaqSchema>;

export const searchRowSchema = z.object({
  question: z.string(),
  topAnswer: z.object({ id: z.string(), question: z.string().nullable() }).nullable(),
  confidence: ratio.nullable(),
  effectiveConfidence: ratio.nullable(),
  /** ISO timestamp, when the service gave one. */
  time: z.string().nullable(),
});
export type SearchRow = z.infer<typeof searchRowSchema>;

export const feedbackRowSchema = z.object({
  query: z.string(),
  positive: count,
  negative: count,
  total: count,
  /** Questions (or ids) of the Q&As rated. */
  faqs: z.array(z.string()),
  time: z.string().nullable(),
});
export type FeedbackRow = z.infer<typeof feedbackRowSchema>;

/** One rated answer of the answer feedback history (`GET /webapi/mrc_feedbacks`). */
export const answerFeedbackRowSchema = z.object({
  question: z.string(),
  /** The start of the answer, plain text. */
  answer: z.string().max(400),
  documentId: z.string(),
  /** The document's name, when it could be read (else the page shows the id). */
  documentName: z.string().nullable(),
  /** null: a rating the service reports without a direction. */
  positive: z.boolean().nullable(),
  /** ISO timestamp, when the deployment gives one (the public shape has none). */
  time: z.string().nullable(),
});
export type AnswerFeedbackRow = z.infer<typeof answerFeedbackRowSchema>;

/** `offered: false`: the deployment answered 404/405 (it has no such history); the section says so. */
export const answerFeedbackSchema = z.object({
  offered: z.boolean(),
  rows: z.array(answerFeedbackRowSchema),
  positive: count,
  negative: count,
});
export type AnswerFeedback = z.infer<typeof answerFeedbackSchema>;

export const analyticsDataSchema = z.object({
  query: analyticsQuerySchema,
  /** One entry per day of the range, zero-filled. */
  daily: z.array(z.object({ date: dateSchema, count })),
  top: z.array(topFaqSchema),
  searches: z.array(searchRowSchema),
  feedback: z.array(feedbackRowSchema),
  answerFeedback: answerFeedbackSchema,
  /** Sections that could not be loaded, by section: shown in place of that section. */
  problems: z.object({
    daily: z.string().optional(),
    top: z.string().optional(),
    searches: z.string().optional(),
    feedback: z.string().optional(),
    answerFeedback: z.string().optional(),
  }),
  loadedAt: z.string(),
});
export type AnalyticsData = z.infer<typeof analyticsDataSchema>;
export type DailyCount = AnalyticsData['daily'][number];
export type AnalyticsSection = keyof AnalyticsData['problems'];

/** What the page drew (tests assert it; the host logs it at debug level). */
export const renderedSchema = z.object({
  dailyPoints: count,
  topBars: count,
  searchRows: count,
  feedbackRows: count,
  answerFeedbackRows: count,
  charts: z.array(z.string()),
});
export type RenderedReport = z.infer<typeof renderedSchema>;

/** Page state (setState): the query survives hiding the panel and restarting VS Code. */
export const analyticsStateSchema = z.object({
  query: analyticsQuerySchema,
  /** Absent in the state of a panel from before connections: it reopens on the active one. */
  connection: panelConnectionSchema.optional(),
});
export type AnalyticsState = z.infer<typeof analyticsStateSchema>;

/**
 * The tests' requests (`snapshot`: what the page shows; `drive`: work its controls as a person would). Called
 * only in the test build (src/testBuild.d.ts): elsewhere esbuild drops this function, so no other build has
 * these requests, their schemas or the pages' handlers of them.
 */
function testRequests() {
  return {
    /** Automation (integration tests): set the query and load. Answers with the query used. */
    drive: request(
      z.object({
        query: z.object({ startDate: dateSchema, endDate: dateSchema, topN: topNSchema }).partial(),
        /** Scroll a section into view (screenshots). */
        reveal: z.enum(['answerFeedback']).optional(),
      }),
      z.object({ query: analyticsQuerySchema }),
    ),
  };
}

export const analyticsProtocol = defineProtocol({
  name: 'analytics',
  toHost: {
    notifications: withPageNotifications({
      rendered: renderedSchema,
    }),
    requests: {
      load: request(z.object({ query: analyticsQuerySchema }), analyticsDataSchema),
    },
  },
  toPage: {
    notifications: {
      /** Sent on every load of the page: the default range (last 14 days, local dates). */
      /** `connection`: the panel's, kept in the page state so a restart reopens it there (the host always sends it). */
      init: z.object({ defaultQuery: analyticsQuerySchema, today: dateSchema, connection: panelConnectionSchema.optional() }),
      /** Load again with the page's current query (the Show Analytics command on an open panel). */
      refresh: emptySchema,
    },
    // Only the test build answers (and sends) them.
    requests: globalThis.__KD_TEST__ ? testRequests() : ({} as ReturnType<typeof testRequests>),
  },
});
export type AnalyticsProtocol = typeof analyticsProtocol;
