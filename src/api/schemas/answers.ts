import { z } from 'zod';
import { draftToMarkdown, isDraftRaw } from '../../core/draftjs';
import { feedbackCountsSchema, nullish } from './common';

/** Answers arrive as Markdown text, Draft.js raw content, or a string holding Draft.js JSON. */
export const answerTextSchema = z.unknown().transform((value): string => {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('{') && trimmed.includes('"blocks"')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (isDraftRaw(parsed)) return draftToMarkdown(parsed);
      } catch {
        // not JSON after all: plain text
      }
    }
    return value;
  }
  if (isDraftRaw(value)) return draftToMarkdown(value);
  return value === null || value === undefined ? '' : String(value);
});

export const citationSchema = z
  .object({
    index: z.number().int(),
    clueId: nullish(z.string()),
    source: nullish(z.string()),
    title: nullish(z.string()),
    pageNo: nullish(z.number().int()),
    knowledgeBaseId: nullish(z.string()),
    faqId: nullish(z.string()),
    url: nullish(z.string()),
    text: nullish(z.string()),
  })
  .passthrough();
export type Citation = z.infer<typeof citationSchema>;

/** Clues have no documented shape (docs/api.md#answer-response): the fields we can use are read when present. */
export const clueSchema = z
  .object({
    clueId: nullish(z.string()),
    id: nullish(z.string()),
    source: nullish(z.string()),
    title: nullish(z.string()),
    pageNo: nullish(z.number().int()),
    knowledgeBaseId: nullish(z.string()),
    kbId: nullish(z.string()),
    faqId: nullish(z.string()),
    text: nullish(z.string()),
  })
  .passthrough();
export type Clue = z.infer<typeof clueSchema>;

export const generativeAnswerSchema = z
  .object({
    answer: answerTextSchema,
    answerHash: nullish(z.string()),
    confidence: nullish(z.number()),
    effectiveConfidence: nullish(z.number()),
    documentId: nullish(z.string()),
    documentName: nullish(z.string()),
    hashtags: nullish(z.array(z.string())),
    pageNo: nullish(z.number().int()),
    createdDate: nullish(z.string()),
    agentFeedback: nullish(feedbackCountsSchema),
    userFeedback: nullish(feedbackCountsSchema),
    body: nullish(z.string()),
    css: nullish(z.string()),
    pdfPreview: nullish(z.string()),
    folder: nullish(z.string()),
    editor: nullish(z.array(z.string())),
    viewer: nullish(z.array(z.string())),
    threadId: nullish(z.string()),
    fuQuestion: nullish(z.string()),
    intent: nullish(z.string()),
    clues: z
      .array(clueSchema)
      .nullish()
      .transform((v) => v ?? []),
    citations: z
      .array(citationSchema)
      .nullish()
      .transform((v) => v ?? []),
    model: nullish(z.string()),
  })
  .passthrough();
export type GenerativeAnswer = z.infer<typeof generativeAnswerSchema>;

export const retrievalItemSchema = z
  .object({ ranking: z.number().int(), title: z.string(), text: z.string(), pageNo: z.number().int(), kb_id: z.string() })
  .passthrough();
export type RetrievalItem = z.infer<typeof retrievalItemSchema>;

export const retrievalResponseSchema = z.preprocess(
  (body) => (Array.isArray(body) ? { result: body } : body),
  z
    .object({
      result: z
        .array(retrievalItemSchema)
        .nullish()
        .transform((v) => v ?? []),
    })
    .passthrough(),
);

export const bboxSchema = z.object({ left: z.number(), top: z.number(), right: z.number(), bottom: z.number() }).passthrough();
export type BBox = z.infer<typeof bboxSchema>;

export const highlightSchema = z.preprocess(
  (body) => (body as { result?: unknown })?.result ?? body,
  z
    .object({
      bboxes: z
        .array(bboxSchema)
        .nullish()
        .transform((v) => v ?? []),
      type: nullish(z.string()),
      pageNo: nullish(z.number().int()),
    })
    .passthrough(),
);
export type Highlight = z.infer<typeof highlightSchema>;
