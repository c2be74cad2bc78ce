// The generative-answer request (docs/api.md#answer-request): every field accepted and validated; a
// mismatch is a 400 naming the field.
import { z } from 'zod';

const ids = z.array(z.string().min(1).max(200)).max(1000).nullish();
const tags = z.array(z.string().max(200)).max(100).nullish();
const lower = (v: unknown): unknown => (typeof v === 'string' ? v.toLowerCase() : v);
const upper = (v: unknown): unknown => (typeof v === 'string' ? v.toUpperCase() : v);
const andOr = z.preprocess(lower, z.enum(['and', 'or'])).nullish();

export const answerRequestSchema = z.object({
  query: z.string().trim().min(1).max(2000),
  model: z.string().max(200).nullish(),
  answerFormat: z
    .preprocess(upper, z.enum(['DRAFTJS', 'MARKDOWN']))
    .nullish()
    .transform((v) => v ?? 'DRAFTJS'),
  isStateful: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  threadId: z.union([z.literal(''), z.string().uuid()]).nullish(),
  promptGroupId: z.string().max(200).nullish(),
  mode: z
    .preprocess(lower, z.enum(['sync', 'stream']))
    .nullish()
    .transform((v) => v ?? 'sync'),
  clueText: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  clues: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  includeCitations: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  hashtags: z
    .object({
      qnaInclude: tags,
      qnaIncludeOption: andOr,
      qnaExclude: tags,
      qnaExcludeOption: andOr,
      docsInclude: tags,
      docsIncludeOption: andOr,
      docsExclude: tags,
      docsExcludeOption: andOr,
    })
    .nullish(),
  search_from: z
    .array(z.preprocess(lower, z.enum(['web', 'qna', 'document'])))
    .max(3)
    .nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  source: z
    .object({
      sharedKnowledgeBaseNodeIds: ids,
      personalKnowledgeBaseNodeIds: ids,
      webSites: z.array(z.string().max(2000)).max(100).nullish(),
    })
    .nullish(),
  knowledgeBaseIds: ids,
  folderIds: ids,
  returnPreview: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  returnPdfPreview: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
});

export type AnswerRequest = z.output<typeof answerRequestSchema>;
