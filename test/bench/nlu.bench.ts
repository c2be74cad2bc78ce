// Entity recognition: latency of infer on 2,000-character texts (English and Japanese mixed, about one
// entity per 45 characters, as in notes or mail) through the client against the local service in its own process, next to
// the same recognizer called in-process (the baseline: what HTTP, JSON and the client add). Measured
// again after 1,000 phrases were taught, to show the taught dictionary does not slow recognition.
import { Agent } from 'undici';
import { ApiClient } from '../../src/api/client';
import { Gazetteer } from '../../src/local/nlu/gazetteer';
import { Recognizer } from '../../src/local/nlu/recognizer';
import { startLocalProcess } from './localProcess';
import { percentile, sized, table, timeEach } from './support';

const RUNS = Number(process.env.KD_BENCH_NLU_RUNS ?? 500);
const WARM_UP = sized('KD_BENCH_WARM_UP', 200, 10);
const TAUGHT = sized('KD_BENCH_TAUGHT', 1000, 50);

const PEOPLE = ['Dr. Jane Smith', 'Mr. Ken Tanaka', 'Ms. Laura Chen', '田中さん', '佐藤様', '鈴木先生'];
const ORGS = ['Acme Widgets, Inc.', 'Globex Corp.', 'Initech LLC', '株式会社ナレッジ', 'トヨタ自動車株式会社', 'Google'];
const PLACES = ['Tokyo', 'London', 'New York', '大阪府', '北海道', 'シンガポール'];
const DATES = ['November 21, 2026', '2026-11-21', 'next Friday', '2026年11月21日', '来週', '12月3日(木)'];
const MONEY = ['$1,200', '¥12,000', 'USD 30', '1.5万円', '12,000円', '€5'];
const CONTACT = ['ops@example.com', '+81 3-1234-5678', 'https://example.com/docs', '03-1234-5678', 'tanaka@example.jp', '(415) 555-0123'];

const FILLER_EN = [
  'The review covered the onboarding checklist, the new expense policy and the handbook chapters that still need an owner. ',
  'Everyone agreed to keep the notes short and to link the decisions from the project page instead of repeating them. ',
  'Nobody objected to moving the retrospective, although a few people asked for the slides to be shared in advance. ',
];
const FILLER_JA = [
  '議題は新しい経費精算の手順と、まだ担当者が決まっていないマニュアルの章についてでした。',
  '決定事項はプロジェクトのページにまとめ、議事録には要点だけを書くことになりました。',
  '振り返りの日程変更には特に反対はなく、資料は事前に共有してほしいという意見が出ました。',
];

// One sentence with six entities, then one without: about one entity per 45 characters, as in notes or mail.
function sentence(i: number): string {
  const p = (list: string[], k: number): string => list[(i * 7 + k) % list.length];
  return i % 2 === 0
    ? `${p(PEOPLE, 1)} of ${p(ORGS, 2)} meets the team in ${p(PLACES, 3)} on ${p(DATES, 4)}; the budget is ${p(MONEY, 5)}, questions to ${p(CONTACT, 6)}. ${p(FILLER_EN, 0)}`
    : `${p(PLACES, 1)}の${p(ORGS, 2)}で${p(PEOPLE, 3)}と${p(DATES, 4)}に打ち合わせ、費用は${p(MONEY, 5)}、連絡先は${p(CONTACT, 6)}です。${p(FILLER_JA, 0)}`;
}

/** `n` different texts of exactly 2,000 characters. */
function texts(n: number): string[] {
  return Array.from({ length: n }, (_, t) => {
    let text = '';
    for (let i = t; text.length < 2000; i++) text += sentence(i);
    return text.slice(0, 2000);
  });
}

async function measure(label: string, inputs: string[], fn: (text: string) => Promise<unknown> | unknown): Promise<Array<string | number>> {
  for (let i = 0; i < WARM_UP; i++) await fn(inputs[i % inputs.length]); // warm-up (JIT)
  (globalThis as { gc?: () => void }).gc?.();
  const times = await timeEach(RUNS, async (i) => fn(inputs[i % inputs.length]));
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return [label, percentile(times, 50), percentile(times, 95), mean];
}

async function main(): Promise<void> {
  const inputs = texts(20);
  const local = new Recognizer();
  const entities = inputs.map((t) => local.recognize(t).entities.length);
  const svc = await startLocalProcess();
  if (!svc.nluApiKey) throw new Error('the local service printed no NLU key');
  const client = new ApiClient({
    baseUrl: svc.url,
    apiKey: svc.apiKey,
    nluApiKey: svc.nluApiKey,
    dispatcher: new Agent({ keepAliveTimeout: 30_000 }),
  });
  try {
    const rows: Array<Array<string | number>> = [];
    rows.push(await measure('in-process Recognizer.recognize (baseline)', inputs, (t) => local.recognize(t)));
    rows.push(await measure('client.nlu.infer → local service (own process)', inputs, (t) => client.nlu.infer(t)));

    const taught = new Gazetteer();
    for (let i = 0; i < TAUGHT; i++) {
      const token = `Product${i.toString(36)}`;
      const text = `We sell ${token} worldwide.`;
      await client.nlu.addPhrase(text, [{ startIndex: 8, endIndex: 8 + token.length, tag: 'PRODUCT', token }], 'train');
      taught.add(token, 'PRODUCT');
    }
    const withTaught = new Recognizer(taught);
    rows.push(await measure(`in-process, ${TAUGHT} taught phrases (baseline)`, inputs, (t) => withTaught.recognize(t)));
    rows.push(await measure(`client.nlu.infer, ${TAUGHT} taught phrases`, inputs, (t) => client.nlu.infer(t)));
    const sample = await client.nlu.infer(inputs[0]);
    if (sample.entities.length !== entities[0])
      throw new Error(`service found ${sample.entities.length} entities, in-process ${entities[0]}`);
    const avg = entities.reduce((a, b) => a + b, 0) / entities.length;
    table(
      `Entity recognition of 2,000-character EN/JA texts (${avg.toFixed(0)} entities each on average), ${RUNS} runs each`,
      ['', 'p50 ms', 'p95 ms', 'mean ms'],
      rows,
    );
  } finally {
    await client.config.dispatcher?.close();
    await svc.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
