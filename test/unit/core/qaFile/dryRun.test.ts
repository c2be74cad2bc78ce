import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as l10n from '@vscode/l10n';
import { dryRunQaFile, normalizeQuestion } from '../../../../src/core/qaFile/dryRun';
import { fixture } from './helpers';

describe('dryRunQaFile', () => {
  it('warns about questions that already exist (importing updates them) and counts creates and updates', async () => {
    const existing = new Set([
      normalizeQuestion('HOW DO I RESET MY PASSWORD?'),
      normalizeQuestion('Where is the office?'),
      'not in the file',
    ]);
    const dry = await dryRunQaFile(fixture('good-en.csv'), 'good-en.csv', { existingQuestions: existing });
    assert.deepEqual(
      dry.problems.map((p) => [p.row, p.severity, p.code, p.question]),
      [
        [2, 'warning', 'exists', 'How do I reset my password?'],
        [7, 'warning', 'exists', 'Where is the office?'],
      ],
    );
    assert.equal(dry.problems[0].message, 'A Q&A with this question already exists; importing updates its answer.');
    assert.deepEqual(dry.summary, { total: 4, valid: 4, errors: 0, warnings: 2, willCreate: 2, willUpdate: 2, duplicates: 0 });
    assert.equal(dry.rows.length, 4);
    assert.equal(dry.encoding, 'utf-8');
    assert.deepEqual(dry.headers.slice(0, 2), ['question', 'answer']);
    assert.deepEqual(dry.mapping.question, 0);
  });

  it('describes problems in the display language once VS Code hands over its bundle (Japanese)', async () => {
    // What src/platform/l10n.ts does at activation when the display language is Japanese.
    l10n.config({ contents: JSON.parse(readFileSync('l10n/bundle.l10n.ja.json', 'utf8')) });
    try {
      const dry = await dryRunQaFile(fixture('duplicates.csv'), 'duplicates.csv', {
        existingQuestions: new Set([normalizeQuestion('unique')]),
      });
      const duplicate = dry.problems.find((p) => p.code === 'duplicate-in-file')!;
      assert.match(duplicate.message, /^\d+ 行目と同じ質問です。\d+ 行目だけをインポートします。$/);
      assert.equal(
        dry.problems.find((p) => p.code === 'exists')!.message,
        'この質問の Q&A は既にあります。インポートすると回答が更新されます。',
      );
    } finally {
      l10n.config({ contents: {} });
    }
  });

  it('summarises errors and duplicates; only importable rows are returned', async () => {
    const dry = await dryRunQaFile(fixture('duplicates.csv'), 'duplicates.csv', {
      existingQuestions: new Set([normalizeQuestion('unique')]),
    });
    assert.deepEqual(dry.summary, { total: 7, valid: 3, errors: 4, warnings: 1, willCreate: 2, willUpdate: 1, duplicates: 3 });
    assert.deepEqual(
      dry.rows.map((r) => r.row),
      [2, 3, 8],
    );
    assert.deepEqual(
      dry.problems.map((p) => [p.row, p.code]),
      [
        [4, 'duplicate-in-file'],
        [5, 'duplicate-in-file'],
        [6, 'duplicate-in-file'],
        [7, 'missing-answer'],
        [8, 'exists'],
      ],
    );
  });

  it('a file-level error leaves nothing to import', async () => {
    const dry = await dryRunQaFile(fixture('no-header.csv'), 'no-header.csv', { existingQuestions: new Set() });
    assert.deepEqual(dry.summary, { total: 0, valid: 0, errors: 1, warnings: 0, willCreate: 0, willUpdate: 0, duplicates: 0 });
  });
});

describe('normalizeQuestion', () => {
  it('applies NFKC, trims, collapses white space and lower-cases', () => {
    assert.equal(normalizeQuestion('  How   do I\tReset?  '), 'how do i reset?');
    assert.equal(normalizeQuestion('ＨＯＷ　ＤＯ　Ｉ？'), 'how do i?');
    assert.equal(normalizeQuestion('ﾊﾟｽﾜｰﾄﾞ'), 'パスワード');
    assert.equal(normalizeQuestion('Plain ASCII'), 'plain ascii');
  });
});
