// fileRowFields (the upload's check of a file row without zod) against registerSchema, the rules it stands in
// for: on every kind of row it either gives exactly registerSchema's output or leaves the row to registerSchema.
import assert from 'node:assert/strict';
import { QA_LIMITS } from '../../../src/core/qaFile/limits';
import type { QaRow } from '../../../src/core/qaFile/types';
import { registerSchema } from '../../../src/local/faq/faqSchemas';
import { fileRowFields } from '../../../src/local/faq/fileRowFields';

const base: QaRow = {
  row: 2,
  question: 'How do I reset it?',
  answer: 'Hold the button.',
  similarQuestions: [],
  hashtags: [],
  status: 'on',
};
const long = (n: number) => 'あ'.repeat(n);
const emoji = (n: number) => '😀'.repeat(n);

const rows: Array<[string, Partial<QaRow>]> = [
  ['plain', {}],
  ['status off, blank status', { status: 'off', statusBlank: true }],
  ['spaces around every field', { question: '  Q?  ', answer: '\tA\n', memo: ' m ', folder: ' f ' }],
  ['empty memo and folder', { memo: '', folder: '   ' }],
  ['hashtags with #, ＃, repeats and empties', { hashtags: ['#a', '＃b', 'A', ' ', '#', 'c ', 'b'] }],
  ['similar questions with repeats by key and empties', { similarQuestions: [' One  two ', 'one two', '', 'ＯＮＥ TWO', 'three'] }],
  ['question at the limit in code points', { question: emoji(QA_LIMITS.question) }],
  ['question over the limit', { question: long(QA_LIMITS.question + 1) }],
  ['empty question', { question: '   ' }],
  ['empty answer', { answer: '' }],
  ['answer over the limit', { answer: 'x'.repeat(QA_LIMITS.answer + 1) }],
  ['too many hashtags', { hashtags: Array.from({ length: QA_LIMITS.hashtags + 1 }, (_, i) => `t${i}`) }],
  ['a hashtag over the limit after its #', { hashtags: ['#' + 'h'.repeat(QA_LIMITS.hashtag)] }],
  ['a hashtag over the limit', { hashtags: ['h'.repeat(QA_LIMITS.hashtag + 1)] }],
  ['too many similar questions', { similarQuestions: Array.from({ length: QA_LIMITS.similarQuestions + 1 }, (_, i) => `s${i}`) }],
  ['a similar question over the limit', { similarQuestions: [long(QA_LIMITS.similarQuestion + 1)] }],
  ['memo over the limit', { memo: 'm'.repeat(QA_LIMITS.memo + 1) }],
  ['folder over the limit', { folder: 'f'.repeat(QA_LIMITS.folder + 1) }],
  ['folder at the limit after trimming', { folder: ` ${'f'.repeat(QA_LIMITS.folder)} ` }],
];

describe('fileRowFields: registerSchema without zod for uploaded rows', () => {
  for (const [name, change] of rows) {
    it(name, () => {
      const row = { ...base, ...change };
      const fast = fileRowFields(row);
      const parsed = registerSchema.safeParse({ ...row, memo: row.memo ?? null, folder: row.folder ?? null });
      if (fast === undefined) {
        // Left to registerSchema: only rows it refuses need to be, but refusing any is safe.
        if (parsed.success) assert.fail(`a row registerSchema accepts was not taken: ${name}`);
        return;
      }
      assert.ok(parsed.success, `registerSchema refuses a row fileRowFields accepted: ${JSON.stringify(parsed.error?.issues)}`);
      // Same values, same keys in the same order.
      assert.deepStrictEqual(fast, parsed.data);
      assert.deepStrictEqual(Object.keys(fast), Object.keys(parsed.data));
    });
  }
});
