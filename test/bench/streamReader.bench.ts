// Stream reader throughput (issue 5): the tolerant reader on a recorded 2,000-chunk answer, next to
// the least code that reads well-formed NDJSON (split on newlines, JSON.parse each line), same run.
import { readAnswerStream } from '../../src/api/stream/answerStream';
import { sized, SMOKE, table } from './support';

const CHUNKS = sized('KD_BENCH_STREAM_CHUNKS', 2000, 100);
const NETWORK_CHUNK = 16 * 1024;

function recorded(style: 'cumulative' | 'delta'): Buffer {
  const words = [
    'The',
    'expense',
    'report',
    'is',
    'due',
    'within',
    '14',
    'days',
    'of',
    'return',
    '経費は',
    '帰着後',
    '14日以内に',
    '申請します',
    'VPN',
    'access',
  ];
  let answer = '';
  const lines: string[] = [];
  for (let i = 0; i < CHUNKS; i++) {
    const delta = `${words[i % words.length]}${i % 12 === 11 ? '.\n\n' : ' '}`;
    answer += delta;
    const last = i === CHUNKS - 1;
    const object: Record<string, unknown> = { answer: style === 'cumulative' ? answer : delta, model: 'local-extractive' };
    if (last)
      Object.assign(object, {
        citations: [
          {
            index: 1,
            clueId: 'c1',
            source: 'document',
            title: 'handbook.pdf',
            pageNo: 2,
            knowledgeBaseId: 'kb1',
            text: 'Expense reports…',
          },
        ],
        threadId: 'b6c0f2a4-9c4e-4f3a-9d43-1f2f6a0d2b11',
      });
    lines.push(JSON.stringify(object));
  }
  return Buffer.from(lines.join('\n') + '\n', 'utf8');
}

async function* network(bytes: Buffer): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += NETWORK_CHUNK) yield bytes.subarray(at, at + NETWORK_CHUNK);
}

async function tolerant(bytes: Buffer): Promise<number> {
  let length = 0;
  for await (const event of readAnswerStream(network(bytes))) length = event.answer.length;
  return length;
}

/** Baseline: well-formed NDJSON only, no cut-object, SSE, Draft.js or cumulative/delta handling beyond the minimum. */
async function naive(bytes: Buffer, style: 'cumulative' | 'delta'): Promise<number> {
  const decoder = new TextDecoder();
  let rest = '';
  let answer = '';
  for await (const chunk of network(bytes)) {
    rest += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (!line) continue;
      const a = (JSON.parse(line) as { answer: string }).answer;
      answer = style === 'cumulative' ? a : answer + a;
    }
  }
  return answer.length;
}

/**
 * Median ms per read of each side, over `rounds` rounds that alternate the two (drift, GC and a busy machine hit
 * both alike); a round reads `reps` times, so a small answer is timed over more than a few JIT-cold milliseconds.
 */
async function timePair(
  base: () => Promise<number>,
  ours: () => Promise<number>,
  reps: number,
  rounds = SMOKE ? 1 : 15,
): Promise<{ base: number; ours: number; lengths: [number, number] }> {
  const times: [number[], number[]] = [[], []];
  const lengths: [number, number] = [0, 0];
  for (let round = 0; round < rounds; round++) {
    for (const [side, fn] of [base, ours].entries()) {
      const t = performance.now();
      for (let r = 0; r < reps; r++) lengths[side] = await fn();
      times[side].push((performance.now() - t) / reps);
    }
  }
  const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  return { base: median(times[0]), ours: median(times[1]), lengths };
}

async function main(): Promise<void> {
  const rows: Array<Array<string | number>> = [];
  for (const style of ['cumulative', 'delta'] as const) {
    const bytes = recorded(style);
    const mb = bytes.length / 1024 / 1024;
    const t = await timePair(
      () => naive(bytes, style),
      () => tolerant(bytes),
      style === 'delta' && !SMOKE ? 40 : 1,
    );
    if (t.lengths[0] !== t.lengths[1]) throw new Error(`answers differ: ${t.lengths[0]} vs ${t.lengths[1]}`);
    rows.push([`${style}: minimal NDJSON reader (baseline)`, mb, t.base, mb / (t.base / 1000), 1]);
    rows.push([`${style}: tolerant reader (readAnswerStream)`, mb, t.ours, mb / (t.ours / 1000), t.base / t.ours]);
  }
  table(
    `Reading a recorded ${CHUNKS}-chunk answer in ${NETWORK_CHUNK / 1024} KB network chunks (median of 15 alternating rounds, ms per read)`,
    ['', 'MB', 'ms', 'MB/s', '× baseline (target: ≥ 0.5)'],
    rows,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
