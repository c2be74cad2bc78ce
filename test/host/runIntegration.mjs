// Builds the extension and its integration tests, makes sure the test host is installed, copies the
// fixture workspace and runs the suite in the real extension host.
// usage: node test/host/runIntegration.mjs [--screenshots] [--grep PATTERN] [--order name|reverse|shuffle:SEED] [--timeout SEC]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const { values: a } = parseArgs({
  options: {
    screenshots: { type: 'boolean', default: false },
    grep: { type: 'string' },
    order: { type: 'string' }, // name (default), reverse, shuffle:<seed>: suites must pass in any order
    timeout: { type: 'string', default: '900' },
    'skip-build': { type: 'boolean', default: false },
  },
});

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

if (!a['skip-build'] && run(process.execPath, ['esbuild.mjs', '--tests']) !== 0) process.exit(1);
if (run('bash', [path.join(root, 'test/host/install.sh')]) !== 0) {
  console.error('The test host could not be installed (see above).');
  process.exit(3);
}

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-ws-'));
fs.cpSync(path.join(root, 'test/fixtures/workspace'), workspace, { recursive: true });
const shots = a.screenshots ? path.join(root, 'test/host/.screenshots') : undefined;
if (shots) fs.rmSync(shots, { recursive: true, force: true });

const env = { ...process.env };
if (a.grep) env.KD_TEST_GREP = a.grep;
if (a.order) env.KD_TEST_ORDER = a.order;
// The embedded local service finishes a RARE build of the test documents in milliseconds; slowed down, each job
// state lasts long enough for the Jobs view's polling (every 2–3 s while a job runs) to see it and for Cancel to land mid-build.
env.KD_LOCAL_JOB_STEP_DELAY_MS ??= '3000';
const args = [
  path.join(root, 'test/host/driver.mjs'),
  '--ext',
  root,
  '--tests',
  path.join(root, 'out/test/integration/index'),
  '--workspace',
  workspace,
  '--timeout',
  a.timeout,
];
if (shots) args.push('--shots', shots);
const status = run(process.execPath, args, { env });
fs.rmSync(workspace, { recursive: true, force: true });
if (shots) console.log(`screenshots in ${shots}`);
process.exit(status);
