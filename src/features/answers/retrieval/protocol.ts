// Messages of the Retrieval panel webview, imported by the host (retrievalPanel.ts) and the page
// (src/webview/retrieval). No vscode and no DOM here.
import { z } from 'zod';
import { defineProtocol, request, snapshotAndDrive, withPageNotifications } from '../../../platform/webview/protocol';

export const RETRIEVAL_VIEW_TYPE = 'knowledgeDesk.retrieval';

export const COLUMNS = ['A', 'B'] as const;
export const columnSchema = z.enum(COLUMNS);
export type Column = z.infer<typeof columnSchema>;

const weight = z.number().min(0).max(9);

/** One column's settings, named as the retrieval request names them (docs/api.md#retrieval). */
export const retrievalSettingsSchema = z.object({
  bm25_score_weight: weight,
  text_vector_score_weight: weight,
  title_vector_score_weight: weight,
  maxDocumentClues: z.number().int().min(1).max(20),
  /** null: not sent, the project setting applies. */
  use_reranker: z.boolean().nullable(),
  reranker_candidates_num: z.number().int().min(1).max(100),
  hashtags: z.array(z.string().min(1).max(200)).max(50),
});
export type RetrievalSettings = z.infer<typeof retrievalSettingsSchema>;

/** The service's defaults (docs/api.md#retrieval): keyword 9, content vectors 1, title vectors 0, 3 pages, 16 candidates. */
export const SERVICE_DEFAULTS: RetrievalSettings = {
  bm25_score_weight: 9,
  text_vector_score_weight: 1,
  title_vector_score_weight: 0,
  maxDocumentClues: 3,
  use_reranker: null,
  reranker_candidates_num: 16,
  hashtags: [],
};

/** Column defaults: A = the service's defaults, B = keyword (BM25) search only. */
export const DEFAULT_SETTINGS: Record<Column, RetrievalSettings> = {
  A: SERVICE_DEFAULTS,
  B: { ...SERVICE_DEFAULTS, text_vector_score_weight: 0, title_vector_score_weight: 0 },
};

export const questionSchema = z.string().trim().min(1, 'Enter a question').max(10_000);

/** The part of the retrieval request (api/resources/answers.ts RetrievalRequest) the panel sets. */
export interface RetrievalRequestBody {
  question: string;
  maxDocumentClues: number;
  bm25_score_weight: number;
  text_vector_score_weight: number;
  title_vector_score_weight: number;
  hashtags?: string[];
  use_reranker?: boolean;
  reranker_candidates_num?: number;
}

/** The request body a column sends: only what retrieval reads; the reranker fields only when it is set. */
export function toRetrievalRequest(question: string, s: RetrievalSettings): RetrievalRequestBody {
  const body: RetrievalRequestBody = {
    question: question.trim(),
    maxDocumentClues: s.maxDocumentClues,
    bm25_score_weight: s.bm25_score_weight,
    text_vector_score_weight: s.text_vector_score_weight,
    title_vector_score_weight: s.title_vector_score_weight,
  };
  if (s.hashtags.length) body.hashtags = s.hashtags;
  if (s.use_reranker !== null) body.use_reranker = s.use_reranker;
  if (s.use_reranker) body.reranker_candidates_num = s.reranker_candidates_num;
  return body;
}

export const resultItemSchema = z.object({
  ranking: z.number().int(),
  title: z.string().max(1_000),
  pageNo: z.number().int(),
  kbId: z.string().max(1_000),
  /** The passage, plain text (shown as text, never as HTML). */
  text: z.string().max(100_000),
  /** Which chunk of the page (a local-service extra, docs/api.md#retrieval): pins the highlight. */
  subTextIndex: z.number().int().nonnegative().optional(),
});
export type ResultItem = z.infer<typeof resultItemSchema>;

export const runResultSchema = z.object({
  items: z.array(resultItemSchema).max(100),
  elapsedMs: z.number().nonnegative(),
  /** The body that was sent (shown under "Request"). */
  request: z.record(z.unknown()),
});
export type RunResult = z.infer<typeof runResultSchema>;

/** Rank change of a result against the other column. */
export const markSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('same') }),
  z.object({ kind: z.literal('up'), by: z.number().int().positive() }),
  z.object({ kind: z.literal('down'), by: z.number().int().positive() }),
  /** In B but not in A. */
  z.object({ kind: z.literal('new') }),
  /** In A but not in B. */
  z.object({ kind: z.literal('dropped') }),
]);
export type Mark = z.infer<typeof markSchema>;

const columnReport = z.object({ count: z.number().int(), marks: z.array(z.string()), error: z.string().nullable() });
export const retrievalRenderedSchema = z.object({ question: z.string(), A: columnReport, B: columnReport });
export type RetrievalRendered = z.infer<typeof retrievalRenderedSchema>;

export const retrievalStateSchema = z.object({
  question: z.string().max(10_000),
  settings: z.object({ A: retrievalSettingsSchema, B: retrievalSettingsSchema }),
});
export type RetrievalState = z.infer<typeof retrievalStateSchema>;

/**
 * The tests' requests (`snapshot`: what the page shows; `drive`: work its controls as a person would). Called
 * only in the test build (src/testBuild.d.ts): elsewhere esbuild drops this function, so no other build has
 * these requests, their schemas or the pages' handlers of them.
 */
function testRequests() {
  const snapshotColumn = z.object({
    settings: retrievalSettingsSchema,
    busy: z.boolean(),
    error: z.string().nullable(),
    results: z.array(resultItemSchema.extend({ mark: z.string() })),
    request: z.record(z.unknown()).nullable(),
  });
  const retrievalSnapshotSchema = z.object({ question: z.string(), A: snapshotColumn, B: snapshotColumn });

  // drive: fill the form, run, or open a result, as a person would.
  return snapshotAndDrive(
    retrievalSnapshotSchema,
    z.object({
      question: z.string().max(10_000).optional(),
      A: retrievalSettingsSchema.partial().optional(),
      B: retrievalSettingsSchema.partial().optional(),
      run: z.enum(['A', 'B', 'both']).optional(),
      open: z.object({ column: columnSchema, index: z.number().int().nonnegative() }).optional(),
    }),
  );
}

export const retrievalProtocol = defineProtocol({
  name: 'retrieval',
  toHost: {
    notifications: withPageNotifications({
      rendered: retrievalRenderedSchema,
    }),
    requests: {
      run: request(z.object({ column: columnSchema, question: questionSchema, settings: retrievalSettingsSchema }), runResultSchema),
      /** Opens a result in the citation viewer. */
      open: request(z.object({ item: resultItemSchema, question: z.string().max(10_000) }), z.object({ opened: z.boolean() })),
    },
  },
  toPage: {
    notifications: {
      /** Sent on every load: the defaults of the columns and the region (shown in the header). */
      init: z.object({
        defaults: z.object({ A: retrievalSettingsSchema, B: retrievalSettingsSchema }),
        region: z.string().max(100),
        question: z.string().max(10_000).nullable(),
      }),
      /** Show Retrieval with a question while the page is open: put it in the field. */
      question: z.object({ question: z.string().max(10_000) }),
    },
    // Only the test build answers (and sends) them.
    requests: globalThis.__KD_TEST__ ? testRequests() : ({} as ReturnType<typeof testRequests>),
  },
});
export type RetrievalProtocol = typeof retrievalProtocol;
/** What the page shows, as `snapshot` answers in the test build. */
export type RetrievalSnapshot = z.infer<ReturnType<typeof testRequests>['snapshot']['result']>;
