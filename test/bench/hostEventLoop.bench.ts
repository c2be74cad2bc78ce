// Issue 23: the extension host's event-loop delay while the local service imports a 100,000-row Q&A file
// (upload_faq_file) and while it rebuilds its Q&A index at start, with the service inside the host (BEFORE:
// dist/local.js required and started in this process, as the extension did) and in its own process (AFTER:
// the LocalServiceSupervisor the extension uses). This process plays the extension host: it sends the
// requests through the real client and its event loop is what is measured. Also the first-use time
// (start → the key check answered, the status bar's "Local · connected").
// Sizes: KD_BENCH_HOST_QAS (default 100000; e.g. 2000 for a quick smoke run).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ApiClient } from '../../src/api/client';
import { qaCsv } from '../../src/core/qaFile/exportCsv';
import { LocalServiceSupervisor } from '../../src/platform/connection/process/supervisor';
import type * as LocalModule from '../../src/local/entry';
import { table } from './support';

const QAS = Number(process.env.KD_BENCH_HOST_QAS ?? 100_000);
const LOCAL_JS = path.resolve('dist/local.js');

interface Running {
  url: string;
  apiKey: string;
  stop(): Promise<void>;
}

/** How the service is run: inside this process (before) or as the supervised child (after). */
type Mode = (dataDir: string) => Promise<Running>;

const inProcess: Mode = async (dataDir) => {
  // As the extension loaded it: a computed path, at run time.
  const local = require(LOCAL_JS) as typeof LocalModule;
  const service = await local.startLocalService({ dataDir });
  return { url: service.url, apiKey: service.apiKey, stop: () => service.close() };
};

const childProcess: Mode = async (dataDir) => {
  const quiet = (): void => undefined;
  const supervisor = new LocalServiceSupervisor({
    script: LOCAL_JS,
    log: { trace: quiet, info: quiet, warn: quiet, error: (m) => console.error(m) },
    startOptions: () => ({ dataDir, allowedRoots: [] }),
    ownerAnswers: async () => false,
  });
  const ep = await supervisor.ensureStarted();
  return { url: ep.url, apiKey: ep.apiKey, stop: () => supervisor.dispose() };
};

interface Delay {
  p50: number;
  p99: number;
  max: number;
  seconds: number;
}

/** The event-loop delay of this process (ms) while `work` runs. */
async function measure(work: () => Promise<unknown>): Promise<Delay> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const started = performance.now();
  histogram.enable();
  try {
    await work();
  } finally {
    histogram.disable();
  }
  const ms = (ns: number): number => ns / 1e6;
  return {
    p50: ms(histogram.percentile(50)),
    p99: ms(histogram.percentile(99)),
    max: ms(histogram.max),
    seconds: (performance.now() - started) / 1000,
  };
}

const client = (r: Running): ApiClient => new ApiClient({ baseUrl: r.url, apiKey: r.apiKey, timeoutMs: 900_000, retry: { maxRetries: 0 } });

async function run(label: string, mode: Mode, csv: string): Promise<{ label: string; firstUse: number; upload: Delay; rebuild: Delay }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kd-bench-host-'));
  try {
    const t = performance.now();
    let running = await mode(dataDir);
    await client(running).projects.checkKey({ maxRetries: 0 });
    const firstUse = performance.now() - t;
    const upload = await measure(async () => {
      const res = await client(running).faq.uploadFile({ kind: 'file', path: csv, fileName: 'qas.csv' });
      if (res.notUploaded.length) throw new Error(`${res.notUploaded.length} rows not uploaded`);
    });
    await running.stop();
    // A start over the folder: the journal is read and the Q&A index rebuilt; the first search waits for it.
    const rebuild = await measure(async () => {
      running = await mode(dataDir);
      await client(running).faq.search({ query: 'paid leave', maxResults: 10, autoRegisterCandidates: false });
    });
    await running.stop();
    return { label, firstUse, upload, rebuild };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kd-bench-host-csv-'));
  const csv = path.join(dir, 'qas.csv');
  const topics = ['paid leave', 'VPN', 'expense report', 'printer', '経費精算', '会議室'];
  await writeFile(
    csv,
    qaCsv(
      Array.from({ length: QAS }, (_, i) => ({
        question: `How do I handle ${topics[i % topics.length]} case ${i} (${(i * 7919) % 10007})?`,
        answer: `<p>Answer ${i}.</p>`,
        similarQuestions: [`${topics[i % topics.length]} ${i}`],
        hashtags: [`t${i % 40}`],
        status: 'on' as const,
      })),
    ),
  );
  try {
    // This machine's own noise, for reading the rows below: the same measurement with nothing running.
    const idle = await measure(() => new Promise((r) => setTimeout(r, 5000)));
    // In-process first: its first use then pays the cold require of dist/local.js, as an extension host did.
    const before = await run('BEFORE: in the extension host (require dist/local.js)', inProcess, csv);
    const after = await run('AFTER: own process (LocalServiceSupervisor)', childProcess, csv);
    const row = (r: typeof before, what: 'upload' | 'rebuild') => [
      `${r.label}, ${what}`,
      r[what].seconds,
      r[what].p50,
      r[what].p99,
      r[what].max,
    ];
    table(
      `Event-loop delay of the extension host (ms; goal p99 < 50 after), ${QAS.toLocaleString('en')} Q&As: upload_faq_file, then a restart (index rebuild until the first search answers)`,
      ['', 'window s', 'p50', 'p99', 'max'],
      [
        ['idle, nothing running (baseline: this machine)', idle.seconds, idle.p50, idle.p99, idle.max],
        row(before, 'upload'),
        row(after, 'upload'),
        row(before, 'rebuild'),
        row(after, 'rebuild'),
      ],
    );
    table(
      'First use: start → key check answered ("Local · connected"), ms',
      ['', 'ms'],
      [
        [before.label, before.firstUse],
        [after.label, after.firstUse],
      ],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
