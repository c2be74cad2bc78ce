import * as assert from 'node:assert/strict';
import { charCount } from '../../../src/core/charCount';
import { cutAt, excerpt, plainPassage } from '../../../src/core/excerpt';

// What the local service sends as a citation's text: a page of a converted document, Markdown.
const PAGE = [
  '# Employee Handbook',
  '## Paid leave',
  '',
  'New employees get **15 days** of paid leave in their _first_ year.',
  'See [the leave policy](https://example.com/leave) and `HR-12`.',
  '',
  '- Unused days carry over',
  '1. Ask your manager',
  '> Approved requests are final.',
  '',
  '| Year | Days |',
  '|------|-----:|',
  '| 1 | 15 |',
  '---',
  '![chart](chart.png)',
].join('\n');

describe('excerpt: one rule for a source beside an answer', () => {
  it('removes headings and Markdown syntax, and keeps the text on one line', () => {
    assert.equal(
      plainPassage(PAGE),
      'New employees get 15 days of paid leave in their first year. See the leave policy and HR-12. ' +
        'Unused days carry over Ask your manager Approved requests are final. Year Days 1 15 chart',
    );
  });

  it('keeps words that only look like syntax: snake_case, 2*3*4, a lone #', () => {
    assert.equal(plainPassage('set max_upload_size to 2*3*4 MB, issue #12'), 'set max_upload_size to 2*3*4 MB, issue #12');
  });

  it('a passage of headings only keeps their text', () => {
    assert.equal(plainPassage('# 就業規則\n## 第1章 総則'), '就業規則 第1章 総則');
  });

  it('joins a Japanese sentence broken over lines without a space, and removes HTML tags', () => {
    assert.equal(
      plainPassage('## 年次有給休暇\n入社1年目の社員は\n15日の<b>有給休暇</b>を取得できます。'),
      '入社1年目の社員は15日の有給休暇を取得できます。',
    );
  });

  it('cuts at a word boundary with an ellipsis', () => {
    const cut = excerpt(PAGE, 40);
    assert.equal(cut, 'New employees get 15 days of paid leave…');
    assert.ok(charCount(cut) <= 40);
  });

  it('leaves a short passage whole, without an ellipsis', () => {
    assert.equal(excerpt('## Leave\nFifteen days.', 40), 'Fifteen days.');
    assert.equal(excerpt(undefined, 40), '');
  });

  it('cuts Japanese after its last sentence or clause end, or at the limit when there is none', () => {
    const ja = '新入社員は入社日から15日の年次有給休暇を取得できます。取得には上長の承認が必要で、申請はシステムから行います。';
    assert.equal(excerpt(ja, 40), '新入社員は入社日から15日の年次有給休暇を取得できます。…');
    const noBreak = 'あ'.repeat(50);
    assert.equal(excerpt(noBreak, 20), `${'あ'.repeat(19)}…`);
  });

  it('counts characters as people do: an emoji or a rare kanji is one, never split', () => {
    const text = '𠮷'.repeat(30);
    const cut = cutAt(text, 10);
    assert.equal(cut, `${'𠮷'.repeat(9)}…`);
    assert.equal(charCount(cut), 10);
  });
});
