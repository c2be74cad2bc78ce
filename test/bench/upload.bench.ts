// Upload figures (issue 3): the extension's upload pipeline vs curl one file at a time against the
// same kind of local service (its own process, fresh for each side); client memory during a 200 MB
// upload vs a raw undici stream; first page of a 10,000-document folder vs a 50-document one.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, FormData, request } from 'undici';
import yazl from 'yazl';
import { ApiClient } from '../../src/api/client';
import { runUploads, type UploadJob } from '../../src/api/uploads/uploadRunner';
import { startLocalProcess } from './localProcess';
import { percentile, sized, table, timeEach } from './support';

const FILES = sized('KD_BENCH_FILES', 300, 5);
/** The one big file whose upload the client's memory is watched for. */
const BIG_MB = sized('KD_BENCH_BIG_MB', 200, 8);
const BIG_FOLDER = sized('KD_BENCH_BIG_FOLDER', 10_000, 200);

async function makeCorpus(dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const size = 1024 + Math.floor((((i * 7919) % 1000) / 1000) * 199 * 1024); // 1–200 KB, spread evenly
    const words = randomBytes(Math.ceil(size / 2))
      .toString('hex')
      .replace(/(.{7})/g, '$1 ');
    const file = path.join(dir, `doc-${String(i).padStart(4, '0')}.txt`);
    await writeFile(file, words.slice(0, size));
    files.push(file);
  }
  return files;
}

function curlUpload(url: string, key: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', [
      '-sS',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-H',
      `API-KEY: ${key}`,
      '-F',
      `file=@${file}`,
      '-F',
      `fileName=${path.basename(file)}`,
      `${url}/webapi/v2/knowledge_base_nodes/upload`,
    ]);
    let code = '';
    child.stdout.on('data', (d) => (code += d));
    child.on('exit', () => (code === '200' ? resolve() : reject(new Error(`curl: HTTP ${code}`))));
  });
}

async function uploadThroughput(files: string[]): Promise<void> {
  const jobs: UploadJob[] = await Promise.all(
    files.map(async (f) => ({ id: f, path: f, fileName: path.basename(f), size: (await stat(f)).size })),
  );
  const mb = jobs.reduce((n, j) => n + j.size, 0) / 1024 / 1024;

  const curlSvc = await startLocalProcess();
  let t = performance.now();
  for (const f of files) await curlUpload(curlSvc.url, curlSvc.apiKey, f);
  const curlMs = performance.now() - t;
  await curlSvc.stop();

  const rows: Array<Array<string | number>> = [
    ['curl, one file after another (baseline)', curlMs / 1000, FILES / (curlMs / 1000), mb / (curlMs / 1000), 1],
  ];
  for (const concurrency of [1, 4, 8]) {
    const svc = await startLocalProcess();
    const client = new ApiClient({ baseUrl: svc.url, apiKey: svc.apiKey, dispatcher: new Agent({ keepAliveTimeout: 30_000 }) });
    t = performance.now();
    const out = await runUploads(client, jobs, { concurrency, options: {} });
    const ms = performance.now() - t;
    const ok = [...out.values()].filter((o) => o.status === 'done').length;
    if (ok !== FILES) throw new Error(`only ${ok} uploads succeeded`);
    rows.push([`upload pipeline, concurrency ${concurrency}`, ms / 1000, FILES / (ms / 1000), mb / (ms / 1000), curlMs / ms]);
    await client.config.dispatcher?.close();
    await svc.stop();
  }
  table(
    `${FILES} files of 1–200 KB (${mb.toFixed(1)} MB) into a fresh local service (own process) — goal ≥ 3× curl`,
    ['', 's', 'files/s', 'MB/s', '× curl'],
    rows,
  );
}

async function memoryOfBigUpload(dir: string): Promise<void> {
  const file = path.join(dir, 'big.bin');
  const handle = await import('node:fs/promises').then((fs) => fs.open(file, 'w'));
  const chunk = randomBytes(1024 * 1024);
  for (let i = 0; i < BIG_MB; i++) await handle.write(chunk);
  await handle.close();
  const svc = await startLocalProcess(['--max-upload-mb', '300']);
  const measure = async (fn: () => Promise<unknown>): Promise<{ growth: number; ms: number }> => {
    (globalThis as { gc?: () => void }).gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const t = performance.now();
    await fn();
    const ms = performance.now() - t;
    clearInterval(timer);
    return { growth: (peak - base) / 1024 / 1024, ms };
  };
  const agent = new Agent();
  // Baseline: the least code that can send the same multipart upload with undici.
  const raw = await measure(async () => {
    const form = new FormData();
    form.append('file', await openAsBlob(file), 'big-raw.bin');
    form.append('fileName', 'big-raw.bin');
    const res = await request(`${svc.url}/webapi/v2/knowledge_base_nodes/upload`, {
      method: 'POST',
      headers: { 'API-KEY': svc.apiKey },
      body: form,
      dispatcher: agent,
    });
    if (res.statusCode !== 200) throw new Error(`raw upload: ${res.statusCode} ${await res.body.text()}`);
    await res.body.dump();
  });
  const client = new ApiClient({ baseUrl: svc.url, apiKey: svc.apiKey, dispatcher: new Agent() });
  const pipeline = await measure(() =>
    runUploads(client, [{ id: file, path: file, fileName: 'big.bin', size: BIG_MB * 1024 * 1024 }], { concurrency: 1, options: {} }),
  );
  table(
    `Client memory while uploading one ${BIG_MB} MB file (RSS growth over the start, sampled every 20 ms) — goal < 60 MB`,
    ['', 'RSS growth MB', 's'],
    [
      ['raw undici multipart, openAsBlob (baseline)', raw.growth, raw.ms / 1000],
      ['upload pipeline (multipart, file streamed)', pipeline.growth, pipeline.ms / 1000],
    ],
  );
  await svc.stop();
}

async function firstPage(dir: string): Promise<void> {
  const svc = await startLocalProcess();
  const client = new ApiClient({ baseUrl: svc.url, apiKey: svc.apiKey, dispatcher: new Agent({ keepAliveTimeout: 30_000 }) });
  const folderOf = async (n: number, name: string): Promise<string> => {
    const zip = new yazl.ZipFile();
    for (let i = 0; i < n; i++)
      zip.addBuffer(Buffer.from(`doc ${i}`), `${name}/item-${String(i).padStart(5, '0')}.txt`, { compress: false });
    zip.end();
    const zipFile = path.join(dir, `${name}.zip`);
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    await writeFile(zipFile, Buffer.concat(chunks));
    const nodes = await client.kbNodes.upload({ file: { path: zipFile }, fileName: `${name}.zip` }, { timeoutMs: 600_000 });
    return nodes.find((x) => x.name === name)!.id;
  };
  const small = await folderOf(50, 'small');
  const big = await folderOf(BIG_FOLDER, 'big');
  const page = (id: string) => () => client.kbNodes.search({ parentFolderIds: [id], limit: 50, order: 'name_asc' });
  for (let i = 0; i < 20; i++) await page(small)(); // warm-up (JIT)
  const smallTimes = await timeEach(100, page(small));
  const bigTimes = await timeEach(100, page(big));
  const row = (name: string, t: number[]): Array<string | number> => [name, percentile(t, 50), percentile(t, 95)];
  table(
    'First page (50 items) of a folder, local service in its own process (ms, 100 calls)',
    ['', 'p50', 'p95'],
    [row('folder of 50 documents (baseline)', smallTimes), row(`folder of ${BIG_FOLDER.toLocaleString('en')} documents`, bigTimes)],
  );
  await client.config.dispatcher?.close();
  await svc.stop();
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kd-bench-up-'));
  try {
    const files = await makeCorpus(path.join(dir, 'corpus'));
    await uploadThroughput(files);
    await memoryOfBigUpload(dir);
    await firstPage(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
