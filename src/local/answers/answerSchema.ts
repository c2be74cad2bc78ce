// The generative-answer request (docs/api.md#answer-request): every field accepted and validated; a
// mismatch is a 400 naming the field.
import { z } from 'zod';
import { orDefault } from '../http/optionalFields';

const ids = z.array(z.string().min(1).max(200)).max(1000).nullish();
const tags = z.array(z.string().max(200)).max(100).nullish();
const lower = (v: unknown): unknown => (typeof v === 'string' ? v.toLowerCase() : v);
const upper = (v: unknown): unknown => (typeof v === 'string' ? v.toUpperCase() : v);
/** A switch that is off unless sent as true. */
const flag = orDefault(z.boolean(), false);
const andOr = z.preprocess(lower, z.enum(['and', 'or'])).nullish();

export const answerRequestSchema = z.object({
  query: z.string().trim().min(1).max(2000),
  model: z.string().max(200).nullish(),
  answerFormat: orDefault(z.preprocess(upper, z.enum(['DRAFTJS', 'MARKDOWN'])), 'DRAFTJS'),
  isStateful: flag,
  threadId: z.union([z.literal(''), z.string().uuid()]).nullish(),
  promptGroupId: z.string().max(200).nullish(),
  mode: orDefault(z.preprocess(lower, z.enum(['sync', 'stream'])), 'sync'),
  clueText: flag,
  clues: flag,
  includeCitations: flag,
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
  returnPreview: flag,
  returnPdfPreview: flag,
});

export type AnswerRequest = z.output<typeof answerRequestSchema>;
