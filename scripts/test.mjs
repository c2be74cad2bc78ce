// npm test: type check, lint (ESLint and Prettier), build, unit tests (plain Node, against the real local service on loopback),
// integration tests (inside a real VS Code extension host), the user journeys in English and Japanese (test/journeys, the
// same host) — both in each lane (test/host/lanes.mjs: floor = VS Code 1.100.3, current = 1.139.1) — then the package:
// `npm run package` and its .vsix checked, the smoke journey run against that .vsix installed into the test host, the
// retrieval dev set over its two fixture documents (test/eval, smoke) and every benchmark once in smoke mode. Ends with
// one line: `N passed, N failed`.
// Every step runs in its own process group under a time limit, and the whole run has one too.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// Within CI's 90 minutes, with room for npm install and the test hosts' own install.
const OVERALL_MS = Number(process.env.KD_TEST_TIMEOUT_MS ?? 85 * 60_000);
// e.g. `npm test -- unit` runs only the unit step; a lane's name keeps the VS Code steps to that lane
// (`npm test -- integration current`: the current lane's integration tests).
const LANE_NAMES = ['floor', 'current'];
const args = process.argv.slice(2);
const only = args.filter((s) => !LANE_NAMES.includes(s));
const lanesAsked = args.filter((s) => LANE_NAMES.includes(s));

let active;
const overall = setTimeout(() => {
  console.error(`\nnpm test: overall time limit of ${OVERALL_MS / 60_000} min reached; stopping.`);
  if (active) kill(active);
  report(true);
}, OVERALL_MS);

function kill(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {}
  setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }, 3000).unref();
}

function step(name, cmd, args, limitMs, env = process.env) {
  return new Promise((resolve) => {
    console.log(`\n── ${name} ${'─'.repeat(Math.max(0, 70 - name.length))}`);
    const started = Date.now();
    let out = '';
    const child = spawn(cmd, args, { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
    active = child;
    const limit = setTimeout(() => {
      console.error(`${name}: time limit of ${limitMs / 60_000} min reached; stopping it.`);
      kill(child);
    }, limitMs);
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      out += d;
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      active = undefined;
      console.log(`── ${name}: ${code === 0 ? 'ok' : `failed (${code ?? signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      resolve({ name, code: code ?? 1, out });
    });
  });
}

const totals = { passed: 0, failed: 0 };
let stepFailures = 0;
/** What failed, repeated at the end: CI often shows only a run's last lines, and those must name the failure. */
const failures = [];

/** A step's mocha failure list (the lines after `N failing`), cut short: the titles and first error lines. */
function failureList(out) {
  const at = [...out.matchAll(/^\s*\d+ failing\s*$/gm)].at(-1);
  if (!at) return '';
  const lines = out.slice(at.index + at[0].length).split('\n');
  // The test host's own logs follow a window's failures: they are in the log above, not needed here.
  const end = lines.findIndex((l) => /^(mocha|--- code-server log)/.test(l));
  return lines
    .slice(0, end === -1 ? undefined : end)
    .filter((l) => l.trim() !== '' && !/^\s+at /.test(l))
    .slice(0, 40)
    .join('\n');
}

/** Adds a step's mocha counts; a step that failed without a failing test counts as one failure. */
function count(r) {
  const m = [...r.out.matchAll(/^mocha: (\d+) passed, (\d+) failed/gm)].at(-1);
  const failed = m ? Number(m[2]) : 0;
  if (m) {
    totals.passed += Number(m[1]);
    totals.failed += failed;
  }
  if (!m || (r.code !== 0 && failed === 0)) stepFailures++;
  if (failed > 0) failures.push(`${r.name}: ${failed} failed\n${failureList(r.out)}`);
  else if (r.code !== 0) failures.push(`${r.name}: the step failed (exit ${r.code}) without a failing test`);
}

/** A step that is not a mocha run (type check, lint, an install): failing it is one failure. */
function mustPass(r) {
  if (r.code === 0) return;
  stepFailures++;
  failures.push(`${r.name}: the step failed (exit ${r.code})`);
}

function report(timedOut = false) {
  clearTimeout(overall);
  // A step that crashed before mocha could report counts as one failure, so it cannot pass silently.
  const failed = totals.failed + stepFailures + (timedOut ? 1 : 0);
  if (timedOut) failures.push(`the whole run: over its limit of ${OVERALL_MS / 60_000} min`);
  if (failures.length > 0) console.log(`\n── what failed ${'─'.repeat(56)}\n${failures.join('\n\n')}`);
  console.log(`\n${totals.passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

const want = (s) => only.length === 0 || only.includes(s);
const node = process.execPath;
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const mocha = path.join(root, 'node_modules/mocha/bin/mocha.js');
const eslint = path.join(root, 'node_modules/eslint/bin/eslint.js');
const prettier = path.join(root, 'node_modules/prettier/bin/prettier.cjs');
/** What `npm run lint` checks (package.json); kept here too so each tool runs as a step of its own. */
const LINTED = ['src', 'test', 'scripts', 'esbuild.mjs', 'eslint.config.mjs'];
const FORMATTED = ['src/**/*.ts', 'test/**/*.{ts,mjs,cjs}', 'scripts/**/*.mjs', 'esbuild.mjs', 'eslint.config.mjs'];

if (want('typecheck')) {
  mustPass(await step('type check', node, [tsc, '--noEmit', '-p', 'tsconfig.json'], 5 * 60_000));
  // The pages have a program of their own (DOM types), as in `npm run typecheck`.
  mustPass(await step('type check (webview pages)', node, [tsc, '--noEmit', '-p', 'src/webview/tsconfig.json'], 5 * 60_000));
}
if (want('lint')) {
  // An error (or a warning: --max-warnings 0) fails the run like a failed type check.
  mustPass(await step('lint (ESLint)', node, [eslint, '--max-warnings', '0', ...LINTED], 10 * 60_000));
  mustPass(await step('format check (Prettier)', node, [prettier, '--check', ...FORMATTED], 5 * 60_000));
}
if (want('build') || want('integration') || want('journeys') || want('smoke') || want('eval')) {
  const r = await step('build', node, ['esbuild.mjs', '--tests'], 5 * 60_000);
  if (r.code !== 0) {
    mustPass(r);
    report();
  }
}
if (want('unit')) {
  // 25 min: about 6 on a quiet 2-core machine, but over 15 when the machine is shared (seen here).
  count(await step('unit tests', node, [mocha], 25 * 60_000));
}
// The lanes: the floor first (engines.vscode's oldest VS Code), then the current one.
const LANES = LANE_NAMES.filter((l) => lanesAsked.length === 0 || lanesAsked.includes(l));
if (want('integration') || want('journeys') || want('mcp')) {
  for (const lane of LANES.filter((l) => l !== 'floor')) {
    // Its own step: a fresh machine installs Node 24 and code-server from npm here (minutes), quick when present.
    mustPass(await step(`install the ${lane} lane's VS Code`, 'bash', [`test/host/${lane}/install.sh`], 25 * 60_000));
  }
}
// The MCP server against a real MCP client, the MCP Inspector's CLI. It needs Node >= 22.19, so it runs with the
// current lane's Node 24 (installed just above), in a step of its own; here a missing Inspector fails, never skips.
if (want('mcp') && LANES.includes('current')) {
  const node24 = path.join(root, 'test/host/current/node/bin/node');
  const env = { ...process.env, KD_NODE24: node24, KD_REQUIRE_INSPECTOR: '1' };
  mustPass(await step('install the MCP Inspector (Node 24)', 'bash', ['test/mcp/install.sh'], 10 * 60_000, env));
  count(
    await step('MCP Inspector CLI against dist/mcp.js', node, [mocha], 5 * 60_000, {
      ...env,
      KD_SPEC: 'test/unit/mcp/inspectorCli.test.ts',
    }),
  );
}
for (const lane of LANES) {
  const laneArgs = lane === 'floor' ? [] : ['--lane', lane];
  if (want('integration')) {
    count(
      await step(
        `integration tests (real VS Code, ${lane} lane)`,
        node,
        // The host's own limit (--timeout, seconds) inside the step's: VS Code 1.139 runs the suite more slowly
        // (its chat and agent host start beside it; 75 tests took 15 minutes on a busy shared 2-core machine).
        [
          'test/host/runIntegration.mjs',
          '--skip-build',
          ...laneArgs,
          '--timeout',
          '1500',
          ...(process.env.KD_SCREENSHOTS ? ['--screenshots'] : []),
        ],
        27 * 60_000,
      ),
    );
  }
  if (want('journeys')) {
    // The user journeys (test/journeys), in English and in Japanese: each a step of its own, each ending with one summed
    // `mocha: N passed, N failed` line; their screenshots stay in test/host/.screenshots/[<lane>/]journeys-<locale>/.
    for (const locale of ['en', 'ja']) {
      count(
        await step(
          `user journeys (real VS Code, ${lane} lane, ${locale})`,
          node,
          [
            'test/host/runIntegration.mjs',
            '--skip-build',
            ...laneArgs,
            '--suite',
            'journeys',
            '--timeout',
            '600',
            ...(locale === 'en' ? [] : ['--locale', locale]),
          ],
          15 * 60_000,
        ),
      );
    }
  }
}
// After the integration tests: packaging rebuilds dist/ for production (no test API), which they must not get.
if (want('package')) {
  count(await step('package (.vsix)', node, [mocha], 10 * 60_000, { ...process.env, KD_SPEC: 'test/package/vsix.test.ts' }));
}
if (want('smoke')) {
  count(
    await step(
      'installed .vsix smoke (real VS Code)',
      node,
      [
        'test/host/runIntegration.mjs',
        '--skip-build',
        '--vsix',
        'knowledge-desk.vsix',
        ...(process.env.KD_SCREENSHOTS ? ['--screenshots'] : []),
      ],
      10 * 60_000,
    ),
  );
}
// The retrieval dev set's smoke run: two tiny fixture documents (the real set needs Debian packages: npm run eval).
if (want('eval')) {
  mustPass(await step('retrieval eval (smoke: fixture documents)', node, ['--import', 'tsx', 'test/eval/run.ts', '--smoke'], 3 * 60_000));
}
// Last: every bench once at tiny sizes (nothing judged), so none rots unseen. It rebuilds dist/ for production.
if (want('bench')) {
  mustPass(await step('benchmarks (smoke: tiny sizes, figures not judged)', node, ['scripts/bench.mjs', '--smoke'], 15 * 60_000));
}
report();
