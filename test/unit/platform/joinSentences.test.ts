// Sentences shown one after another (the upload summary): English puts a space between them, Japanese none after 「。」
// ("作成 103 件。 297 件は…" had a stray space, seen in the Japanese upload journey).
import assert from 'node:assert/strict';
import { joinSentences } from '../../../src/platform/intlFormat';

describe('joinSentences', () => {
  it('puts one space after a Western full stop', () => {
    assert.equal(
      joinSentences('Uploaded 3 of 5.', '1 failed.', '1 not sent (cancelled).'),
      'Uploaded 3 of 5. 1 failed. 1 not sent (cancelled).',
    );
  });
  it('puts no space after a Japanese full stop, question or exclamation mark', () => {
    assert.equal(joinSentences('作成 103 件。', '297 件は送信されませんでした。'), '作成 103 件。297 件は送信されませんでした。');
    assert.equal(joinSentences('よろしいですか？', '続行します！', '完了'), 'よろしいですか？続行します！完了');
  });
  it('leaves one sentence as it is', () => {
    assert.equal(joinSentences('Done.'), 'Done.');
  });
});
