// The knowledge test format (docs/knowledge-tests.md): what a `*.kdtest.yaml` file or a test CSV says, as zod
// types. The YAML and CSV readers both end here, so the two forms mean the same thing and report the same problems.
import { z } from 'zod';
import { charCount } from '../charCount';
import { QUESTION_MAX_CHARS } from '../questionLimit';

export const TEST_MODES = ['answer', 'qna', 'retrieval'] as const;
export type TestMode = (typeof TEST_MODES)[number];

export const ASSERTION_KINDS = [
  'cites',
  'contains',
  'containsAny',
  'notContains',
  'matchesQna',
  'noAnswer',
  'minConfidence',
  'retrieves',
] as const;
export type AssertionKind = (typeof ASSERTION_KINDS)[number];

/** The top k of `retrieves` when the test does not say. */
export const DEFAULT_TOP = 5;

const text = z.string().trim().min(1, 'must not be empty');
/** One string or a list of them; a single string is the common case in hand-written files. */
const texts = z.union([text.transform((s) => [s]), z.array(text).min(1, 'needs at least one value')]);
const page = z.number().int().positive();

const documentRef = z.object({ document: text, page: page.optional() }).strict();
const qnaRef = z.object({ qna: text }).strict();
const retrievalRef = z.object({ document: text, page: page.optional(), top: z.number().int().min(1).max(100).optional() }).strict();

/** The value each assertion takes, by its name. */
export const ASSERTION_VALUES = {
  cites: z.union([text.transform((document): z.output<typeof documentRef> => ({ document })), documentRef, qnaRef]),
  contains: texts,
  containsAny: texts,
  notContains: texts,
  matchesQna: text,
  noAnswer: z.literal(true, { errorMap: () => ({ message: 'noAnswer takes true' }) }),
  minConfidence: z.number().min(0).max(1),
  retrieves: z.union([text.transform((document): z.output<typeof retrievalRef> => ({ document })), retrievalRef]),
} satisfies Record<AssertionKind, z.ZodTypeAny>;

export type Assertion = { [K in AssertionKind]: { [P in K]: z.output<(typeof ASSERTION_VALUES)[K]> } }[AssertionKind];

/** Which assertions a mode can check (a generative answer has citations; a retrieval has pages, no confidence). */
export const ASSERTIONS_OF_MODE: Record<TestMode, readonly AssertionKind[]> = {
  answer: ['cites', 'contains', 'containsAny', 'notContains', 'matchesQna', 'noAnswer', 'minConfidence'],
  qna: ['contains', 'containsAny', 'notContains', 'matchesQna', 'noAnswer', 'minConfidence'],
  retrieval: ['contains', 'containsAny', 'notContains', 'retrieves'],
};

export const SOURCES = ['document', 'qna', 'web'] as const;

export const testCaseSchema = z
  .object({
    name: text.optional(),
    question: z
      .string({ required_error: 'a test needs a question' })
      .trim()
      .min(1, 'the question is empty')
      .refine(
        (q) => charCount(q) <= QUESTION_MAX_CHARS,
        (q) => ({
          message: `the question has ${charCount(q)} characters; the service accepts at most ${QUESTION_MAX_CHARS}`,
        }),
      ),
    mode: z.enum(TEST_MODES).default('answer'),
    /** Folder or document ids, as the chat's scope. */
    scope: z.array(text).max(100).optional(),
    sources: z.array(z.enum(SOURCES)).optional(),
    hashtags: z.array(text).max(50).optional(),
    hashtagsOperator: z.enum(['and', 'or']).optional(),
    assert: z.array(z.unknown()).min(1, 'a test needs at least one assertion'),
  })
  .strict();
export type RawTestCase = z.infer<typeof testCaseSchema>;

/** Where a test or a problem sits in its file: 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

export interface Diagnostic {
  severity: 'error' | 'warning';
  message: string;
  start: Position;
  end: Position;
}

export interface LocatedAssertion {
  assertion: Assertion;
  kind: AssertionKind;
  start: Position;
}

export interface KnowledgeTest extends Omit<RawTestCase, 'assert'> {
  /** The question, clipped, unless the file names the test. */
  title: string;
  assert: LocatedAssertion[];
  start: Position;
  end: Position;
}

export interface ParsedTestFile {
  tests: KnowledgeTest[];
  diagnostics: Diagnostic[];
}

export function assertionKind(assertion: Assertion): AssertionKind {
  return Object.keys(assertion)[0] as AssertionKind;
}

export function titleOf(test: Pick<RawTestCase, 'name' | 'question'>): string {
  if (test.name) return test.name;
  const line = test.question.replace(/\s+/g, ' ');
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
