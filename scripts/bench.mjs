// npm run bench: prints figures side by side with a baseline measured in the same run.
// Not timed tests: nothing here fails on a slow machine.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// --smoke: every bench that reads KD_BENCH_SMOKE runs at a tiny size (a check that it still runs, not figures).
const smoke = process.argv.includes('--smoke');
if (smoke) process.env.KD_BENCH_SMOKE = '1';
const only = process.argv.slice(2).filter((a) => a !== '--smoke');
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts }).status;

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
  const status = run(process.execPath, ['--import', 'tsx', '--expose-gc', path.join('test/bench', file)], { timeout: 20 * 60_000 });
  if (status !== 0) console.log(`(${file} exited with ${status})`);
}

if (!only.length || only.includes('host')) {
  console.log('\n=== activation (real VS Code extension host)');
  if (run('bash', ['test/host/install.sh']) !== 0) process.exit(3);
  run(process.execPath, [
    'test/host/driver.mjs',
    '--ext',
    root,
    '--tests',
    path.join(root, 'out/test/bench/activation'),
    '--timeout',
    '300',
  ]);
}
