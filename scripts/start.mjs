// npm start: builds the extension, installs the test host if needed, and runs Knowledge Desk in a
// real VS Code (code-server, in the browser) on 127.0.0.1, connected to the embedded local service.
// State (settings, keys, the local service's data) persists in .dev/ between runs, and so does the port
// (.dev/port): the browser keeps the workbench's state (chat history, the walkthrough's progress) per origin.
// usage: npm start [-- --port N] [-- --locale ja] [-- --fresh]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { choosePort, parseStartArgs, registerLocale } from './startOptions.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
let a;
try {
  a = parseStartArgs(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
const dev = path.join(root, '.dev');
if (a.fresh) fs.rmSync(dev, { recursive: true, force: true });

const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status;
if (run(process.execPath, ['esbuild.mjs']) !== 0) process.exit(1);
if (run('bash', ['test/host/install.sh']) !== 0) process.exit(3);

const workspace = path.join(dev, 'workspace');
if (!fs.existsSync(workspace)) fs.cpSync(path.join(root, 'samples/workspace'), workspace, { recursive: true });
for (const d of ['user-data/User', 'extensions', 'home', 'tmp']) fs.mkdirSync(path.join(dev, d), { recursive: true });
// .dev/ sits inside this repository: do not offer to open it as a git repository, and skip the welcome page.
const userSettings = path.join(dev, 'user-data/User/settings.json');
if (!fs.existsSync(userSettings)) {
  fs.writeFileSync(
    userSettings,
    JSON.stringify({ 'git.openRepositoryInParentFolders': 'never', 'workbench.startupEditor': 'none' }, null, 2),
  );
}

const chosen = await choosePort(path.join(dev, 'port'), a.port);
const port = chosen.port;
if (chosen.busy) {
  console.warn(
    `Port ${chosen.busy} (remembered in .dev/port) is in use; using ${port} for this run. The browser keeps VS Code's state ` +
      `(chat history, open editors) per port, so this window starts without it. Free ${chosen.busy} or run npm start -- --port N.`,
  );
}
// The display language (as the test host does it, test/host/driver.mjs): see README, Japanese UI.
registerLocale(path.join(dev, 'user-data'), a.locale);

const home = path.join(dev, 'home');
const env = {
  ...process.env,
  HOME: home,
  TMPDIR: path.join(dev, 'tmp'),
  XDG_CONFIG_HOME: `${home}/.config`,
  XDG_CACHE_HOME: `${home}/.cache`,
  XDG_DATA_HOME: `${home}/.local/share`,
  EXTENSIONS_GALLERY: '{}',
  // The embedded local service imports these sample documents the first time its data folder is empty.
  KNOWLEDGE_DESK_LOCAL_SEED: path.join(root, 'samples/knowledge-base'),
};
const server = spawn(
  path.join(root, 'test/host/node_modules/.bin/code-server'),
  [
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    path.join(dev, 'user-data'),
    '--extensions-dir',
    path.join(dev, 'extensions'),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--config',
    path.join(dev, 'config.yaml'),
    ...(a.locale ? ['--locale', a.locale] : []),
  ],
  { cwd: root, env, detached: true, stdio: ['ignore', fs.openSync(path.join(dev, 'code-server.log'), 'a'), 'pipe'] },
);
const stop = () => {
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {}
  setTimeout(() => process.exit(0), 1500).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => {
  console.log(`code-server exited (${code})`);
  process.exit(code ?? 0);
});
server.stderr.pipe(process.stderr);

for (let i = 0; i < 600; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
  } catch {}
  await new Promise((r) => setTimeout(r, 100));
}
const payload = JSON.stringify([
  ['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${port}${root}`],
  ['skipWelcome', 'true'],
]);
const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`;
fs.writeFileSync(path.join(dev, 'url.txt'), url + '\n');
console.log(
  `\nKnowledge Desk is running in VS Code at:\n\n  ${url}\n\nOpen it in a browser on this machine. Ctrl+C stops it. (URL also in .dev/url.txt)\n`,
);
