// Start and Q&A search of a big data folder (issue 26: 100,000 Q&As and 2,000 documents, goals: start under 3 s,
// query p95 under 20 ms), the local service in its own process. The baseline, in the same run and on the same
// folder, is a start without the search index snapshot (the indexes rebuilt from the journal and the stored
// extractions, as every start did before). "Ready" is the first moment both a document search and a Q&A
// search are answered from complete indexes. The results of both starts are compared.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { INDEX_SNAPSHOT_FILE } from '../../src/local/search/indexPersistence';
import { startLocalProcess, type LocalProcess } from './localProcess';
import { qaCorpus, word } from './qaCorpus';
import { localInfo, seedDataFolder } from './seedFolder';
import { fmt, percentile, rng, sized, table } from './support';

const QAS = sized('KD_BENCH_START_QAS', 100_000, 300);
const DOCS = sized('KD_BENCH_START_DOCS', 2_000, 10);
const SEARCHES = sized('KD_BENCH_SEARCHES', 300, 20);
const agent = new Agent({ keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The corpus of qna.bench.ts (qaCorpus.ts) around these topics.
const TOPICS = [
  'VPN',
  'password',
  'expense report',
  'paid leave',
  'printer',
  'Wi-Fi',
  'laptop',
  'badge',
  '経費精算',
  '有給休暇',
  '会議室',
  '在宅勤務',
];
const corpus = qaCorpus(TOPICS);
const question = corpus.question;
const QUERIES = [
  `How do I ${word(17)} the VPN`,
  `paid leave ${word(512)}`,
  '経費精算の申請について',
  `有給休暇の承認 ${word(99)}`,
  'printer help',
  `badge ${word(1234)} for ${word(77)}`,
  'something unrelated entirely',
  '会議室の予約',
  question(QAS - 1),
];

/** A document of a few paragraphs of topic words (cheap to make, a few passages each). */
function documentText(i: number, r: () => number): string {
  const paragraphs: string[] = [`Guide ${i}: ${TOPICS[i % TOPICS.length]}`];
  for (let p = 0; p < 4; p++) {
    const words = Array.from({ length: 60 }, () => (r() < 0.3 ? TOPICS[Math.floor(r() * TOPICS.length)] : word(Math.floor(r() * 4096))));
    paragraphs.push(`${words.join(' ')}.`);
  }
  return paragraphs.join('\n\n');
}

const info = (svc: LocalProcess) => localInfo(svc, agent);

async function post(svc: LocalProcess, route: string, body: unknown): Promise<unknown> {
  const res = await request(`${svc.url}${route}`, {
    method: 'POST',
    headers: { 'API-KEY': svc.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    dispatcher: agent,
  });
  if (res.statusCode !== 200) throw new Error(`${route}: ${res.statusCode} ${await res.body.text()}`);
  return res.body.json();
}

const searchQa = (svc: LocalProcess, query: string) =>
  post(svc, '/webapi/faq', { query, maxResults: 10, autoRegisterCandidates: false }) as Promise<{
    result: Array<{ id: string; confidence: number }>;
  }>;
const searchDocs = (svc: LocalProcess, question: string) =>
  post(svc, '/webapi/retrieval', { question, maxDocumentClues: 5 }) as Promise<unknown>;

/** DOCS text documents and QAS Q&As (seedFolder.ts). */
async function buildFolder(dataDir: string, work: string): Promise<void> {
  const r = rng(7);
  await seedDataFolder(
    dataDir,
    work,
    {
      documents: DOCS,
      document: (i) => ({ path: `docs/guide-${i}.txt`, text: documentText(i, r) }),
      qas: QAS,
      qa: (i) => ({
        question: question(i),
        answer: `Answer ${i}.`,
        similarQuestions: [`${corpus.topic(i)} ${word(i % 4096)}`],
        status: 'on',
      }),
    },
    agent,
  );
}

interface StartFigures {
  listening: number;
  ready: number;
  rssMb: number;
  counts: Record<string, number>;
  p50: number;
  p95: number;
  results: unknown[];
}

async function startAndSearch(dataDir: string): Promise<StartFigures> {
  const t = performance.now();
  const svc = await startLocalProcess([], { dataDir, startTimeoutMs: 15 * 60_000 });
  const listening = (performance.now() - t) / 1000;
  while ((await info(svc))['retrieval.ready'] !== 1) await sleep(20);
  await searchDocs(svc, 'VPN password');
  await searchQa(svc, question(0));
  const ready = (performance.now() - t) / 1000;
  const counts = await info(svc);
  const results: unknown[] = [];
  for (const q of QUERIES)
    results.push(
      (await searchQa(svc, q)).result.map((x) => [x.id, x.confidence]),
      await searchDocs(svc, q),
    );
  const times: number[] = [];
  for (let i = 0; i < SEARCHES; i++) {
    const s = performance.now();
    await searchQa(svc, QUERIES[i % QUERIES.length]);
    times.push(performance.now() - s);
  }
  const status = await readFile(`/proc/${svc.pid}/status`, 'utf8').catch(() => '');
  const rssMb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  await svc.stop(); // closing writes the snapshot when the indexes changed
  return { listening, ready, rssMb, counts, p50: percentile(times, 50), p95: percentile(times, 95), results };
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'kd-bench-index-'));
  console.log(
    `load average at start: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')}`,
  );
  try {
    const dataDir = path.join(work, 'data');
    const t = performance.now();
    await buildFolder(dataDir, work);
    const built = (performance.now() - t) / 1000;
    const snapshot = path.join(dataDir, 'db', INDEX_SNAPSHOT_FILE);
    await rm(snapshot, { force: true });
    const rebuilt = await startAndSearch(dataDir); // its close writes the snapshot the next start loads
    const loaded = await startAndSearch(dataDir);
    const row = (name: string, f: StartFigures) => [
      name,
      f.listening,
      f.ready,
      f.p50,
      f.p95,
      f.rssMb,
      f.counts['index.snapshotLoaded'],
      f.counts['index.reindexedQas'],
    ];
    table(
      `Start and Q&A search, ${QAS.toLocaleString('en-US')} Q&As and ${DOCS.toLocaleString('en-US')} documents (built in ${fmt(built)} s), ${SEARCHES} searches — goals: ready < 3 s, p95 < 20 ms`,
      ['', 'listening s', 'ready s', 'p50 ms', 'p95 ms', 'RSS MB', 'snapshot', 'Q&As indexed'],
      [row('no snapshot: indexes rebuilt (baseline)', rebuilt), row('snapshot loaded', loaded)],
    );
    const same = JSON.stringify(rebuilt.results) === JSON.stringify(loaded.results);
    console.log(`  results of ${QUERIES.length} Q&A and document searches: ${same ? 'the same' : 'DIFFERENT'} after both starts`);
    if (!same || loaded.counts['index.snapshotLoaded'] !== 1) process.exitCode = 1;
  } finally {
    await agent.close();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
