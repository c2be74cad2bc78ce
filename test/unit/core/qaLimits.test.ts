import assert from 'node:assert/strict';
import { QA_LIMITS } from '../../../src/core/qaFile/limits';

describe('QA_LIMITS (one definition for the editor, the import and the local service)', () => {
  it('has the documented numbers and cannot be changed at run time', () => {
    assert.deepEqual(
      { ...QA_LIMITS },
      {
        question: 1_000,
        answer: 50_000,
        similarQuestion: 1_000,
        similarQuestions: 100,
        hashtag: 100,
        hashtags: 50,
        folder: 200,
        memo: 5_000,
      },
    );
    assert.ok(Object.isFrozen(QA_LIMITS));
    assert.throws(() => {
      (QA_LIMITS as { question: number }).question = 5;
    }, TypeError);
  });
});
