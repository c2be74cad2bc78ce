// Answer feedback (mrc/user_feedback) and its history (mrc_feedbacks), client against the local service.
import assert from 'node:assert/strict';
import { BadRequestError, NotFoundError } from '../../../src/api/errors';
import { isFileNode } from '../../../src/api/values';
import { startTestService, type TestService } from '../support/localService';

describe('Answer feedback: 👍 / 👎, cancel with null, history (client against the local service)', () => {
  let t: TestService;
  let documentId = '';
  before(async () => {
    t = await startTestService();
    const [node] = await t.client().kbNodes.upload({
      file: { data: 'Expense reports are due on the fifth business day of each month.', contentType: 'text/plain' },
      fileName: 'expenses.txt',
    });
    assert.ok(isFileNode(node));
    documentId = node.id;
    await t.service.processingIdle();
  });
  after(() => t.stop());
  const as = (ownUserId?: string) => t.client({ identity: ownUserId ? { ownUserId } : {} });

  it('counts one vote per user and answer; the same button again (null) cancels it', async () => {
    const answer = await as('u1').answers.generate({ query: 'When are expense reports due?' });
    assert.ok(answer.answerHash, 'the local answer carries an answerHash');
    const base = { answerHash: answer.answerHash!, answer: answer.answer, documentId, query: 'When are expense reports due?' };
    assert.deepEqual(await as('u1').answers.feedback({ ...base, positive: true }), { positiveCount: 1, negativeCount: 0 });
    assert.deepEqual(
      await as('u1').answers.feedback({ ...base, positive: true }),
      { positiveCount: 1, negativeCount: 0 },
      'sent twice, counted once',
    );
    assert.deepEqual(await as('u2').answers.feedback({ ...base, positive: false }), { positiveCount: 1, negativeCount: 1 });
    assert.deepEqual(
      await as('u1').answers.feedback({ ...base, positive: false }),
      { positiveCount: 0, negativeCount: 2 },
      'a user changes their vote',
    );
    assert.deepEqual(await as('u2').answers.feedback({ ...base, positive: null }), { positiveCount: 0, negativeCount: 1 }, 'null cancels');
    assert.deepEqual(
      await as('u2').answers.feedback({ ...base, positive: null }),
      { positiveCount: 0, negativeCount: 1 },
      'cancelling twice is harmless',
    );
    // Without OWN-USER-ID every call is the one default user.
    assert.deepEqual(await as().answers.feedback({ ...base, positive: true }), { positiveCount: 1, negativeCount: 1 });
    const history = await as().answers.feedbackHistory({ limit: 10 });
    const entry = history.find((h) => h.query === base.query);
    assert.ok(entry, 'grouped by query');
    assert.deepEqual(entry.feedbacks.map((f) => [f.documentId, f.answerHash, f.positive]).sort(), [
      [documentId, base.answerHash, false],
      [documentId, base.answerHash, true],
    ]);
    assert.equal(entry.feedbacks[0].answer, answer.answer);
  });

  it('pages the history by query (limit at most 100)', async () => {
    for (const q of ['q one', 'q two', 'q three']) {
      await as('pager').answers.feedback({ answerHash: `h-${q}`, answer: 'a', documentId, query: q, positive: true });
    }
    const first = await as().answers.feedbackHistory({ offset: 0, limit: 2 });
    assert.deepEqual(
      first.map((h) => h.query),
      ['q three', 'q two'],
      'most recent first',
    );
    const next = await as().answers.feedbackHistory({ offset: 2, limit: 2 });
    assert.equal(next[0].query, 'q one');
    await assert.rejects(as().answers.feedbackHistory({ limit: 101 }), (e: unknown) => e instanceof BadRequestError && e.field === 'limit');
    await assert.rejects(
      as().answers.feedbackHistory({ offset: -1 }),
      (e: unknown) => e instanceof BadRequestError && e.field === 'offset',
    );
  });

  it('rejects bad input: missing fields, a positive that is not true/false/null, an unknown document', async () => {
    const good = { answerHash: 'h', answer: 'a', documentId, query: 'q', positive: true };
    for (const [patch, field] of [
      [{ answerHash: '' }, 'answerHash'],
      [{ answer: '' }, 'answer'],
      [{ query: ' ' }, 'query'],
      [{ documentId: '' }, 'id'],
      [{ positive: 'yes' }, 'positive'],
      [{ positive: undefined }, 'positive'],
    ] as const) {
      await assert.rejects(
        as().answers.feedback({ ...good, ...(patch as object) } as never),
        (e: unknown) => e instanceof BadRequestError && e.field === field,
        JSON.stringify(patch),
      );
    }
    await assert.rejects(
      as().answers.feedback({ ...good, documentId: 'deleted-doc' }),
      (e: unknown) => e instanceof NotFoundError && e.field === 'id' && e.message.includes('deleted-doc'),
    );
    assert.equal(as().offers.isOffered('answers.feedback'), true, 'an unknown document never hides the command');
  });
});
