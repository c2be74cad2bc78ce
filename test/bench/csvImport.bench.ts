// Q&A CSV import figures: a 50,000-row CSV (English and Japanese, multi-line cells, no BOM so the
// UTF-8 check runs) read by the dry run vs a raw csv-parse of the same file in the same run.
// Goal: dry run ≤ 1.5× the raw parse. Figures, not assertions.
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse';
import { dryRunQaFile, normalizeQuestion } from '../../src/core/qaFile/dryRun';
import { escapeCsvCell } from '../../src/core/qaFile/exportCsv';
import { readQaFile } from '../../src/core/qaFile/readQaFile';
import { percentile, table } from './support';

const ROWS = Number(process.env.KD_BENCH_QA_ROWS ?? 50_000);
const ROUNDS = Number(process.env.KD_BENCH_ROUNDS ?? 7);

/** Deterministic pseudo-random numbers (mulberry32) so every run reads the same file. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EN =
  'account password invoice billing office hours mobile app support email reset login security delivery refund order shipping plan contract'.split(
    ' ',
  );
const JA = [
  'パスワード',
  '請求書',
  '営業時間',
  'アカウント',
  'ログイン',
  '返金',
  '配送',
  '契約',
  '支払い',
  '設定画面',
  'お問い合わせ',
  '解約',
];

function sentence(rnd: () => number, words: number, japanese: boolean): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(japanese ? JA[Math.floor(rnd() * JA.length)] : EN[Math.floor(rnd() * EN.length)]);
  return japanese ? out.join('の') + '。' : out.join(' ') + '.';
}

function questions(): { text: string; questions: string[] } {
  const rnd = random(42);
  const lines = ['question,answer,similar_questions,hashtags,status,folder,memo'];
  const qs: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const ja = i % 3 === 0;
    const q = `${ja ? '質問' : 'Question'} ${i}: ${sentence(rnd, 4 + Math.floor(rnd() * 6), ja)}`;
    qs.push(q);
    const paragraphs = 1 + Math.floor(rnd() * 3); // some answers span several lines
    const answer = Array.from({ length: paragraphs }, () => sentence(rnd, 10 + Math.floor(rnd() * 35), ja)).join('\n');
    const similar = Array.from({ length: Math.floor(rnd() * 4) }, () => sentence(rnd, 3 + Math.floor(rnd() * 4), !ja)).join(
      i % 2 ? '\n' : '|',
    );
    const tags = Array.from({ length: Math.floor(rnd() * 4) }, () => `#${EN[Math.floor(rnd() * EN.length)]}`).join(', ');
    const status = rnd() < 0.1 ? 'off' : 'on';
    const folder = rnd() < 0.3 ? (ja ? '経理/請求' : 'Billing, Invoices') : '';
    const memo = rnd() < 0.1 ? `Reviewed "${i}"` : '';
    lines.push([q, answer, similar, tags, status, folder, memo].map(escapeCsvCell).join(','));
  }
  // CRLF line ends, as Excel writes them; LF inside cells.
  return { text: lines.join('\r\n') + '\r\n', questions: qs };
}

/** Baseline: csv-parse streaming the file into arrays, the way its documentation shows it. */
async function rawParse(file: string): Promise<number> {
  const records: string[][] = [];
  for await (const record of createReadStream(file).pipe(parse())) records.push(record as string[]);
  return records.length - 1;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kd-csv-bench-'));
  try {
    const { text, questions: qs } = questions();
    const file = path.join(dir, 'qa.csv');
    await writeFile(file, text, 'utf8');
    const mb = (await stat(file)).size / 1024 / 1024;
    const existing = new Set<string>();
    for (let i = 0; i < 5_000; i++) existing.add(normalizeQuestion(qs[i * Math.floor(ROWS / 5_000)]));
    for (let i = 0; existing.size < 10_000; i++) existing.add(normalizeQuestion(`not in the file ${i}`));

    const cases: Array<[string, () => Promise<number>]> = [
      ['csv-parse into arrays (baseline)', () => rawParse(file)],
      ['readQaFile', async () => (await readQaFile(file, 'qa.csv')).rows.length],
      ['dryRunQaFile (10,000 existing)', async () => (await dryRunQaFile(file, 'qa.csv', { existingQuestions: existing })).summary.valid],
    ];
    // Rounds interleave the cases so a busy machine slows them alike; CPU time is shown too.
    const wall = cases.map(() => [] as number[]);
    const cpu = cases.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS + 1; round++) {
      for (const [k, [name, run]] of cases.entries()) {
        (globalThis as { gc?: () => void }).gc?.();
        const c = process.cpuUsage();
        const t = performance.now();
        const n = await run();
        const ms = performance.now() - t;
        const used = process.cpuUsage(c);
        if (n !== ROWS) throw new Error(`${name}: ${n} rows, expected ${ROWS}`);
        if (round === 0) continue; // warm-up
        wall[k].push(ms);
        cpu[k].push((used.user + used.system) / 1000);
      }
    }
    // "× baseline" is the median of each round's ratio to the baseline run just before it.
    const ratio = (series: number[][], k: number): number =>
      percentile(
        series[k].map((v, i) => v / series[0][i]),
        50,
      );
    table(
      `Q&A CSV import: ${ROWS.toLocaleString('en-US')} rows, ${mb.toFixed(1)} MB, median of ${ROUNDS} rounds (goal: dry run ≤ 1.5× baseline)`,
      ['case', 'median ms', 'min ms', 'rows/s', 'MB/s', '× baseline', 'CPU ms', 'CPU × baseline'],
      cases.map(([name], k) => {
        const med = percentile(wall[k], 50);
        return [
          name,
          med,
          Math.min(...wall[k]),
          Math.round(ROWS / (med / 1000)),
          mb / (med / 1000),
          ratio(wall, k),
          percentile(cpu[k], 50),
          ratio(cpu, k),
        ];
      }),
    );
    const dry = ratio(wall, 2);
    console.log(`\n  dry run / baseline = ${dry.toFixed(2)}× — ${dry <= 1.5 ? 'within' : 'OVER'} the 1.5× goal`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
