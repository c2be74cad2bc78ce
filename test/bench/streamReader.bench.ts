// Stream reader throughput (issue 5): the tolerant reader on a recorded 2,000-chunk answer, next to
// the least code that reads well-formed NDJSON (split on newlines, JSON.parse each line), same run.
import { readAnswerStream } from '../../src/api/stream/answerStream';
import { sized, table } from './support';

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

async function time(fn: () => Promise<number>, rounds = 7): Promise<{ ms: number; length: number }> {
  const times: number[] = [];
  let length = 0;
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    length = await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(rounds / 2)], length };
}

async function main(): Promise<void> {
  const rows: Array<Array<string | number>> = [];
  for (const style of ['cumulative', 'delta'] as const) {
    const bytes = recorded(style);
    const mb = bytes.length / 1024 / 1024;
    const base = await time(() => naive(bytes, style));
    const ours = await time(() => tolerant(bytes));
    if (base.length !== ours.length) throw new Error(`answers differ: ${base.length} vs ${ours.length}`);
    rows.push([`${style}: minimal NDJSON reader (baseline)`, mb, base.ms, mb / (base.ms / 1000)]);
    rows.push([`${style}: tolerant reader (readAnswerStream)`, mb, ours.ms, mb / (ours.ms / 1000)]);
  }
  table(
    `Reading a recorded ${CHUNKS}-chunk answer in ${NETWORK_CHUNK / 1024} KB network chunks (median of 7)`,
    ['', 'MB', 'ms', 'MB/s'],
    rows,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
