// Schemas of the operations from the service's public pages (docs/api.md#further-public-operations):
// tolerant, each accepting the answer with or without its `result` wrapper (docs/api.md).
import { z } from 'zod';
import { epochMs, feedbackCountsSchema, listOf, nullish, textOr, textOrEmpty } from './common';
import { kbNodeSchema } from './kbNodes';

const unwrap = (body: unknown): unknown => (body as { result?: unknown } | undefined)?.result ?? body;

/** Only the fields given change (docs/api.md#update-a-node). */
export interface NodeUpdate {
  name?: string;
  hashtags?: string[];
  properties?: Array<{ key: string; value: string }>;
}

export const toggleResultSchema = z.preprocess(
  (body) => {
    const root = unwrap(body);
    return Array.isArray(root) ? { updated: root } : root;
  },
  z
    .object({
      updated: listOf(z.string()),
    })
    .passthrough(),
);
export type ToggleResult = z.infer<typeof toggleResultSchema>;

const pageSchema = z.preprocess(
  (p) => {
    const r = p as Record<string, unknown> | undefined;
    return r && typeof r === 'object' ? { ...r, pageNo: r.pageNo ?? r.page_no ?? r.page } : p;
  },
  z
    .object({
      pageNo: z.number().int(),
      text: textOrEmpty,
    })
    .passthrough(),
);

/** `{result: {pages: [{pageNo, text}]}}`; `page_no` / `page`, and `pages` as the result itself, are read too. */
export const pageTextSchema = z.preprocess(
  (body) => {
    const root = unwrap(body);
    return Array.isArray(root) ? root : (root as { pages?: unknown } | undefined)?.pages;
  },
  z.array(pageSchema).transform((pages) => pages.map((p) => ({ pageNo: p.pageNo, text: p.text }))),
);
export type PageText = { pageNo: number; text: string };

const time = nullish(epochMs);

export const ingestionStepSchema = z
  .object({
    name: z.string(),
    subLabel: nullish(z.string()),
    startedAt: time,
    endedAt: time,
    status: textOr('unknown'),
  })
  .passthrough();

export const ingestionStatusSchema = z.preprocess(
  unwrap,
  z
    .object({
      status: textOr('unknown'),
      startedAt: time,
      endedAt: time,
      /** Seconds, as sent. */
      elapsed: nullish(z.number()),
      steps: listOf(ingestionStepSchema),
    })
    .passthrough(),
);
export type IngestionStatus = z.infer<typeof ingestionStatusSchema>;
export type IngestionStep = z.infer<typeof ingestionStepSchema>;

export interface NodeDownload {
  contentType: string;
  /** From Content-Disposition; '' when the service sends none. */
  fileName: string;
  /** Content-Length when sent. */
  size?: number;
  body: AsyncIterable<Uint8Array>;
  /** Stops reading and frees the connection; idempotent. */
  cancel(): void;
}

export const folderResultSchema = z.preprocess((body) => ({ result: unwrap(body) }), z.object({ result: kbNodeSchema }));

/** Delete folder: ours answers how many went with it; a deployment answering an empty 200 leaves them unknown. */
export const folderDeleteSchema = z.preprocess(
  (body) => (body === undefined || body === null || body === '' ? {} : unwrap(body)),
  z
    .object({
      deletedDocuments: nullish(z.number().int().nonnegative()),
      deletedFolders: nullish(z.number().int().nonnegative()),
    })
    .passthrough(),
);
export type FolderDeleteResult = z.infer<typeof folderDeleteSchema>;

/**
 * Hashtags in use with their counts: `{result: {"<tag>": count}}` (public), also an array of
 * `{hashtag|name|tag, count}`; sorted by count, then name.
 */
export const hashtagCountsSchema = z.preprocess(
  (body) => {
    const root = unwrap(body);
    if (Array.isArray(root)) {
      return root.map((e) => {
        const r = e as Record<string, unknown>;
        return typeof e === 'string' ? { tag: e, count: 0 } : { tag: r?.hashtag ?? r?.name ?? r?.tag, count: r?.count ?? 0 };
      });
    }
    return root && typeof root === 'object' ? Object.entries(root).map(([tag, count]) => ({ tag, count })) : root;
  },
  z
    .array(z.object({ tag: z.string(), count: z.number() }))
    .transform((list) => list.sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag))),
);
export type HashtagCount = { tag: string; count: number };

export const answerFeedbackResponseSchema = z.preprocess((body) => {
  const root = unwrap(body) as Record<string, unknown> | undefined;
  return root?.userFeedback ?? root ?? {};
}, feedbackCountsSchema);

const feedbackEntrySchema = z.preprocess(
  (e) => {
    const r = e as Record<string, unknown> | undefined;
    if (!r || typeof r !== 'object') return e;
    return {
      documentId: r.document_id ?? r.documentId ?? r.id,
      answer: r.answer,
      answerHash: r.answer_hash ?? r.answerHash,
      positive: r.positive,
      // Not in the public shape; read when a deployment adds it.
      createdAt: r.created_at ?? r.createdAt ?? r.updated_at ?? r.updatedAt,
    };
  },
  z.object({
    documentId: textOrEmpty,
    answer: textOrEmpty,
    answerHash: textOrEmpty,
    positive: z.boolean().nullable().default(null),
    /** Epoch seconds/milliseconds or a date string; null when the deployment gives none (the public shape). */
    createdAt: z
      .union([z.string(), z.number()])
      .nullish()
      .catch(null)
      .transform((v) => v ?? null),
  }),
);

/** `{result: [{query, feedbacks: [{document_id, answer, answer_hash, positive}]}]}` (public), normalised to camelCase. */
export const answerFeedbackHistorySchema = z.preprocess(
  unwrap,
  z.array(
    z
      .object({
        query: textOrEmpty,
        feedbacks: listOf(feedbackEntrySchema),
      })
      .passthrough(),
  ),
);
export type AnswerFeedbackHistory = z.infer<typeof answerFeedbackHistorySchema>;
