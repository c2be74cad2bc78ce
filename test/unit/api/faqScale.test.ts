// Q&A search at scale: N Q&As (KD_FAQ_SCALE, default 20,000; the figures reported in the docs use 100,000)
// registered one by one through the store, then searched through the real client over loopback.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiClient } from '../../../src/api/client';
import { FaqService } from '../../../src/local/faq/faqService';
import { startLocalService, type LocalService } from '../../../src/local/service';
import { Journal } from '../../../src/local/store/journal';

const N = Number(process.env.KD_FAQ_SCALE ?? 20_000);

/** A deterministic corpus with the overlap of real FAQs: shared templates, many distinct nouns. */
function corpus(seed = 42) {
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)];
  const jaHeads = [
    '経費',
    '精算',
    '休暇',
    '申請',
    '会議室',
    '予約',
    'パスワード',
    '再設定',
    'プリンター',
    '接続',
    '給与',
    '明細',
    '出張',
    '旅費',
    '保険',
    '契約',
    '請求書',
    '見積',
    '在庫',
    '発注',
  ];
  const jaTails = ['システム', '手続き', '方法', '期限', '担当', '窓口', '規程', '書類', '画面', '設定'];
  const jaNouns = Array.from(
    { length: 3000 },
    (_, i) =>
      jaHeads[i % 20] +
      jaTails[Math.floor(i / 20) % 10] +
      (i >= 200 ? String.fromCharCode(0x4e00 + ((i * 7) % 20000), 0x4e00 + ((i * 13) % 20000)) : ''),
  );
  const enHeads = ['vpn', 'expense', 'leave', 'password', 'printer', 'salary', 'travel', 'invoice', 'contract', 'laptop'];
  const enMods = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'theta', 'zeta', 'lambda'];
  const enWords = Array.from(
    { length: 3000 },
    (_, i) => enHeads[i % 10] + (i >= 10 ? enMods[Math.floor(i / 10) % 10] + (i >= 100 ? i : '') : ''),
  );
  const ja = () =>
    `${pick(jaNouns)}の${pick(jaNouns)}について${pick(['教えてください', 'どうすればいいですか', 'はどこで確認できますか', 'の期限はいつですか'])}`;
  const en = () =>
    `How do I ${pick(['set up', 'reset', 'request', 'cancel', 'update'])} the ${pick(enWords)} ${pick(enWords)} for ${pick(enWords)}?`;
  return { ja, en, pick, rnd };
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

describe(`Q&A search with ${N.toLocaleString('en-US')} Q&As (local service)`, function () {
  this.timeout(Math.max(60_000, N * 2));
  let dir: string;
  let service: LocalService | undefined;
  const questions: string[] = [];
  const gen = corpus();

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kd-faq-scale-'));
  });
  after(async () => {
    await service?.close();
    await rm(dir, { recursive: true, force: true });
  });

  // Times are printed, not asserted (a busy machine must not fail the suite); the targets live in `npm run bench`.
  it('registers the Q&As one by one through the store, the search index included', async () => {
    const journal = await Journal.open({ dir: path.join(dir, 'db'), fsync: false });
    const faq = new FaqService(journal);
    const started = performance.now();
    for (let i = 0; i < N; i++) {
      const question = `${i % 2 ? gen.ja() : gen.en()} (${i})`;
      questions.push(question);
      const similarQuestions = i % 3 === 0 ? [i % 2 ? gen.ja() : gen.en()] : [];
      await faq.register(
        {
          question,
          answer: `Answer ${i}: follow the steps in the portal.`,
          status: i % 10 === 9 ? 'off' : 'on',
          similarQuestions,
          hashtags: [`team${i % 20}`],
        },
        {},
      );
    }
    const ms = performance.now() - started;
    await journal.close();
    console.log(`      registered ${N} in ${(ms / 1000).toFixed(1)} s (${((ms * 1000) / N).toFixed(0)} µs each, search index included)`);
    assert.equal(faq.faqs.size, N);
  });

  it('searches through the client after a restart (the index is rebuilt), printing p50 and p95', async () => {
    service = await startLocalService({ dataDir: dir });
    const client = new ApiClient({ baseUrl: service.url, apiKey: service.apiKey });
    const first = performance.now();
    const exact = await client.faq.search({ query: questions[0], maxResults: 10 });
    const firstMs = performance.now() - first;
    assert.equal(exact.result[0].question, questions[0]);
    assert.equal(exact.result[0].confidence, 1);

    const queries = Array.from({ length: 300 }, (_, i) =>
      i % 3 === 0 ? questions[Math.floor(gen.rnd() * N)].replace(/ \(\d+\)$/, '') : i % 3 === 1 ? gen.ja() : gen.en(),
    );
    const times: number[] = [];
    let found = 0;
    for (const [i, query] of queries.entries()) {
      const started = performance.now();
      const res = await client.faq.search({ query, maxResults: 10, hashtags: i % 5 === 0 ? ['team3', 'team4'] : undefined });
      times.push(performance.now() - started);
      if (res.count) found++;
    }
    times.sort((a, b) => a - b);
    const [p50, p95] = [percentile(times, 0.5), percentile(times, 0.95)];
    console.log(
      `      first search after start ${firstMs.toFixed(0)} ms; ${queries.length} searches: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms`,
    );
    assert.ok(found > queries.length / 2, `${found} searches found something`);
  });
});
