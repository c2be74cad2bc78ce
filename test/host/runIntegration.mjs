// Builds the extension and its integration tests, makes sure the test host is installed, copies the
// fixture workspace and runs the suite in the real extension host.
// usage: node test/host/runIntegration.mjs [--screenshots] [--grep PATTERN] [--order name|reverse|shuffle:SEED] [--timeout SEC] [--locale ja]
//        node test/host/runIntegration.mjs --vsix knowledge-desk.vsix [--screenshots]
// --vsix installs the package into the host and runs the smoke journey (test/smoke) against that installed copy: the
// development extension is then test/smoke/extension, which only carries the test runner.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
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
    locale: { type: 'string' }, // VS Code's display language, e.g. ja (tests read it as vscode.env.language)
    vsix: { type: 'string' },
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
// The smoke journey opens a user's workspace (the samples'); the integration suites their fixtures.
fs.cpSync(path.join(root, a.vsix ? 'samples/workspace' : 'test/fixtures/workspace'), workspace, { recursive: true });
// A hostile workspace: its .vscode/settings.json points the Custom region (and the other user-only settings)
// at a loopback "trap" server that records every request it gets. Every integration suite runs in this workspace, and
// test/integration/workspaceTrust.test.ts checks that nothing reached the trap and that the user was told.
const trapLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kd-trap-')), 'requests.jsonl');
fs.writeFileSync(trapLog, '');
const trap = http.createServer((req, res) => {
  fs.appendFileSync(trapLog, JSON.stringify({ method: req.method, url: req.url, apiKey: req.headers['api-key'] ?? null }) + '\n');
  res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
});
await new Promise((resolve) => trap.listen(0, '127.0.0.1', resolve));
const trapUrl = `http://127.0.0.1:${trap.address().port}`;
if (!a.vsix) {
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
}
`,
  );
}

// The smoke journey always needs the driver's eyes (it checks what the installed copy shows); its screenshots are
// kept only with --screenshots (in .screenshots/vsix, beside those of the integration tests).
const shots = a.screenshots
  ? path.join(root, 'test/host/.screenshots', a.vsix ? 'vsix' : '')
  : a.vsix
    ? fs.mkdtempSync(path.join(os.tmpdir(), 'kd-smoke-shots-'))
    : undefined;
if (a.screenshots) fs.rmSync(shots, { recursive: true, force: true });
if (a.vsix && !fs.existsSync(a.vsix)) {
  console.error(`${a.vsix} does not exist: run npm run package first`);
  process.exit(2);
}

const env = { ...process.env, KD_TRAP_URL: trapUrl, KD_TRAP_LOG: trapLog };
if (a.grep) env.KD_TEST_GREP = a.grep;
if (a.order) env.KD_TEST_ORDER = a.order;
// The embedded local service finishes a RARE build of the test documents in milliseconds; slowed down, each job
// state lasts long enough for the Jobs view's polling (every 2–3 s while a job runs) to see it and for Cancel to land mid-build.
env.KD_LOCAL_JOB_STEP_DELAY_MS ??= '3000';
// The installed copy starts with an empty knowledge base; the smoke journey browses and asks the samples (as npm start).
if (a.vsix) env.KNOWLEDGE_DESK_LOCAL_SEED = path.join(root, 'samples/knowledge-base');
const args = [
  path.join(root, 'test/host/driver.mjs'),
  '--ext',
  a.vsix ? path.join(root, 'test/smoke/extension') : root,
  '--tests',
  path.join(root, a.vsix ? 'out/test/smoke/index' : 'out/test/integration/index'),
  '--workspace',
  workspace,
  '--timeout',
  a.timeout,
];
if (shots) args.push('--shots', shots);
if (a.locale) args.push('--locale', a.locale);
if (a.vsix) args.push('--vsix', path.resolve(a.vsix));
// Asynchronous: the trap server answers in this process while the suites run.
const child = spawn(process.execPath, args, { stdio: 'inherit', cwd: root, env });
const status = await new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 143 : 1))));
trap.closeAllConnections();
await new Promise((resolve) => trap.close(resolve));
fs.rmSync(workspace, { recursive: true, force: true });
fs.rmSync(path.dirname(trapLog), { recursive: true, force: true });
if (a.screenshots) console.log(`screenshots in ${shots}`);
else if (shots) fs.rmSync(shots, { recursive: true, force: true });
process.exit(status);
