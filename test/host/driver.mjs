// Runs mocha tests inside a real VS Code extension host: code-server of a lane (test/host/lanes.mjs: floor 1.100.3,
// current 1.139.1 on Node 24) with headless Debian Chromium (playwright-core) as the workbench client.
// Exit code = test result (0 pass, 1 fail, 3 infrastructure error, 124 timeout, 130/143 interrupted).
//
// usage: node driver.mjs --ext DIR --tests MODULE [--lane floor|current] [--workspace DIR] [--shots DIR] [--timeout SEC] [--locale ja] [--vsix FILE] [--user-data DIR]
//
// --vsix FILE installs that package into the throwaway extensions folder first (code-server --install-extension),
// so the installed copy runs beside the development extension --ext (see runIntegration.mjs --vsix).
//
// Screenshots: a test writes <shots>/<name>.request and waits for <name>.done; the driver saves
// <shots>/<name>.png of the whole workbench in between (the extension host cannot see the page). A request
// naming a waitForSelector is shot once that element is visible; <name>.done says why when it never was. A request
// { "click": "..." } clicks that element instead (test/journeys: what a person presses outside a webview).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { format, parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { registerLocale } from '../../scripts/startOptions.mjs';
import { lane as laneOf, lanePath } from './lanes.mjs';
import { packTestExtension } from './testExtensionVsix.mjs';

const { values: a } = parseArgs({
  options: {
    ext: { type: 'string' },
    tests: { type: 'string' },
    workspace: { type: 'string' },
    shots: { type: 'string' },
    timeout: { type: 'string', default: '600' },
    // VS Code's display language (code-server --locale): see CONTRIBUTING.md, Translating.
    locale: { type: 'string' },
    vsix: { type: 'string' },
    lane: { type: 'string', default: 'floor' },
    // A user data folder that outlives this run (global storage included): the host bench starts a second window on it.
    'user-data': { type: 'string' },
    'code-server': { type: 'string' },
    chromium: { type: 'string', default: process.env.CHROMIUM_BIN || '/usr/bin/chromium' },
  },
});
if (!a.ext || !a.tests) {
  console.error('need --ext and --tests');
  process.exit(2);
}
const lane = laneOf(a.lane);
a['code-server'] ??= process.env.CODE_SERVER_BIN || lane.codeServer;

const t0 = Date.now();
const log = (...m) => console.log(`[host +${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...m);
// Short TMPDIR: unix socket paths of the extension host are limited to 108 characters.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-host-'));
const workspace = path.resolve(a.workspace || fs.mkdtempSync(path.join(tmp, 'ws-')));
const shots = a.shots ? path.resolve(a.shots) : undefined;
if (shots) fs.mkdirSync(shots, { recursive: true });
const serverLogPath = path.join(tmp, 'code-server.log');
const userData = a['user-data'] ? path.resolve(a['user-data']) : path.join(tmp, 'user-data');

const port = await new Promise((resolve, reject) => {
  const s = net.createServer();
  s.on('error', reject);
  s.listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});

let server;
let browser;
let finished = false;
async function finish(code, why) {
  if (finished) return;
  finished = true;
  log(`finishing: ${why} -> exit ${code}`);
  if (code !== 0 && fs.existsSync(serverLogPath)) {
    console.log('--- code-server log (tail) ---\n' + fs.readFileSync(serverLogPath, 'utf8').split('\n').slice(-30).join('\n'));
  }
  try {
    await browser?.close();
  } catch {}
  if (server && server.exitCode === null) {
    // code-server and its extension host run in their own process group: stop all of it.
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {}
    await new Promise((r) => setTimeout(r, 1500));
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {}
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => finish(130, 'SIGINT'));
process.on('SIGTERM', () => finish(143, 'SIGTERM'));
setTimeout(() => finish(124, `timeout after ${a.timeout}s`), Number(a.timeout) * 1000).unref();

// 1. code-server: VS Code server + node extension host, loopback only, no auth, throwaway dirs and HOME.
const home = path.join(tmp, 'home');
fs.mkdirSync(home);
fs.mkdirSync(path.join(tmp, 't'));
const hermetic = {
  HOME: home,
  TMPDIR: path.join(tmp, 't'),
  XDG_CONFIG_HOME: `${home}/.config`,
  XDG_CACHE_HOME: `${home}/.cache`,
  XDG_DATA_HOME: `${home}/.local/share`,
};
// PATH: the lane's Node first (code-server's bin starts with `#!/usr/bin/env node`; the current lane needs Node 24).
// KD_LANE: inherited by the extension host, where tests that need a newer VS Code ask for it (support/lane.ts).
const env = {
  ...process.env,
  ...hermetic,
  PATH: lanePath(a.lane),
  KD_LANE: a.lane,
  EXTENSIONS_GALLERY: process.env.EXTENSIONS_GALLERY ?? '{}',
};
if (shots) env.KD_SCREENSHOT_DIR = shots; // inherited by the extension host
const extensionsDir = path.join(tmp, 'extensions');
// The lane's test-only extensions (the current lane's fake language model), installed as the user would.
for (const dir of lane.extraExtensions) {
  const vsix = await packTestExtension(dir, path.join(tmp, `${path.basename(dir)}.vsix`));
  const r = spawnSync(a['code-server'], ['--user-data-dir', userData, '--extensions-dir', extensionsDir, '--install-extension', vsix], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  log(`test extension ${path.basename(dir)}: ${(r.stdout + r.stderr).trim().split('\n').slice(-1)[0]}`);
  if (r.status !== 0) await finish(3, `installing the test extension ${dir} failed (${r.status ?? r.error})`);
}
if (a.vsix) {
  // The same command a user runs; the smoke test checks that Knowledge Desk then runs from this folder.
  env.KD_EXTENSIONS_DIR = extensionsDir;
  const install = spawnSync(
    a['code-server'],
    ['--user-data-dir', userData, '--extensions-dir', extensionsDir, '--install-extension', path.resolve(a.vsix)],
    { env, encoding: 'utf8', timeout: 120_000 },
  );
  log(`code-server --install-extension ${a.vsix}: ${(install.stdout + install.stderr).trim().split('\n').slice(-2).join(' / ')}`);
  if (install.status !== 0) await finish(3, `installing ${a.vsix} failed (${install.status ?? install.error})`);
}
// Workbench queries from the tests, with or without screenshots: a test writes <queries>/<name>.query
// ({ "selector": "...", "timeoutMs": N }) and the driver answers <name>.answer with "visible" once that element is
// visible, or "not visible" after the timeout (what the extension host cannot see: a walkthrough step's tick);
// with { "click": true } the driver also clicks it, and "visible" means it was clicked; { "fill": "text" } types into it.
const queries = path.join(tmp, 'queries');
fs.mkdirSync(queries);
env.KD_HOST_QUERY_DIR = queries;
// --locale: a stub language pack makes the display language take effect for extensions without a download
// (scripts/startOptions.mjs, shared with npm start; CONTRIBUTING.md, Translating).
registerLocale(userData, a.locale, path.join(tmp, 'locale-pack'));
const serverLog = fs.openSync(serverLogPath, 'w');
server = spawn(
  a['code-server'],
  [
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    userData,
    '--extensions-dir',
    extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--log',
    'info',
    '--config',
    path.join(tmp, 'config.yaml'),
    ...(a.locale ? ['--locale', a.locale] : []),
    ...lane.vscodeOptions.flatMap((o) => ['--vscode-option', o]),
  ],
  { detached: true, stdio: ['ignore', serverLog, serverLog], env },
);
server.on('exit', (c, s) => finish(3, `code-server exited early (${c ?? s})`));

for (let i = 0; ; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
  } catch {}
  if (i > 600) await finish(3, 'code-server did not start in 60s');
  await new Promise((r) => setTimeout(r, 100));
}
log(`code-server on 127.0.0.1:${port} (process group ${server.pid})`);

// 2. headless Chromium as the workbench client
browser = await chromium.launch({
  executablePath: a.chromium,
  headless: true,
  env: { ...process.env, ...hermetic },
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
  ],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
page.on('pageerror', (e) => log('pageerror:', e.message));
// What a webview's host frame says about loading its page (service worker, fatal errors): a page that never
// says ready leaves its reason here.
page.on('console', (m) => {
  const text = m.text();
  if (/service worker|controllerchange|webview fatal|error loading webview/i.test(text)) log(`browser ${m.type()}: ${text.slice(0, 400)}`);
});
page.on('crash', () => finish(3, 'page crashed'));

// The web workbench calls these in extension-test mode (as VS Code's own browser integration tests do).
await page.exposeFunction('codeAutomationLog', (type, args) =>
  (console[type] || console.log)(Array.isArray(args) ? format(...args) : String(args)),
);
await page.exposeFunction('codeAutomationExit', (code) => finish(code === 0 ? 0 : 1, `extension host exited with ${code}`));

// 3. screenshot requests from the tests (the .request file may hold { "waitForSelector": "..." })
const SELECTOR_TIMEOUT_MS = 10_000;
if (shots) {
  (async () => {
    while (!finished) {
      for (const f of fs.readdirSync(shots).filter((n) => n.endsWith('.request'))) {
        const name = f.slice(0, -'.request'.length);
        const request = fs.readFileSync(path.join(shots, f), 'utf8');
        fs.rmSync(path.join(shots, f), { force: true });
        // A test may name a workbench element that shows the UI settled (a hover, a resized view): wait for it
        // to be visible, bounded, and tell the test when it never was instead of shooting the wrong state.
        const { waitForSelector, click } = request.trim() ? JSON.parse(request) : {};
        // A click request (the journeys: a button of a notification, as a person presses it) clicks the first
        // visible element it names instead of taking a screenshot.
        if (click) {
          try {
            await page.locator(click).first().click({ timeout: SELECTOR_TIMEOUT_MS });
            fs.writeFileSync(path.join(shots, `${name}.done`), 'ok');
          } catch (e) {
            log(`click ${name}: ${click}: ${e.message.split('\n')[0]}`);
            fs.writeFileSync(path.join(shots, `${name}.done`), `${click} could not be clicked: ${e.message.split('\n')[0]}`);
          }
          continue;
        }
        if (waitForSelector) {
          try {
            await page.locator(waitForSelector).first().waitFor({ state: 'visible', timeout: SELECTOR_TIMEOUT_MS });
          } catch {
            log(`screenshot ${name}: ${waitForSelector} not visible after ${SELECTOR_TIMEOUT_MS} ms`);
            // What was there instead, for the person reading the failure.
            await page.screenshot({ path: path.join(shots, `${name}.png`) }).catch(() => undefined);
            fs.writeFileSync(path.join(shots, `${name}.done`), `${waitForSelector} was not visible after ${SELECTOR_TIMEOUT_MS} ms`);
            continue;
          }
        }
        // Tests ask for a screenshot once what it shows is there (a page's own "rendered" event, a selector above);
        // what is left is the browser painting it: fonts loaded and two animation frames, not a fixed pause.
        // (A string: it runs in the browser, where document and requestAnimationFrame exist.)
        await page.evaluate('document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))');
        await page.screenshot({ path: path.join(shots, `${name}.png`) });
        log(`screenshot: ${path.join(shots, `${name}.png`)}`);
        fs.writeFileSync(path.join(shots, `${name}.done`), 'ok');
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  })().catch((e) => log('screenshot failed:', e));
}

(async () => {
  while (!finished) {
    for (const f of fs.readdirSync(queries).filter((n) => n.endsWith('.query'))) {
      const name = f.slice(0, -'.query'.length);
      const { selector, timeoutMs = SELECTOR_TIMEOUT_MS, read, click, fill } = JSON.parse(fs.readFileSync(path.join(queries, f), 'utf8'));
      fs.rmSync(path.join(queries, f), { force: true });
      let answer = 'visible';
      try {
        await page.locator(selector).first().waitFor({ state: 'visible', timeout: timeoutMs });
        // { click: true }: pressed as a person presses it (a progress notification's Cancel), in every run.
        if (click) await page.locator(selector).first().click({ timeout: timeoutMs });
        // { fill: "text" }: typed into that input as a person types it (a quick pick's filter box).
        if (typeof fill === 'string') await page.locator(selector).first().fill(fill, { timeout: timeoutMs });
        // { read: true }: what a person reads there, every match's text (the chat view's rendered answer).
        if (read) answer = JSON.stringify({ texts: await page.locator(selector).allInnerTexts() });
      } catch {
        answer = read ? JSON.stringify({ texts: null }) : 'not visible';
      }
      fs.writeFileSync(path.join(queries, `${name}.answer`), answer);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
})().catch((e) => log('workbench query failed:', e));

const remote = (p) => `vscode-remote://127.0.0.1:${port}${path.resolve(p)}`;
const payload = JSON.stringify([
  ['extensionDevelopmentPath', remote(a.ext)],
  ['extensionTestsPath', remote(a.tests)],
  ['skipWelcome', 'true'],
]);
// A busy machine loads the workbench slowly (30 s, playwright's default, was seen to run out); a load that never
// comes ends the run through finish(), which also stops code-server (an uncaught error here left it running).
try {
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`, {
    timeout: 180_000,
  });
} catch (e) {
  await finish(3, `the workbench did not load: ${e.message.split('\n')[0]}`);
}
log('workbench loaded; tests run in the extension host');
