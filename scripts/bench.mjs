// npm run bench: prints figures side by side with a baseline measured in the same run.
// Not timed tests: nothing here fails on a slow machine.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// --smoke (npm test): every bench once at tiny sizes, nothing judged; a bench that breaks fails the run.
const smoke = process.argv.includes('--smoke');
const only = process.argv.slice(2).filter((a) => a !== '--smoke');
const SMOKE_SIZES = {
  KD_BENCH_SMOKE: '1',
  KD_BENCH_N: '50',
  KD_BENCH_QA_ROWS: '300',
  KD_BENCH_ROUNDS: '1',
  KD_BENCH_JOB_DOCS: '3',
  KD_BENCH_NLU_RUNS: '20',
  KD_BENCH_IMPORT_ROWS: '40',
  KD_BENCH_SEARCH_QAS: '300',
  KD_BENCH_PASSAGES: '300',
  KD_BENCH_FILES: '5',
  KD_BENCH_HOST_QAS: '2000',
  KD_BENCH_SLOW_CLIENTS: '10',
  KD_BENCH_RACE_ATTEMPTS: '100',
};
const env = smoke ? { ...process.env, ...SMOKE_SIZES } : process.env;
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env, ...opts }).status;
let failures = 0;

console.log(
  `Knowledge Desk benchmarks — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`,
);
if (run(process.execPath, ['esbuild.mjs', '--production', '--bench']) !== 0) process.exit(1);

const benches = fs
  .readdirSync(path.join(root, 'test/bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
for (const file of benches) {
  if (only.length && !only.some((o) => file.includes(o))) continue;
  console.log(`\n=== ${file}`);
  const started = Date.now();
  const status = run(process.execPath, ['--import', 'tsx', '--expose-gc', path.join('test/bench', file)], {
    timeout: (smoke ? 3 : 20) * 60_000,
  });
  if (smoke) console.log(`(${file}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (status !== 0) {
    failures++;
    console.log(`(${file} exited with ${status})`);
  }
}

// `npm run bench -- activation` runs this one alone (`host` also runs hostEventLoop.bench.ts).
if (!only.length || only.includes('host') || only.includes('activation')) {
  console.log('\n=== activation (real VS Code extension host)');
  if (run('bash', ['test/host/install.sh']) !== 0) process.exit(3);
  // Two windows on one profile: the first compiles dist/main.js and writes its code cache (3 s after activation,
  // src/extension.ts), the second activates from it, as every later window does (test/bench/host/activation.ts).
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-bench-profile-'));
  const state = path.join(profile, 'first-window.json');
  // The smoke run (npm test) starts the first window only: one host start is enough to catch a broken bench.
  const windows = ['first window (fresh profile)', 'second window (same profile)'].slice(0, smoke ? 1 : 2);
  for (const window of windows) {
    console.log(`\n--- ${window}`);
    const status = run(
      process.execPath,
      [
        'test/host/driver.mjs',
        '--ext',
        root,
        '--tests',
        path.join(root, 'out/test/bench/activation'),
        '--timeout',
        '300',
        '--user-data',
        profile,
      ],
      { env: { ...env, KD_BENCH_ACTIVATION_STATE: state } },
    );
    if (status !== 0) failures++;
  }
  fs.rmSync(profile, { recursive: true, force: true });
}
if (failures) {
  console.log(`\n${failures} bench(es) failed`);
  process.exit(1);
}
