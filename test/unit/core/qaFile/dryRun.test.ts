import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as l10n from '@vscode/l10n';
import { dryRunQaFile, normalizeQuestion, rowsToSend, type ExistingLookup } from '../../../../src/core/qaFile/dryRun';
import type { ExistingQa } from '../../../../src/core/qaFile/importPlan';
import { fixture } from './helpers';

describe('dryRunQaFile', () => {
  const office: ExistingQa = {
    id: 'faq-office',
    question: 'Where is the office?',
    answer: 'Osaka',
    similarQuestions: ['Office address'],
    hashtags: ['office'],
    status: 'off',
    folder: 'HQ',
  };
  const password: ExistingQa = {
    id: 'faq-password',
    question: 'How do I reset my password?',
    answer: 'Open Settings, then choose "Reset password".',
    similarQuestions: ['Forgot password', 'Password reset'],
    hashtags: ['account', 'security'],
    status: 'on',
    folder: 'Account',
  };
  const lookupOf = (...qas: ExistingQa[]): ExistingLookup => {
    const map = new Map(qas.map((q) => [normalizeQuestion(q.question), q]));
    return async (keys) => new Map(keys.filter((k) => map.has(k)).map((k) => [k, map.get(k)!]));
  };

  it('compares existing Q&As field by field: an unchanged one is not counted as an update; removals are warnings of their own', async () => {
    const existing = new Set([
      normalizeQuestion('HOW DO I RESET MY PASSWORD?'),
      normalizeQuestion('Where is the office?'),
      'not in the file',
    ]);
    const dry = await dryRunQaFile(fixture('good-en.csv'), 'good-en.csv', {
      existingQuestions: existing,
      lookup: lookupOf(office, password),
    });
    assert.deepEqual(
      dry.problems.map((p) => [p.row, p.severity, p.code, p.question]),
      [[7, 'warning', 'removes', 'Where is the office?']],
    );
    assert.equal(
      dry.problems[0].message,
      'Removes from the existing Q&A (asked before importing): similar questions 1 → 0; hashtags #office → (none); folder "HQ" → (none). Also updates: answer changed.',
    );
    assert.deepEqual(dry.summary, {
      total: 4,
      valid: 4,
      errors: 0,
      warnings: 1,
      willCreate: 2,
      willUpdate: 1,
      duplicates: 0,
      unchanged: 1,
      removals: 1,
    });
    assert.equal(dry.rows.length, 4);
    assert.equal(rowsToSend(dry.summary), 3, 'the import sends the 2 new and the 1 changed, not the unchanged one');
    assert.equal(dry.encoding, 'utf-8');
    assert.deepEqual(dry.headers.slice(0, 2), ['question', 'answer']);
    assert.deepEqual(dry.mapping.question, 0);
  });

  it('describes problems and changes in the display language once VS Code hands over its bundle (Japanese)', async () => {
    // What src/platform/l10n.ts does at activation when the display language is Japanese.
    l10n.config({ contents: JSON.parse(readFileSync('l10n/bundle.l10n.ja.json', 'utf8')) });
    try {
      const dup = await dryRunQaFile(fixture('duplicates.csv'), 'duplicates.csv', { existingQuestions: new Set() });
      const duplicate = dup.problems.find((p) => p.code === 'duplicate-in-file')!;
      assert.match(duplicate.message, /^\d+ 行目と同じ質問です。\d+ 行目だけをインポートします。$/);
      const dry = await dryRunQaFile(fixture('good-en.csv'), 'good-en.csv', {
        existingQuestions: new Set([normalizeQuestion('Where is the office?')]),
        lookup: lookupOf(office),
      });
      assert.equal(
        dry.problems.find((p) => p.code === 'removes')!.message,
        '既存の Q&A から削除されます (インポート前に確認します): 類似質問 1 → 0; ハッシュタグ #office → (なし); フォルダー "HQ" → (なし)。ほかの更新: 回答を変更。',
      );
    } finally {
      l10n.config({ contents: {} });
    }
  });

  it('summarises errors and duplicates; only importable rows are returned', async () => {
    const dry = await dryRunQaFile(fixture('duplicates.csv'), 'duplicates.csv', {
      existingQuestions: new Set([normalizeQuestion('unique')]),
    });
    assert.deepEqual(dry.summary, { total: 7, valid: 3, errors: 4, warnings: 0, willCreate: 2, willUpdate: 1, duplicates: 3 });
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
