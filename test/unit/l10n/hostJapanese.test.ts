// The host texts of the knowledge base and jobs in Japanese: @vscode/l10n given the Japanese bundle (as
// src/platform/l10n.ts does at activation when VS Code's display language is Japanese) and intlFormat the
// language; English, as the other unit tests see it, when neither is set.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as l10n from '@vscode/l10n';
import { nodeNameProblem } from '../../../src/features/knowledgeBase/nodeNameMessages';
import { formatDate, printableEntries, rareJobDescription, statusBarText } from '../../../src/features/jobs/jobModel';
import { BUILD_NUMBER_PARAMS, validateNumber } from '../../../src/features/jobs/jobParams';
import { setFormatLanguage, shortDateTimeText, sizeText } from '../../../src/platform/intlFormat';
import { rareStatusSchema } from '../../../src/api/schemas/jobs';

const ja = JSON.parse(readFileSync('l10n/bundle.l10n.ja.json', 'utf8')) as Record<string, string>;
const running = rareStatusSchema.parse({
  build_status: 'running',
  build_progress: { percent: 42 },
  job_type: 'build',
  job_status: 'running',
});

describe('Host texts in Japanese (knowledge base, jobs)', () => {
  afterEach(() => {
    l10n.config({ contents: {} });
    setFormatLanguage('en');
  });

  it('English without a bundle: the texts the other tests assert', () => {
    assert.equal(nodeNameProblem(''), 'A folder name cannot be empty.');
    assert.equal(rareJobDescription(running, 'build'), 'running 42%');
    assert.equal(statusBarText(running, []), '$(sync~spin) Knowledge Desk: build 42%');
    assert.match(formatDate('2025-03-01T14:05:00Z'), /^2025-03-0[12] \d\d:05$/);
  });

  it('with the Japanese bundle: node-name checks, job rows, the status bar and number prompts read Japanese', () => {
    l10n.config({ contents: ja });
    setFormatLanguage('ja');
    assert.equal(nodeNameProblem('a/b', 'document'), 'ドキュメント名に "/" や "\\" は使用できません。');
    assert.equal(nodeNameProblem('あ'.repeat(86)), 'フォルダー名は UTF-8 で 258 バイトです。上限は 255 バイトです。');
    assert.equal(rareJobDescription(running, 'build'), '実行中 42%');
    assert.equal(rareJobDescription(undefined, 'generate'), '不明');
    assert.equal(statusBarText(running, []), '$(sync~spin) Knowledge Desk: ビルド 42%');
    const workers = BUILD_NUMBER_PARAMS.find((p) => p.key === 'max_workers')!;
    assert.equal(workers.label, '最大ワーカー数');
    assert.equal(validateNumber(workers, '99'), '最大ワーカー数は 1～16 の範囲で指定してください。');
    assert.equal(formatDate(null), '(日付なし)');
    assert.match(formatDate('2025-03-01T14:05:00Z'), /^2025\/03\/0[12] \d\d:05$/);
  });

  it("the Jobs view's stats, steps and tooltip names read Japanese (they were English: 1,658 chunks · 9 documents)", () => {
    // What the local service reports (src/local/jobs/rareJobs.ts) once a build and a generation finished, and mid-build.
    const done = rareStatusSchema.parse({
      build_status: 'completed',
      job_type: 'generate',
      job_status: 'completed',
      build_stats: { chunks: 1658, documents: 9, pairs: 120, duration_ms: 5230 },
      generate_stats: { samples: 10, questions: 28, duration_ms: 1200, generator: 'local' },
    });
    const building = rareStatusSchema.parse({
      build_status: 'running',
      job_type: 'build',
      job_status: 'running',
      build_progress: { done: 0, total: 0, percent: 0, step: 'collecting chunks' },
    });
    const english = [rareJobDescription(done, 'build'), rareJobDescription(done, 'generate'), rareJobDescription(building, 'build')];
    assert.deepEqual(english, [
      'completed · 1,658 chunks · 9 documents',
      'completed · 10 samples · 28 questions',
      'running 0% · 0/0 · collecting chunks',
    ]);
    assert.deepEqual(printableEntries({ duration_ms: 5230, generator: 'local', custom_field: 1 }), [
      ['duration (ms)', '5,230'],
      ['generator', 'local'],
      ['custom field', '1'],
    ]);
    l10n.config({ contents: ja });
    setFormatLanguage('ja');
    assert.equal(rareJobDescription(done, 'build'), '完了 · 1,658 件のチャンク · 9 件のドキュメント');
    assert.equal(rareJobDescription(done, 'generate'), '完了 · 10 件のサンプル · 28 件の質問');
    assert.equal(rareJobDescription(building, 'build'), '実行中 0% · 0/0 · チャンクを収集中');
    assert.deepEqual(printableEntries({ duration_ms: 5230, generator: 'local', custom_field: 1 }), [
      ['所要時間 (ミリ秒)', '5,230'],
      ['生成器', 'local'],
      ['custom field', '1'],
    ]);
  });

  it('sizes and job dates: English as before, other languages through Intl', () => {
    assert.deepEqual(
      [0, 512, 1536, 10 * 1024, 1023 * 1024, 5 * 1024 * 1024 + 1, 3 * 1024 ** 3].map((b) => sizeText(b, 'en')),
      ['0 B', '512 B', '1.5 KB', '10 KB', '1023 KB', '5.0 MB', '3.00 GB'],
    );
    assert.equal(sizeText(1536, 'ja'), '1.5 KB');
    assert.equal(sizeText(1536, 'de'), '1,5 KB');
    assert.equal(sizeText(1023 * 1024, 'de'), '1023 KB', 'no digit grouping');
    const d = new Date(2025, 2, 1, 14, 5);
    assert.equal(shortDateTimeText(d, 'en'), '2025-03-01 14:05');
    assert.equal(shortDateTimeText(d, 'ja'), '2025/03/01 14:05');
  });
});
