// Generative-answer figures (issue: "time to the first streamed line from the local service"): a local
// service in its own process, seeded with samples/knowledge-base, asked ~50 questions (EN and JA, a few with
// no answer in the samples) through the API client. Per question, in rotating order: a plain retrieval call
// (the baseline — the service cannot write the first line before its own retrieval is done), the streamed
// answer (POST /webapi/generative_answer, mode stream, via client.answers.stream: first byte, first complete
// NDJSON line, first event the client yields, whole answer read and validated) and the sync answer.
import { Agent } from 'undici';
import { ApiClient } from '../../src/api/client';
import { SAMPLE_QUESTIONS } from '../fixtures/retrieval/questions';
import { SAMPLES } from '../fixtures/retrieval/seededService';
import { startLocalProcess } from './localProcess';
import { percentile, sized, table, waitForSeededSamples } from './support';

const WARM_UP = sized('KD_BENCH_WARM_UP', 10, 1);
// Reworded and extra questions, so there are ~50; the last ones have no answer in the samples.
const EXTRA = [
  'paid leave for new hires',
  'Can unused vacation days be carried over?',
  'When do I need a medical certificate for sick leave?',
  'remote work days per week',
  'core working hours',
  'home office equipment allowance',
  'client dinner budget per person',
  'expense reimbursement timing',
  'VPN server address',
  'VPN error 809 fix',
  'VPN session timeout',
  'Tokyo office opening hours',
  'guest Wi-Fi password',
  'Who answers payroll questions?',
  'Acrobat license renewal date',
  'What is new in knowledge portal 2.4.0?',
  '経費の申請期限',
  '宿泊費の上限はいくら',
  '残業の上限時間',
  '特別休暇の日数',
  'What is on the cafeteria menu on Friday?',
  'How do I renew my passport?',
];
const QUESTIONS = [...SAMPLE_QUESTIONS.map((q) => q.question), ...EXTRA].slice(0, sized('KD_BENCH_QUESTIONS', Infinity, 4));

interface Stream {
  firstByte: number;
  firstLine: number;
  firstEvent: number;
  complete: number;
  lines: number;
  answered: boolean;
}

async function main(): Promise<void> {
  const svc = await startLocalProcess(['--seed', SAMPLES]);
  const client = new ApiClient({ baseUrl: svc.url, apiKey: svc.apiKey, dispatcher: new Agent({ keepAliveTimeout: 30_000 }) });
  try {
    await waitForSeededSamples(client);
    // What the answer reads (answerService: 6 passages, weights 9/1/0), asked through the retrieval route.
    const retrieve = (q: string) =>
      client.answers.retrieve({
        question: q,
        maxDocumentClues: 6,
        bm25_score_weight: 9,
        text_vector_score_weight: 1,
        title_vector_score_weight: 0,
      });
    const sync = (q: string) => client.answers.generate({ query: q });
    const stream = async (q: string): Promise<Stream> => {
      const t = performance.now();
      const s: Stream = { firstByte: NaN, firstLine: NaN, firstEvent: NaN, complete: NaN, lines: 0, answered: false };
      const decoder = new TextDecoder();
      const onRaw = (chunk: Uint8Array): void => {
        const now = performance.now() - t;
        if (Number.isNaN(s.firstByte)) s.firstByte = now;
        const newlines = decoder.decode(chunk, { stream: true }).split('\n').length - 1;
        if (newlines && Number.isNaN(s.firstLine)) s.firstLine = now;
        s.lines += newlines;
      };
      for await (const chunk of client.answers.stream({ query: q }, { onRaw })) {
        if (Number.isNaN(s.firstEvent)) s.firstEvent = performance.now() - t;
        if (chunk.type === 'done') s.answered = (chunk.result.confidence ?? 0) > 0; // the honest "no answer" has confidence 0
      }
      s.complete = performance.now() - t;
      return s;
    };
    const timed = async (fn: () => Promise<unknown>): Promise<number> => {
      const t = performance.now();
      await fn();
      return performance.now() - t;
    };

    for (const q of QUESTIONS.slice(0, WARM_UP)) {
      await retrieve(q);
      await sync(q);
      await stream(q);
    }
    const retrievals: number[] = [];
    const syncs: number[] = [];
    const streams: Stream[] = [];
    // Rotating order, so drift and "the previous request warmed this up" hit every kind alike.
    for (const [i, q] of QUESTIONS.entries()) {
      const kinds = [
        async () => retrievals.push(await timed(() => retrieve(q))),
        async () => syncs.push(await timed(() => sync(q))),
        async () => streams.push(await stream(q)),
      ];
      for (let k = 0; k < kinds.length; k++) await kinds[(i + k) % kinds.length]();
    }

    const pick = (key: keyof Stream) => streams.map((s) => s[key] as number);
    const row = (name: string, values: number[]) => [
      name,
      percentile(values, 50),
      percentile(values, 95),
      values.reduce((a, b) => a + b, 0) / values.length,
    ];
    const answered = streams.filter((s) => s.answered).length;
    const lines = streams.reduce((a, s) => a + s.lines, 0) / streams.length;
    table(
      `Generative answers from the local service (seeded samples), ${QUESTIONS.length} questions, ${answered} answered, ${lines.toFixed(1)} NDJSON lines per streamed answer (ms)`,
      ['', 'p50', 'p95', 'mean'],
      [
        row('retrieval, same question, 6 clues 9/1/0 (baseline: the first line comes after this)', retrievals),
        row('stream: first byte', pick('firstByte')),
        row('stream: first NDJSON line', pick('firstLine')),
        row('stream: first event yielded by client.answers.stream', pick('firstEvent')),
        row('stream: complete answer (read and validated)', pick('complete')),
        row('sync generative answer', syncs),
      ],
    );
  } finally {
    await client.config.dispatcher?.close();
    await svc.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
