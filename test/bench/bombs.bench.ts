// Decompression bombs and fair processing (issue 23), against dist/local.js in its own process: time until
// each bomb fails and the service's peak resident-memory growth (VmRSS from /proc, sampled every 20 ms), beside
// a normal PDF of the same size; then the time until a small Markdown file is ready behind the 3-million-
// operator PDF, beside the same file alone. KD_BENCH_SMOKE=1 runs small versions of everything (a check that
// the bench works, not figures).
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';
import { ApiClient } from '../../src/api/client';
import { makeDocxBomb, makeFlateBombPdf, makeManyOperatorsPdf, mibForSize } from '../unit/local/extract/attackFiles';
import { makeBigPdf } from '../unit/local/extract/pdfWriter';
import { startLocalProcess, type LocalProcess } from './localProcess';
import { table } from './support';

const smoke = process.env.KD_BENCH_SMOKE === '1';
const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

interface Case {
  name: string;
  fileName: string;
  data: Buffer;
  contentType: string;
}

function vmRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

function clientOf(svc: LocalProcess): ApiClient {
  return new ApiClient({ baseUrl: svc.url, apiKey: svc.apiKey, dispatcher: new Agent({ keepAliveTimeout: 30_000 }) });
}

async function upload(client: ApiClient, c: Case): Promise<string> {
  const [node] = await client.kbNodes.upload({ file: { data: c.data, contentType: c.contentType }, fileName: c.fileName });
  if (!node) throw new Error(`upload of ${c.fileName} returned nothing`);
  return node.id;
}

type Processed = { processState?: string; processError?: string };

async function waitProcessed(
  client: ApiClient,
  id: string,
  until = (n: Processed) => n.processState !== 'initializing' && n.processState !== 'parsing',
): Promise<Processed> {
  for (;;) {
    const node = (await client.kbNodes.get(id)) as Processed;
    if (until(node)) return node;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * One fresh service per case, so what one case leaves behind is not charged to the next. Cold: the upload
 * starts the worker (and pdfjs in it), as for the first document after a start. Warm: a small file went first.
 */
async function measure(c: Case, warm: boolean): Promise<Array<string | number>> {
  const svc = await startLocalProcess();
  const client = clientOf(svc);
  try {
    const warmUp: Case = { name: 'warm-up', fileName: 'warm-up.md', data: Buffer.from('# Warm-up\n'), contentType: 'text/markdown' };
    if (warm) await waitProcessed(client, await upload(client, warmUp));
    const base = vmRss(svc.pid);
    let peak = base;
    const timer = setInterval(() => (peak = Math.max(peak, vmRss(svc.pid))), 20);
    const t = performance.now();
    const node = await waitProcessed(client, await upload(client, c));
    const seconds = (performance.now() - t) / 1000;
    clearInterval(timer);
    peak = Math.max(peak, vmRss(svc.pid));
    // The service still answers: a cheap call right after.
    await client.kbNodes.get((await client.kbNodes.search({ parentFolderIds: [null], limit: 1 })).nodes[0]!.id);
    const reason = node.processError ? `${node.processError.slice(0, 60)}…` : '';
    return [
      `${c.name}, ${warm ? 'warm' : 'cold'}`,
      `${(c.data.length / 1024 / 1024).toFixed(2)} MB`,
      seconds,
      (peak - base) / 1024 / 1024,
      node.processState ?? '?',
      reason,
    ];
  } finally {
    await client.config.dispatcher?.close();
    await svc.stop();
  }
}

async function bombs(): Promise<void> {
  const mib = (mb: number): number => (smoke ? 16 * mb : mibForSize(mb));
  // A normal PDF of about 1 MB: what extracting a document costs (worker start and pdfjs included).
  const normal = makeBigPdf(smoke ? 20 : 180, 50);
  const cases: Case[] = [
    { name: 'normal PDF (baseline)', fileName: 'normal.pdf', data: normal, contentType: PDF },
    { name: '1 MB PDF, Flate bomb', fileName: 'bomb1.pdf', data: makeFlateBombPdf(mib(1)), contentType: PDF },
    { name: '2 MB PDF, Flate bomb', fileName: 'bomb2.pdf', data: makeFlateBombPdf(mib(2)), contentType: PDF },
    { name: '3 MB DOCX bomb', fileName: 'bomb3.docx', data: makeDocxBomb(mib(3)), contentType: DOCX },
  ];
  const rows: Array<Array<string | number>> = [];
  for (const warm of [false, true]) for (const c of cases) rows.push(await measure(c, warm));
  table(
    `Decompression bombs into dist/local.js (own process; goal: each fails in < 5 s, growth < 300 MB)${smoke ? ' — SMOKE sizes' : ''}`,
    ['', 'file', 's to done', 'peak RSS growth MB', 'state', 'reason'],
    rows,
  );
}

async function fairness(): Promise<void> {
  const small: Case = {
    name: 'small.md',
    fileName: 'small.md',
    data: Buffer.from('# Small\n\nReady quickly.\n'),
    contentType: 'text/markdown',
  };
  const ops = smoke ? 60_000 : 3_000_000;
  const slow: Case = { name: 'slow.pdf', fileName: 'slow.pdf', data: makeManyOperatorsPdf(ops), contentType: PDF };
  const svc = await startLocalProcess();
  const client = clientOf(svc);
  try {
    // Baseline: the same small file alone, in the same service (its workers started by a first one).
    await waitProcessed(client, await upload(client, { ...small, fileName: 'warm-up.md' }));
    let t = performance.now();
    await waitProcessed(client, await upload(client, small));
    const alone = (performance.now() - t) / 1000;

    const slowId = await upload(client, slow);
    await waitProcessed(client, slowId, (n) => n.processState === 'parsing');
    t = performance.now();
    const done = await waitProcessed(client, await upload(client, { ...small, fileName: 'behind.md' }));
    const behind = (performance.now() - t) / 1000;
    const slowState = ((await client.kbNodes.get(slowId)) as Processed).processState;
    table(
      `A small Markdown file behind a ${(slow.data.length / 1024).toFixed(0)} KB PDF with ${ops.toLocaleString('en')} text operators (goal < 5 s)`,
      ['', 's until ready', 'state', 'slow PDF then'],
      [
        ['small.md alone (baseline)', alone, 'completed', ''],
        ['small.md behind the slow PDF', behind, done.processState ?? '?', slowState ?? '?'],
      ],
    );
  } finally {
    await client.config.dispatcher?.close();
    await svc.stop();
  }
}

void (async () => {
  await bombs();
  await fairness();
})().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
