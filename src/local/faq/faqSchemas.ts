// Request bodies of the Q&A operations. A body that does not fit is a 400 whose `field` is the dotted path
// of the first problem (`similarQuestions.3`), as on every other route (parseOrBadRequest).
import { z } from 'zod';
import type { RequestContext } from '../http/context';
import { badRequest, parseOrBadRequest } from '../http/errors';
import { optional, orDefault } from '../http/optionalFields';
import { charCount } from '../../core/charCount';
import { normalizeHashtag } from '../../core/hashtags';
import { QA_LIMITS } from '../../core/qaFile/limits';
import { uniqueBy } from '../../core/uniqueBy';
import { hashtagKey, questionKey } from './faqRecord';

export async function parseBody<S extends z.ZodTypeAny>(ctx: RequestContext, schema: S): Promise<z.output<S>> {
  const body = (await ctx.body()) ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The request body must be a JSON object.');
  return parseOrBadRequest(schema, body);
}

/** Search queries (POST /webapi/faq, filters): not a Q&A field, so not in QA_LIMITS. */
const QUERY_MAX_CHARS = 1_000;

const str = (name: string) => z.string({ required_error: 'is required', invalid_type_error: `${name} must be a string` });

/** Trimmed, non-empty, at most `max` characters. */
export const requiredText = (name: string, max: number) =>
  str(name)
    .transform((s) => s.trim())
    .refine((s) => s.length > 0, 'must not be empty')
    .refine((s) => charCount(s) <= max, `must be at most ${max} characters`);

const optionalText = (name: string, max: number) =>
  optional(
    str(name)
      .transform((s) => s.trim())
      .refine((s) => charCount(s) <= max, `must be at most ${max} characters`),
  );

const bool = (name: string) => optional(z.boolean({ invalid_type_error: `${name} must be true or false` }));

export const statusSchema = z
  .union([z.enum(['on', 'off']), z.boolean()], { errorMap: () => ({ message: 'must be "on" or "off"' }) })
  .transform((v): 'on' | 'off' => (typeof v === 'boolean' ? (v ? 'on' : 'off') : v));

/** Trimmed, empty ones dropped, repeats (same question key) dropped. */
const similarQuestionsSchema = z
  .array(
    str('similar question').refine(
      (s) => charCount(s.trim()) <= QA_LIMITS.similarQuestion,
      `must be at most ${QA_LIMITS.similarQuestion} characters`,
    ),
    {
      invalid_type_error: 'must be an array of strings',
    },
  )
  .max(QA_LIMITS.similarQuestions, `at most ${QA_LIMITS.similarQuestions} similar questions are allowed`)
  .transform((list) => uniqueBy(list.map((s) => s.trim()).filter(Boolean), questionKey));

/** Leading `#` stripped, trimmed, empty ones and repeats dropped. */
export const hashtagsSchema = z
  .array(
    str('hashtag').refine((s) => charCount(normalizeHashtag(s)) <= QA_LIMITS.hashtag, `must be at most ${QA_LIMITS.hashtag} characters`),
    {
      invalid_type_error: 'must be an array of strings',
    },
  )
  .max(QA_LIMITS.hashtags, `at most ${QA_LIMITS.hashtags} hashtags are allowed`)
  .transform((list) => uniqueBy(list.map(normalizeHashtag).filter(Boolean), hashtagKey));

export const registerSchema = z.object({
  question: requiredText('question', QA_LIMITS.question),
  answer: requiredText('answer', QA_LIMITS.answer),
  status: statusSchema,
  similarQuestions: optional(similarQuestionsSchema),
  hashtags: optional(hashtagsSchema),
  memo: optionalText('memo', QA_LIMITS.memo),
  folder: optionalText('folder', QA_LIMITS.folder),
  allowOtherAgentsView: bool('allowOtherAgentsView'),
  allowOtherUsersView: bool('allowOtherUsersView'),
});
export type RegisterInput = z.output<typeof registerSchema>;

export const updateSchema = z.object({
  id: requiredText('id', 200),
  question: optional(requiredText('question', QA_LIMITS.question)),
  similar_questions: optional(similarQuestionsSchema),
  answer: optional(requiredText('answer', QA_LIMITS.answer)),
  hashtags: optional(hashtagsSchema),
  status: optional(statusSchema),
  memo: optionalText('memo', QA_LIMITS.memo),
  folder: optionalText('folder', QA_LIMITS.folder),
  allowOtherAgentsView: bool('allowOtherAgentsView'),
  allowOtherUsersView: bool('allowOtherUsersView'),
});
export type UpdateInput = z.output<typeof updateSchema>;

export const idSchema = z.object({ id: requiredText('id', 200) });

const formatSchema = orDefault(z.enum(['html', 'text'], { errorMap: () => ({ message: 'must be "html" or "text"' }) }), 'html');
const int = (min: number, max: number) =>
  z
    .number({ invalid_type_error: 'must be a number' })
    .int('must be an integer')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

export const searchSchema = z.object({
  query: requiredText('query', QUERY_MAX_CHARS),
  maxResults: z
    .number({ invalid_type_error: 'must be a number' })
    .int('must be an integer')
    .refine((n) => n === -1 || n >= 1, 'must be -1 (no limit) or at least 1')
    .nullish()
    .transform((v) => v ?? -1),
  format: formatSchema,
  hashtags: orDefault(hashtagsSchema, []),
  hashtagsOperator: orDefault(z.enum(['AND', 'OR'], { errorMap: () => ({ message: 'must be "AND" or "OR"' }) }), 'OR'),
  autoRegisterCandidates: bool('autoRegisterCandidates').transform((v) => v ?? true),
});

export const filterSchema = z.object({
  searchTerm: z.string({ invalid_type_error: 'must be a string' }).max(QUERY_MAX_CHARS).nullish(),
  isUsed: bool('isUsed'),
  hashtags: orDefault(hashtagsSchema, []),
  hashtagsOperator: orDefault(z.enum(['and', 'or'], { errorMap: () => ({ message: 'must be "and" or "or"' }) }), 'or'),
  createdByAgent: bool('createdByAgent'),
  answeredByMrc: bool('answeredByMrc'),
  autoGenerated: bool('autoGenerated'),
  editedByAgent: bool('editedByAgent'),
  format: formatSchema,
  offset: orDefault(int(0, Number.MAX_SAFE_INTEGER), 0),
  limit: orDefault(int(1, 1000), 1000),
});
export type FilterInput = z.output<typeof filterSchema>;

export const selectSchema = z.object({
  hashId: requiredText('hashId', 200),
  id: z
    .string({ invalid_type_error: 'id must be a string' })
    .nullish()
    .transform((v) => v?.trim() || undefined),
});

export const feedbackSchema = z.object({
  query: str('query').max(QUERY_MAX_CHARS, `must be at most ${QUERY_MAX_CHARS} characters`),
  id: requiredText('id', 200),
  isPositive: z
    .boolean({ required_error: 'is required (true, false or null)', invalid_type_error: 'must be true, false or null' })
    .nullable(),
});

export const addCandidatesSchema = z.object({
  queries: z
    .array(requiredText('query', QUERY_MAX_CHARS), {
      required_error: 'is required',
      invalid_type_error: 'must be an array of strings',
    })
    .min(1, 'must hold at least one query')
    .max(1000, 'at most 1000 queries at once'),
});
