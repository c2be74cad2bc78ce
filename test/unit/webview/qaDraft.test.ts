import assert from 'node:assert/strict';
import { charCount } from '../../../src/core/charCount';
import { parseHashtags } from '../../../src/core/hashtags';
import { QA_LIMITS } from '../../../src/core/qaFile/limits';
import type { QaDraft } from '../../../src/features/qna/editor/protocol';
import {
  changedFields,
  emptyDraft,
  normalizeDraft,
  rebaseDraft,
  registerBody,
  sameDraft,
  validateDraft,
  type DraftTexts,
} from '../../../src/features/qna/editor/qaDraft';
import { qaEditorStrings } from '../../../src/features/qna/editor/qaEditorStrings';

/** The English texts, as the host builds them, and numbers written as in English. */
const texts: DraftTexts = { strings: qaEditorStrings(), formatNumber: (n) => n.toLocaleString('en-US') };

const draft = (patch: Partial<QaDraft> = {}): QaDraft => ({
  ...emptyDraft(),
  question: 'How do I reset my password?',
  answer: '<p>Use <b>Forgot password</b>.</p>',
  ...patch,
});
const x = (n: number, ch = 'a'): string => ch.repeat(n);

describe('Q&A editor: validation', () => {
  it('requires a question and an answer (whitespace does not count)', () => {
    assert.deepEqual(validateDraft(emptyDraft(), { isNew: true }, texts), { question: 'Enter the question.', answer: 'Enter the answer.' });
    assert.deepEqual(validateDraft(draft({ question: '  \n ', answer: ' ' }), { isNew: false }, texts), {
      question: 'Enter the question.',
      answer: 'Enter the answer.',
    });
    assert.deepEqual(validateDraft(draft(), { isNew: true }, texts), {});
  });

  it('applies the length limits at their exact boundaries', () => {
    assert.deepEqual(
      validateDraft(draft({ question: x(1000), answer: x(50_000), folder: x(200), memo: x(5000) }), { isNew: true }, texts),
      {},
    );
    const errors = validateDraft(draft({ question: x(1001), answer: x(50_001), folder: x(201), memo: x(5001) }), { isNew: true }, texts);
    assert.deepEqual(Object.keys(errors).sort(), ['answer', 'folder', 'memo', 'question']);
    assert.equal(errors.question, 'The question is 1,001 characters long; the limit is 1,000.');
    assert.equal(errors.answer, 'The answer is 50,001 characters long; the limit is 50,000.');
  });

  it('counts characters, not UTF-16 units (Japanese and emoji)', () => {
    assert.equal(charCount('経費😀'), 3);
    assert.deepEqual(validateDraft(draft({ question: x(1000, '😀') }), { isNew: false }, texts), {});
    assert.ok(validateDraft(draft({ question: x(1001, '質') }), { isNew: false }, texts).question);
  });

  it('limits similar questions: each ≤ 1,000 characters, at most 100 (empty rows ignored)', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `variant ${i}`);
    assert.deepEqual(validateDraft(draft({ similarQuestions: [...hundred, '', '  '] }), { isNew: false }, texts), {});
    assert.match(
      validateDraft(draft({ similarQuestions: [...hundred, 'one more'] }), { isNew: false }, texts).similarQuestions,
      /101 similar questions; at most 100/,
    );
    const long = validateDraft(draft({ similarQuestions: ['ok', x(1001)] }), { isNew: false }, texts);
    assert.deepEqual(Object.keys(long), ['similarQuestions.1']);
    assert.match(long['similarQuestions.1'], /^Similar question 2 is 1,001 characters/);
  });

  it('limits hashtags: each ≤ 100 characters, at most 50', () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `tag${i}`);
    assert.deepEqual(validateDraft(draft({ hashtags: fifty }), { isNew: false }, texts), {});
    assert.match(validateDraft(draft({ hashtags: [...fifty, 'tag50'] }), { isNew: false }, texts).hashtags, /51 hashtags; at most 50/);
    assert.match(validateDraft(draft({ hashtags: [x(101)] }), { isNew: false }, texts).hashtags, /longer than 100 characters/);
  });

  it('checks the memo only for a new Q&A (the service takes it only at registration)', () => {
    assert.deepEqual(validateDraft(draft({ memo: x(QA_LIMITS.memo + 1) }), { isNew: false }, texts), {});
    assert.ok(validateDraft(draft({ memo: x(QA_LIMITS.memo + 1) }), { isNew: true }, texts).memo);
  });
});

describe('Q&A editor: what is sent', () => {
  it('normalizes: trims, drops empty and duplicate similar questions, cleans hashtags', () => {
    const d = normalizeDraft(
      draft({ question: '  Q?  ', similarQuestions: [' a ', '', 'a', 'b'], hashtags: ['#HR', ' policy ', '##HR', ''], folder: ' 人事 ' }),
    );
    assert.equal(d.question, 'Q?');
    assert.deepEqual(d.similarQuestions, ['a', 'b']);
    assert.deepEqual(d.hashtags, ['HR', 'policy']);
    assert.equal(d.folder, '人事');
    assert.deepEqual(parseHashtags('#経費, 精算、#締め日\nhr'), ['経費', '精算', '締め日', 'hr']);
  });

  it('registers a new Q&A with its memo and leaves empty optional fields out', () => {
    assert.deepEqual(registerBody(draft({ memo: ' for agents ', hashtags: ['#a'], status: 'off' })), {
      question: 'How do I reset my password?',
      answer: '<p>Use <b>Forgot password</b>.</p>',
      status: 'off',
      hashtags: ['a'],
      memo: 'for agents',
      allowOtherAgentsView: true,
      allowOtherUsersView: true,
    });
  });

  it('updates only the changed fields, with similar_questions in snake_case', () => {
    const base = draft({ similarQuestions: ['forgot password'], hashtags: ['account'], folder: 'IT' });
    assert.deepEqual(changedFields(base, { ...base }), {});
    assert.deepEqual(
      changedFields(base, { ...base, hashtags: ['#account'], similarQuestions: ['forgot password', ''] }),
      {},
      'same after normalization',
    );
    assert.deepEqual(
      changedFields(base, { ...base, similarQuestions: ['forgot password', 'lost password'], status: 'off', memo: 'ignored for updates' }),
      {
        similar_questions: ['forgot password', 'lost password'],
        status: 'off',
      },
    );
    assert.deepEqual(changedFields(base, { ...base, folder: '', allowOtherUsersView: false, answer: 'new' }), {
      answer: 'new',
      folder: '',
      allowOtherUsersView: false,
    });
  });

  it('rebases a draft on a newer saved version: untouched fields follow, edited ones stay', () => {
    const oldBase = draft({ status: 'on', hashtags: ['a'] });
    const edited = { ...oldBase, answer: 'my edit' };
    const newBase = { ...oldBase, status: 'off' as const, answer: 'server answer', hashtags: ['a', 'b'] };
    const r = rebaseDraft(oldBase, newBase, edited);
    assert.equal(r.status, 'off');
    assert.deepEqual(r.hashtags, ['a', 'b']);
    assert.equal(r.answer, 'my edit');
    assert.equal(sameDraft(r, newBase), false);
  });
});
