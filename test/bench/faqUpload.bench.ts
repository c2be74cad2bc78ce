// Q&A files in bounded memory and a big data folder that opens (issue 23), against the local service in its own
// process: (a) upload_faq_file of a file at the row limit and of a 1,000,000-row file, while another request is
// polled: its latency, the service's RSS growth and the total time; beside a baseline (another build of the
// service given by KD_BENCH_BASELINE_LOCAL, e.g. main's dist/local.js, else the figures measured in the issue).
// (b) start of a data folder with 1,000,000 Q&As and 20,000 documents: time to listening and to ready, RSS.
// KD_BENCH_SMOKE=1 (npm run bench -- --smoke) runs everything at a tiny size.
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { Agent, FormData, request } from 'undici';
import { MAX_FAQ_FILE_ROWS } from '../../src/local/faq/faqUpload';
import { startLocalProcess, type LocalProcess } from './localProcess';
import { localInfo, seedDataFolder } from './seedFolder';
import { fmt, percentile, table } from './support';

const SMOKE = process.env.KD_BENCH_SMOKE === '1';
const LIMIT_ROWS = SMOKE ? 2_000 : MAX_FAQ_FILE_ROWS;
const BIG_ROWS = SMOKE ? 5_000 : 1_000_000;
const START_QAS = Number(process.env.KD_BENCH_START_QAS ?? (SMOKE ? 5_000 : 1_000_000));
const START_DOCS = Number(process.env.KD_BENCH_START_DOCS ?? (SMOKE ? 50 : 20_000));
const BASELINE = process.env.KD_BENCH_BASELINE_LOCAL;
const agent = new Agent({ keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const question = (i: number) => `How do I configure item ${i} of group ${i % 997}?`;

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function writeCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  let chunk = 'question,answer,hashtags\n';
  for (let i = 0; i < rows; i++) {
    chunk += `${question(i)},Open the settings page and choose option ${i}.,group${i % 50}\n`;
    if (chunk.length > 1 << 16 && !out.write(chunk)) await once(out, 'drain');
    if (chunk.length > 1 << 16) chunk = '';
  }
  out.end(chunk);
  await once(out, 'finish');
}

interface UploadFigures {
  status: number;
  seconds: number;
  polls: number;
  p50: number;
  p99: number;
  max: number;
  growthMb: number;
}

/** Uploads `file` while polling a small GET one after another and sampling the service's RSS every 50 ms. */
async function uploadWhilePolling(svc: LocalProcess, file: string, name: string): Promise<UploadFigures> {
  const base = await rssMb(svc.pid);
  let peak = base;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peak = Math.max(peak, await rssMb(svc.pid).catch(() => 0));
      await sleep(50);
    }
  })();
  const started = performance.now();
  const form = new FormData();
  form.append('file', await openAsBlob(file), name);
  const upload = request(`${svc.url}/webapi/upload_faq_file`, {
    method: 'POST',
    headers: { 'API-KEY': svc.apiKey },
    body: form,
    dispatcher: agent,
  }).then(async (res) => {
    await res.body.dump();
    return res.statusCode;
  });
  const latencies: number[] = [];
  void upload.finally(() => (done = true));
  while (!done) {
    const t = performance.now();
    const res = await request(`${svc.url}/webapi/faq/embedding_status`, { headers: { 'API-KEY': svc.apiKey }, dispatcher: agent });
    await res.body.dump();
    latencies.push(performance.now() - t);
  }
  const status = await upload;
  const seconds = (performance.now() - started) / 1000;
  await sampler;
  const p = (q: number) => (latencies.length ? percentile(latencies, q) : 0);
  return { status, seconds, polls: latencies.length, p50: p(50), p99: p(99), max: p(100), growthMb: peak - base };
}

const row = (label: string, f: UploadFigures): Array<string | number> => [
  label,
  f.status,
  f.seconds,
  f.polls,
  f.p50,
  f.p99,
  f.max,
  f.growthMb,
];

async function uploads(dir: string): Promise<void> {
  const limitFile = path.join(dir, 'limit.csv');
  const bigFile = path.join(dir, 'big.csv');
  await writeCsv(limitFile, LIMIT_ROWS);
  await writeCsv(bigFile, BIG_ROWS);
  const rows: Array<Array<string | number>> = [];
  const maxRows = SMOKE ? ['--max-faq-rows', String(LIMIT_ROWS)] : [];
  if (BASELINE) {
    const base = await startLocalProcess([], { script: BASELINE });
    rows.push(
      row(`baseline (${BASELINE}), ${LIMIT_ROWS.toLocaleString('en-US')} rows`, await uploadWhilePolling(base, limitFile, 'limit.csv')),
    );
    await base.stop();
  } else {
    rows.push(['baseline: issue 23, 100,000 rows (no answer 10.3 s, +550 MB); 1,000,000 rows: OOM', '-', '-', '-', '-', '-', '-', '-']);
  }
  let svc = await startLocalProcess(maxRows);
  rows.push(row(`streamed, ${LIMIT_ROWS.toLocaleString('en-US')} rows (the limit)`, await uploadWhilePolling(svc, limitFile, 'limit.csv')));
  await svc.stop();
  svc = await startLocalProcess(maxRows);
  rows.push(
    row(`streamed, ${BIG_ROWS.toLocaleString('en-US')} rows (over the limit: 413)`, await uploadWhilePolling(svc, bigFile, 'big.csv')),
  );
  await svc.stop();
  table(
    'upload_faq_file to the local service (own process), a GET polled meanwhile — goals: p99 < 200 ms, RSS growth < 300 MB',
    ['', 'HTTP', 's', 'polls', 'p50 ms', 'p99 ms', 'max ms', 'RSS +MB'],
    rows,
  );
}

/** A data folder of START_DOCS documents and START_QAS Q&As (seedFolder.ts). */
async function buildFolder(dataDir: string, work: string): Promise<number> {
  const t = performance.now();
  await seedDataFolder(
    dataDir,
    work,
    {
      documents: START_DOCS,
      document: (i) => ({ path: `docs/d${i}.txt`, text: `Document ${i}. How to configure item ${i}: open the settings page.` }),
      qas: START_QAS,
      qa: (i) => ({ question: question(i), answer: `Open the settings page and choose option ${i}.`, status: 'on' }),
    },
    agent,
  );
  return (performance.now() - t) / 1000;
}

const info = (svc: LocalProcess) => localInfo(svc, agent);

async function start(work: string): Promise<void> {
  const dataDir = path.join(work, 'data');
  const built = await buildFolder(dataDir, work);
  const t = performance.now();
  const svc = await startLocalProcess([], { dataDir, startTimeoutMs: 15 * 60_000 });
  const listening = (performance.now() - t) / 1000;
  while ((await info(svc))['retrieval.ready'] !== 1) await sleep(100);
  const res = await request(`${svc.url}/webapi/faq`, {
    method: 'POST',
    headers: { 'API-KEY': svc.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ query: question(START_QAS - 1), autoRegisterCandidates: false }),
    dispatcher: agent,
  });
  const found = ((await res.body.json()) as { result?: Array<{ question: string }> }).result?.[0]?.question === question(START_QAS - 1);
  const ready = (performance.now() - t) / 1000;
  const rss = await rssMb(svc.pid);
  await svc.stop();
  table(
    `Start of a data folder with ${START_QAS.toLocaleString('en-US')} Q&As and ${START_DOCS.toLocaleString('en-US')} documents (built in ${fmt(built)} s)`,
    ['', 's', 'RSS MB', 'last Q&A found'],
    [
      ['listening', listening, '', ''],
      ['ready (documents indexed, a Q&A search answered)', ready, rss, found ? 'yes' : 'NO'],
    ],
  );
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'kd-bench-faq-'));
  // Timings depend on what else runs: say it.
  console.log(
    `load average at start: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')}`,
  );
  try {
    if (!process.env.KD_BENCH_SKIP_UPLOADS) await uploads(work);
    if (!process.env.KD_BENCH_SKIP_START) await start(work);
  } finally {
    await agent.close();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
