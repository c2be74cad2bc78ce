// Job figures (RARE and bulk processing), against a local service in its own process:
// (1) RARE build and generate on the seeded sample documents and on 1,000 synthetic pages (100 text files of
//     10 pages), timed by the service (build_stats / generate_stats duration_ms) and by the client (request
//     to "completed", status polled every 5 ms); baselines measured here on the same chunks: cutting pages into
//     passages and vectorising them (lexical-hash-v1), tokenising them, and all-pairs similarity done the
//     textbook way (dense 512-d dot products) and with the retrieval scorer (sparse × dense), best 5 kept. Also the latency of a status call while the 1,000-page build runs vs idle (the
//     build yields between turns, so the service should keep answering).
// (2) Bulk processing of 100 questions (ga and rag) in rows per second vs the same questions sent one by one
//     from the client to the generative-answer and retrieval endpoints.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';
import { ApiClient } from '../../src/api/client';
import type { RareStatus } from '../../src/api/schemas/jobs';
import { pagePassages } from '../../src/local/search/passages';
import { cosine, lexicalVector, sparse } from '../../src/local/search/lexicalHash';
import { sentenceSpans } from '../../src/local/search/sentences';
import { tokenSet } from '../../src/local/search/tokenizer';
import { SAMPLE_QUESTIONS } from '../fixtures/retrieval/questions';
import { allNodes, SAMPLES } from '../fixtures/retrieval/seededService';
import { startLocalProcess, type LocalProcess } from './localProcess';
import { percentile, rng, sized, table, timeEach } from './support';

const DOCS = Number(process.env.KD_BENCH_JOB_DOCS ?? 100);
const PAGES_PER_DOC = 10;
const RARE_SAMPLES = sized('KD_BENCH_RARE_SAMPLES', 100, 10);
const BULK_ROWS = sized('KD_BENCH_BULK_ROWS', 100, 5);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- synthetic pages: English sentences over a Zipf-distributed vocabulary (seeded) ----------------------
const BASE =
  'employees policy request approval report office travel expense manager team project system account access password laptop meeting room schedule training budget invoice customer contract service support network printer badge parking holiday leave salary payment deadline review security update software license device form portal email building floor visitor delivery warehouse shipment vendor supplier quality audit safety insurance benefit pension receipt refund transfer department branch region quarter'.split(
    ' ',
  );
const SYL = ['ka', 'ri', 'to', 'mel', 'san', 'dor', 'vi', 'lux', 'pe', 'quon', 'ta', 'bri', 'sol', 'nex', 'ar', 'fi', 'mo', 'zen'];
const VOCAB = [
  ...BASE,
  ...Array.from({ length: 2000 }, (_, i) => SYL[i % 18] + SYL[Math.floor(i / 18) % 18] + (i >= 324 ? SYL[Math.floor(i / 324) % 18] : '')),
];
const GLUE = ['the', 'of', 'and', 'to', 'in', 'for', 'is', 'with', 'by', 'must', 'on'];

function sentence(r: () => number): string {
  const n = 8 + Math.floor(r() * 12);
  const words = Array.from({ length: n }, (_, i) =>
    i % 3 === 1 ? GLUE[Math.floor(r() * GLUE.length)] : VOCAB[Math.min(VOCAB.length - 1, Math.floor(VOCAB.length * r() ** 2.2))],
  );
  return words[0][0].toUpperCase() + words.join(' ').slice(1) + '.';
}

function syntheticPages(): string[][] {
  const r = rng(7);
  return Array.from({ length: DOCS }, () =>
    Array.from({ length: PAGES_PER_DOC }, () => {
      const paragraphs: string[] = [];
      for (let p = 0; p < 4; p++) paragraphs.push(Array.from({ length: 3 + Math.floor(r() * 3) }, () => sentence(r)).join(' '));
      return paragraphs.join('\n\n');
    }),
  );
}

// ---- baselines on the same chunks ---------------------------------------------------------------------
function chunksOf(pages: string[]): string[] {
  return pages.flatMap((text, i) => pagePassages({ pageNo: i + 1, text }).map((p) => p.text));
}

function vectorise(chunks: string[]): { ms: number; vectors: Float32Array[] } {
  const t = performance.now();
  const vectors = chunks.map((c) => lexicalVector(c));
  return { ms: performance.now() - t, vectors };
}

/** The best 5 of one row of scores (what each chunk keeps before the threshold). */
function top5(scores: Float64Array, i: number): number {
  const top: number[] = [];
  for (let j = 0; j < scores.length; j++) {
    if (j === i) continue;
    const s = scores[j];
    if (top.length === 5 && s <= top[4]) continue;
    let at = top.length;
    while (at > 0 && top[at - 1] < s) at--;
    top.splice(at, 0, s);
    if (top.length > 5) top.pop();
  }
  return top.length;
}

/** Textbook all-pairs cosine over dense vectors, keeping the best 5 per chunk. */
function bruteForceDense(vectors: Float32Array[]): number {
  const t = performance.now();
  const scores = new Float64Array(vectors.length);
  let kept = 0;
  for (let i = 0; i < vectors.length; i++) {
    const a = vectors[i];
    for (let j = 0; j < vectors.length; j++) {
      const b = vectors[j];
      let s = 0;
      for (let d = 0; d < a.length; d++) s += a[d] * b[d];
      scores[j] = s;
    }
    kept += top5(scores, i);
  }
  if (kept < 0) console.log(kept);
  return performance.now() - t;
}

/** All pairs with the retrieval scorer: the chunk's sparse vector against every dense vector (lexicalHash.cosine). */
function bruteForceSparse(vectors: Float32Array[]): number {
  const t = performance.now();
  const scores = new Float64Array(vectors.length);
  let kept = 0;
  for (let i = 0; i < vectors.length; i++) {
    const q = sparse(vectors[i]);
    for (let j = 0; j < vectors.length; j++) scores[j] = cosine(q, vectors[j]);
    kept += top5(scores, i);
  }
  if (kept < 0) console.log(kept);
  return performance.now() - t;
}

function readTokenise(chunks: string[]): number {
  const t = performance.now();
  let n = 0;
  for (const c of chunks) n += tokenSet(c).length + sentenceSpans(c).length;
  if (n < 0) console.log(n);
  return performance.now() - t;
}

// ---- the service side ---------------------------------------------------------------------------------
function clientFor(svc: LocalProcess): ApiClient {
  return new ApiClient({ baseUrl: svc.url, apiKey: svc.apiKey, dispatcher: new Agent({ keepAliveTimeout: 30_000 }), timeoutMs: 600_000 });
}

async function waitProcessed(client: ApiClient, files: number): Promise<void> {
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    const nodes = (await allNodes(client)).filter((n) => n.nodeType === 'file');
    if (
      nodes.length >= files &&
      nodes.every((n) => ['completed', 'parsing_fail'].includes((n as { processState?: string }).processState ?? ''))
    )
      return;
    if (Date.now() > deadline) throw new Error('documents not processed after 15 minutes');
    await sleep(300);
  }
}

/** Runs a job to completion; returns the client-side wall time, the final status and status-call latencies seen meanwhile. */
async function timeJob(
  client: ApiClient,
  start: () => Promise<unknown>,
): Promise<{ wall: number; status: RareStatus; latencies: number[] }> {
  const latencies: number[] = [];
  const t = performance.now();
  await start();
  for (;;) {
    const t0 = performance.now();
    const status = await client.rare.status();
    latencies.push(performance.now() - t0);
    if (!['queued', 'running'].includes(status.job_status ?? '')) {
      if (status.job_status !== 'completed') throw new Error(`job ended ${status.job_status}: ${status.error_message}`);
      return { wall: performance.now() - t, status, latencies };
    }
    await sleep(5);
  }
}

async function rareFigures(label: string, client: ApiClient, pages: string[][]): Promise<void> {
  const chunks = pages.flatMap(chunksOf);
  const idle = await timeEach(50, () => client.rare.status());
  const build = await timeJob(client, () => client.rare.build());
  const generate = await timeJob(client, () => client.rare.generate());
  const generate100 = await timeJob(client, () => client.rare.generate({ num_samples: RARE_SAMPLES }));
  const { ms: vectorMs, vectors } = vectorise(chunks);
  const tokenMs = readTokenise(chunks);
  const bruteMs = bruteForceDense(vectors);
  const sparseMs = bruteForceSparse(vectors);
  const bs = build.status.build_stats as Record<string, number>;
  const gs = (s: RareStatus) => s.generate_stats as Record<string, number>;
  table(
    `RARE on ${label}: ${bs.chunks} chunks of ${bs.documents} documents (${chunks.length} recomputed here), ${bs.pairs} linked pairs (ms)`,
    ['', 'service', 'client wall'],
    [
      ['build (defaults: threshold 0.3, top k 5, max 3, 2 workers)', bs.duration_ms, build.wall],
      [`generate, 10 samples (${gs(generate.status).questions} questions)`, gs(generate.status).duration_ms, generate.wall],
      [
        `generate, ${RARE_SAMPLES} samples (${gs(generate100.status).questions} questions)`,
        gs(generate100.status).duration_ms,
        generate100.wall,
      ],
      ['baseline: cut pages into passages + lexical-hash vectors', vectorMs, NaN],
      ['baseline: tokenise + split sentences of every chunk', tokenMs, NaN],
      ['baseline: brute-force all-pairs cosine, dense 512-d', bruteMs, NaN],
      ['baseline: all pairs, sparse × dense (lexicalHash.cosine)', sparseMs, NaN],
    ],
  );
  table(
    `GET /rare/status latency on ${label} (ms)`,
    ['', 'calls', 'p50', 'p95', 'max'],
    [
      ['idle', idle.length, percentile(idle, 50), percentile(idle, 95), Math.max(...idle)],
      [
        'while the build runs',
        build.latencies.length,
        percentile(build.latencies, 50),
        percentile(build.latencies, 95),
        Math.max(...build.latencies),
      ],
    ],
  );
}

async function bulkFigures(client: ApiClient): Promise<void> {
  const questions = Array.from({ length: BULK_ROWS }, (_, i) => SAMPLE_QUESTIONS[i % SAMPLE_QUESTIONS.length].question);
  const csv = ['question', ...questions.map((q) => `"${q.replace(/"/g, '""')}"`)].join('\n');
  const rows: Array<Array<string | number>> = [];
  for (const type of ['ga', 'rag'] as const) {
    const t = performance.now();
    const { id } = await client.bulk.run({ kind: 'buffer', data: csv, fileName: 'questions.csv' }, type);
    for (;;) {
      const run = (await client.bulk.results()).results.find((r) => r.id === id)!;
      if (run.status === 'completed') break;
      if (run.status === 'failed') throw new Error(run.error_message ?? 'bulk run failed');
      await sleep(5);
    }
    const bulkMs = performance.now() - t;
    const s = performance.now();
    for (const q of questions) {
      if (type === 'ga') await client.answers.generate({ query: q, answerFormat: 'MARKDOWN' });
      else await client.answers.retrieve({ question: q, maxDocumentClues: 3 });
    }
    const seqMs = performance.now() - s;
    rows.push([`${type}: bulk run (upload → completed)`, bulkMs, (BULK_ROWS * 1000) / bulkMs]);
    rows.push([
      `${type}: baseline, ${type === 'ga' ? 'POST /webapi/generative_answer' : 'POST /webapi/retrieval'} one by one`,
      seqMs,
      (BULK_ROWS * 1000) / seqMs,
    ]);
  }
  table(`Bulk processing of ${BULK_ROWS} questions on the sample documents`, ['', 'ms', 'rows/s'], rows);
}

async function main(): Promise<void> {
  {
    const svc = await startLocalProcess(['--seed', SAMPLES]);
    const client = clientFor(svc);
    try {
      await waitProcessed(client, 7);
      const files = (await allNodes(client)).filter((n) => n.nodeType === 'file');
      const pages = await Promise.all(files.map(async (f) => (await client.localDocs.pages(f.id)).pages.map((p) => p.text)));
      await rareFigures('the sample documents', client, pages);
      await bulkFigures(client);
    } finally {
      await client.config.dispatcher?.close();
      await svc.stop();
    }
  }
  {
    const dir = await mkdtemp(path.join(tmpdir(), 'kd-bench-jobs-'));
    const pages = syntheticPages();
    await Promise.all(pages.map((doc, d) => writeFile(path.join(dir, `doc-${String(d).padStart(4, '0')}.txt`), doc.join('\n\f'))));
    const svc = await startLocalProcess(['--seed', dir]);
    const client = clientFor(svc);
    try {
      await waitProcessed(client, DOCS);
      await rareFigures(`${(DOCS * PAGES_PER_DOC).toLocaleString('en')} synthetic pages`, client, pages);
    } finally {
      await client.config.dispatcher?.close();
      await svc.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
