import { z } from 'zod';
import { draftToMarkdown, isDraftRaw } from '../../core/draftjs';
import { bareArrayAs, feedbackCountsSchema, listOf, nullish, unwrapResult } from './common';

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

/** What citations and clues both say about the passage an answer drew on. */
const sourceRefFields = {
  clueId: nullish(z.string()),
  source: nullish(z.string()),
  title: nullish(z.string()),
  pageNo: nullish(z.number().int()),
  knowledgeBaseId: nullish(z.string()),
  faqId: nullish(z.string()),
  text: nullish(z.string()),
};

export const citationSchema = z.object({ index: z.number().int(), ...sourceRefFields, url: nullish(z.string()) }).passthrough();
export type Citation = z.infer<typeof citationSchema>;

/** Clues have no documented shape (docs/api.md#answer-response): the fields we can use are read when present. */
export const clueSchema = z.object({ ...sourceRefFields, id: nullish(z.string()), kbId: nullish(z.string()) }).passthrough();
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
    clues: listOf(clueSchema),
    citations: listOf(citationSchema),
    model: nullish(z.string()),
  })
  .passthrough();
export type GenerativeAnswer = z.infer<typeof generativeAnswerSchema>;

export const retrievalItemSchema = z
  .object({ ranking: z.number().int(), title: z.string(), text: z.string(), pageNo: z.number().int(), kb_id: z.string() })
  .passthrough();
export type RetrievalItem = z.infer<typeof retrievalItemSchema>;

export const retrievalResponseSchema = bareArrayAs('result', z.object({ result: listOf(retrievalItemSchema) }).passthrough());

export const bboxSchema = z.object({ left: z.number(), top: z.number(), right: z.number(), bottom: z.number() }).passthrough();
export type BBox = z.infer<typeof bboxSchema>;

export const highlightSchema = unwrapResult(
  z
    .object({
      bboxes: listOf(bboxSchema),
      type: nullish(z.string()),
      pageNo: nullish(z.number().int()),
    })
    .passthrough(),
);
export type Highlight = z.infer<typeof highlightSchema>;
