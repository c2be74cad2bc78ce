// Builds the extension and its integration tests, makes sure the test host is installed, copies the
// fixture workspace and runs the suite in the real extension host.
// usage: node test/host/runIntegration.mjs [--lane floor|current] [--suite integration|journeys] [--screenshots] [--grep PATTERN] [--order name|reverse|shuffle:SEED]
//                                          [--timeout SEC] [--locale ja] [--window NAME]
//        node test/host/runIntegration.mjs --vsix knowledge-desk.vsix [--screenshots]
// --vsix installs the package into the host and runs the smoke journey (test/smoke) against that installed copy: the
// development extension is then test/smoke/extension, which only carries the test runner.
// --suite journeys runs test/journeys (out/test/journeys): one host start per window of JOURNEY_WINDOWS, screenshots always
// (test/host/.screenshots/journeys-<locale>/), and one summed `mocha: N passed, N failed` line at the end.
// --lane picks the VS Code (test/host/lanes.mjs): floor (1.100.3, the default) or current (1.139.1); each installs
// itself on first use. The current lane's screenshots go to test/host/.screenshots/current/.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { installLane, lane as laneOf } from './lanes.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const { values: a } = parseArgs({
  options: {
    screenshots: { type: 'boolean', default: false },
    grep: { type: 'string' },
    order: { type: 'string' }, // name (default), reverse, shuffle:<seed>: suites must pass in any order
    timeout: { type: 'string', default: '900' },
    'skip-build': { type: 'boolean', default: false },
    locale: { type: 'string' }, // VS Code's display language, e.g. ja (tests read it as vscode.env.language)
    suite: { type: 'string', default: 'integration' },
    window: { type: 'string' },
    lane: { type: 'string', default: 'floor' },
    vsix: { type: 'string' }, // --suite journeys: only this window of JOURNEY_WINDOWS (e.g. first-launch)
  },
});

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

try {
  laneOf(a.lane);
} catch (e) {
  console.error(e.message);
  process.exit(2);
}
if (!a['skip-build'] && run(process.execPath, ['esbuild.mjs', '--tests']) !== 0) process.exit(1);
const installStarted = Date.now();
if (installLane(a.lane, { cwd: root }) !== 0) {
  console.error(`The ${a.lane} lane's test host could not be installed (see above).`);
  process.exit(3);
}
console.log(`${a.lane} lane (VS Code ${laneOf(a.lane).vscode}): test host ready in ${((Date.now() - installStarted) / 1000).toFixed(1)} s`);

/**
 * The journeys' windows, in order: each is a host start of its own (a fresh profile: user data, global storage, the
 * local service's data). A journey that needs a window in which nothing happened before it comes first in its window.
 * `files` are test/journeys/<file>.test.ts, run in this order; the reload journey restarts the extension host, so it
 * comes last. Every window imports the samples on the first start of the local service, as `npm start` does.
 */
const JOURNEY_WINDOWS = [
  { name: 'first-launch', files: ['firstLaunch'] },
  { name: 'fresh-window', files: ['freshChat', 'qnaRoundTrip', 'uploadCancel', 'reload'] },
  // Two local projects, then a restart (a reload of the window, as the reload journey does): both connections and keys.
  { name: 'connections-restart', files: ['connectionsRestart'] },
  // A chat pinned to a second local project, a switch, then a reload: the chat comes back on its project.
  { name: 'chat-pinned-reload', files: ['chatPinnedReload'] },
  // VS Code's own chat view, asked before anything else in the window: it needs a language model, which only the
  // current lane has (the test-only echo model needs vscode.lm.registerLanguageModelChatProvider, VS Code 1.104).
  {
    name: 'chat-view',
    files: ['chatView'],
    lanes: ['current'],
    why: 'the chat view needs a language model: the test-only echo model needs VS Code 1.104 (registerLanguageModelChatProvider)',
  },
];

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-ws-'));
// A hostile workspace: its .vscode/settings.json points the Custom region (and the other user-only settings, and
// its preferred connection's name) at a loopback "trap" server that records every request it gets. Every suite runs in this workspace, and
// test/integration/workspaceTrust.test.ts checks that nothing reached the trap and that the user was told.
const trapLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kd-trap-')), 'requests.jsonl');
fs.writeFileSync(trapLog, '');
const trap = http.createServer((req, res) => {
  fs.appendFileSync(trapLog, JSON.stringify({ method: req.method, url: req.url, apiKey: req.headers['api-key'] ?? null }) + '\n');
  res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
});
await new Promise((resolve) => trap.listen(0, '127.0.0.1', resolve));
const trapUrl = `http://127.0.0.1:${trap.address().port}`;

/** A fresh copy of the fixture workspace with the hostile settings; for the smoke journey, a user's workspace (the samples'). */
function freshWorkspace() {
  fs.rmSync(workspace, { recursive: true, force: true });
  if (a.vsix) {
    fs.cpSync(path.join(root, 'samples/workspace'), workspace, { recursive: true });
    return;
  }
  fs.cpSync(path.join(root, 'test/fixtures/workspace'), workspace, { recursive: true });
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'settings.json'),
    `// Written by test/host/runIntegration.mjs: Knowledge Desk must ignore every one of these.
{
  "knowledgeDesk.region": "custom",
  "knowledgeDesk.custom.baseUrl": "${trapUrl}",
  "knowledgeDesk.custom.nluUrl": "${trapUrl}/nlu",
  "knowledgeDesk.identity.ownUserId": "someone-else",
  "knowledgeDesk.logRawStream": true,
  "knowledgeDesk.webview.allowRemoteImages": true,
  "knowledgeDesk.local.maxUploadMb": 1,
  "knowledgeDesk.local.writer": "vscode",
  "knowledgeDesk.local.writerModel": { "vendor": "kd-echo", "id": "echo" },
  // A workspace may prefer a connection by name only: this names none of the user's, so nothing changes.
  "knowledgeDesk.connection": "${trapUrl}",
}
`,
  );
}

const journeys = a.suite === 'journeys';
if (!['integration', 'journeys'].includes(a.suite)) {
  console.error(`unknown --suite ${a.suite} (integration or journeys)`);
  process.exit(2);
}
// The journeys always take their screenshots (cheap), into a folder per display language. The smoke journey always
// needs the driver's eyes (it checks what the installed copy shows); its screenshots are kept only with --screenshots.
const shotsRoot = path.join(root, 'test/host/.screenshots', a.lane === 'floor' ? '' : a.lane);
const shots = journeys
  ? path.join(shotsRoot, `journeys-${a.locale ?? 'en'}`)
  : a.screenshots
    ? path.join(shotsRoot, a.vsix ? 'vsix' : '')
    : a.vsix
      ? fs.mkdtempSync(path.join(os.tmpdir(), 'kd-smoke-shots-'))
      : undefined;
// (A run of one journeys window keeps the other windows' screenshots.)
if (shots && !a.window && (journeys || a.screenshots)) fs.rmSync(shots, { recursive: true, force: true });
if (a.vsix && !fs.existsSync(a.vsix)) {
  console.error(`${a.vsix} does not exist: run npm run package first`);
  process.exit(2);
}

const baseEnv = { ...process.env, KD_TRAP_URL: trapUrl, KD_TRAP_LOG: trapLog };
if (a.grep) baseEnv.KD_TEST_GREP = a.grep;
if (a.order) baseEnv.KD_TEST_ORDER = a.order;
// The embedded local service finishes a RARE build of the test documents in milliseconds; slowed down, each job
// state lasts long enough for the Jobs view's polling (every 2–3 s while a job runs) to see it and for Cancel to land mid-build.
baseEnv.KD_LOCAL_JOB_STEP_DELAY_MS ??= '3000';

/** One host start: the driver runs `tests` in a new window of a fresh workspace; resolves with its exit status. */
async function runWindow(tests, env, ext = root) {
  freshWorkspace();
  const args = [path.join(root, 'test/host/driver.mjs'), '--ext', ext, '--tests', tests, '--workspace', workspace, '--timeout', a.timeout];
  args.push('--lane', a.lane);
  if (shots) args.push('--shots', shots);
  if (a.locale) args.push('--locale', a.locale);
  if (a.vsix) args.push('--vsix', path.resolve(a.vsix));
  // Asynchronous: the trap server answers in this process while the suites run.
  const child = spawn(process.execPath, args, { stdio: 'inherit', cwd: root, env });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 143 : 1))));
}

let status = 0;
if (a.vsix) {
  // The installed copy starts with an empty knowledge base; the smoke journey browses and asks the samples (as npm start).
  const env = { ...baseEnv, KNOWLEDGE_DESK_LOCAL_SEED: path.join(root, 'samples/knowledge-base') };
  status = await runWindow(path.join(root, 'out/test/smoke/index'), env, path.join(root, 'test/smoke/extension'));
} else if (!journeys) {
  status = await runWindow(path.join(root, 'out/test/integration/index'), baseEnv);
} else {
  // Each window's index writes one line per finished journey to its ledger (a window whose extension host is
  // reloaded runs the index twice); a journey with no line did not finish and counts as failed.
  const totals = { passed: 0, failed: 0, pending: 0 };
  for (const w of JOURNEY_WINDOWS.filter((x) => !a.window || x.name === a.window)) {
    if (w.lanes && !w.lanes.includes(a.lane)) {
      // Never silently absent: counted as pending, with the reason.
      console.log(`\n── journeys window "${w.name}": skipped in the ${a.lane} lane (${w.files.join(', ')}): ${w.why}`);
      totals.pending += w.files.length;
      continue;
    }
    const state = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-journey-'));
    const env = {
      ...baseEnv,
      KD_JOURNEYS: w.files.join(','),
      KD_JOURNEY_STATE: state,
      KNOWLEDGE_DESK_LOCAL_SEED: path.join(root, 'samples/knowledge-base'),
    };
    console.log(`\n── journeys window "${w.name}": ${w.files.join(', ')}`);
    const code = await runWindow(path.join(root, 'out/test/journeys/index'), env);
    const ledgerFile = path.join(state, 'ledger.jsonl');
    const ledger = fs.existsSync(ledgerFile)
      ? fs
          .readFileSync(ledgerFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
    for (const file of w.files) {
      // A journey of several tests (chatView) passes when every one of them did.
      const entries = ledger.filter((e) => e.file === file);
      const failed = entries.find((e) => e.state !== 'passed');
      if (entries.length && !failed) totals.passed++;
      else {
        totals.failed++;
        console.log(`journey ${file}: ${failed ? `failed: ${failed.title}: ${failed.error}` : `did not finish (window exit ${code})`}`);
      }
    }
    if (code !== 0 && ledger.every((e) => e.state === 'passed') && ledger.length === w.files.length) totals.failed++;
    fs.rmSync(state, { recursive: true, force: true });
  }
  console.log(`screenshots in ${shots}`);
  console.log(`mocha: ${totals.passed} passed, ${totals.failed} failed, ${totals.pending} pending`);
  status = totals.failed ? 1 : 0;
}
trap.closeAllConnections();
await new Promise((resolve) => trap.close(resolve));
fs.rmSync(workspace, { recursive: true, force: true });
fs.rmSync(path.dirname(trapLog), { recursive: true, force: true });
if (a.screenshots && !journeys) console.log(`screenshots in ${shots}`);
else if (shots && a.vsix) fs.rmSync(shots, { recursive: true, force: true });
process.exit(status);
