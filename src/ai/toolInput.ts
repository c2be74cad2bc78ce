// Inputs of the knowledge tools, shared by the language model tools (VS Code) and the MCP server: one zod
// schema per tool, with messages written for the model (or person) that sent the input. No vscode here.
import { z } from 'zod';
import { isSchemaWording } from '../api/plainRefusal';
import { QUESTION_MAX_CHARS } from '../core/questionLimit';
import { ToolInputError } from './errors';

export { QUESTION_MAX_CHARS };
export const MAX_SCOPE_IDS = 20;
export const MAX_RESULTS = 10;
export const DEFAULT_RESULTS = 5;

export { ToolInputError };

const question = z
  .string({ required_error: 'question is missing: send the question as text.', invalid_type_error: 'question must be text.' })
  .trim()
  .min(1, 'question is empty: send the question in words.')
  .max(
    QUESTION_MAX_CHARS,
    `question is longer than ${QUESTION_MAX_CHARS.toLocaleString('en-US')} characters: shorten it to the question itself.`,
  )
  .describe('The question, in the words a person would ask it (any language).');

const scopeIds = z
  .array(z.string().trim().min(1, 'scopeIds must not contain empty ids.').max(200, 'scopeIds: an id is at most 200 characters.'), {
    invalid_type_error: 'scopeIds must be a list of folder or document ids.',
  })
  .max(MAX_SCOPE_IDS, `scopeIds: at most ${MAX_SCOPE_IDS} ids.`)
  .optional()
  .describe('Optional: ids of knowledge-base folders or documents to search in (ids from earlier results). Omit to search everything.');

const maxResults = z
  .number({ invalid_type_error: 'maxResults must be a number.' })
  .int('maxResults must be a whole number.')
  .min(1, 'maxResults must be at least 1.')
  .max(MAX_RESULTS, `maxResults must be at most ${MAX_RESULTS}.`)
  .optional()
  .describe(`Optional: how many results to return, 1–${MAX_RESULTS} (default ${DEFAULT_RESULTS}).`);

/** Raw shapes: the MCP SDK takes them as they are; VS Code gets the same fields as JSON Schema (package.json). */
export const retrieveShape = { question, scopeIds, maxResults };
export const qnaShape = { question, maxResults };
export const answerShape = { question, scopeIds };

export const retrieveInput = z.object(retrieveShape).strict();
export const qnaInput = z.object(qnaShape).strict();
export const answerInput = z.object(answerShape).strict();
export type RetrieveInput = z.infer<typeof retrieveInput>;
export type QnaInput = z.infer<typeof qnaInput>;
export type AnswerInput = z.infer<typeof answerInput>;

/** Parses `raw` or throws a ToolInputError naming every problem in one sentence each. */
export function parseToolInput<S extends z.ZodTypeAny>(schema: S, raw: unknown): z.output<S> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ToolInputError('Input must be an object such as {"question": "…"}.');
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data as z.output<S>;
  throw new ToolInputError(describeIssues(parsed.error, schema instanceof z.ZodObject ? Object.keys(schema.shape as object) : undefined));
}

/** `fields`: the ones this tool takes, named when an unknown one came (each tool takes different ones). */
export function describeIssues(error: z.ZodError, fields: string[] = ['question', 'scopeIds', 'maxResults']): string {
  const messages = error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys')
      return `Unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.join(', ')}: use only ${listOf(fields)}.`;
    // Our messages name the field already; zod's defaults do not, and read as code ("Expected string, received number").
    const field = issue.path.join('.');
    const message = isSchemaWording(issue.message) ? plainIssue(issue) : issue.message;
    return field && !message.startsWith(String(issue.path[0])) ? `${field}: ${message}` : message;
  });
  return [...new Set(messages)].join(' ');
}

/** A zod issue without our own message, in words: what to send instead. */
function plainIssue(issue: z.ZodIssue): string {
  if (issue.code === 'invalid_type')
    return issue.received === 'undefined' ? 'is missing.' : `must be ${issue.expected === 'string' ? 'text' : `a ${issue.expected}`}.`;
  if (issue.code === 'too_big') return `is too long: at most ${String(issue.maximum)}.`;
  if (issue.code === 'too_small') return `is too short: at least ${String(issue.minimum)}.`;
  return 'is not valid here.';
}

const listOf = (words: string[]): string => (words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words.join(''));
