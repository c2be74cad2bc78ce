// Runs inside the real extension host (npm run bench): activation figures of Knowledge Desk next to
// a minimal baseline extension measured in the same host, same run.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../../src/extension';

function freshRequire(file: string): { ms: number; mod: any } {
  delete require.cache[require.resolve(file)];
  const t = performance.now();
  const mod = require(file);
  return { ms: performance.now() - t, mod };
}

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<KnowledgeDeskTestApi>('knowledge-desk.knowledge-desk')!;
  const api = ext.isActive ? ext.exports : await ext.activate();
  const deadline = Date.now() + 30_000;
  while (api.container.connection.status.state !== 'connected' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const root = ext.extensionPath;
  const baselineFile = path.join(root, 'test/bench/fixtures/baselineExtension.js');
  const rows: Array<[string, number, number]> = [];
  const kdLoads: number[] = [];
  const baseLoads: number[] = [];
  const baseActs: number[] = [];
  for (let i = 0; i < 5; i++) {
    kdLoads.push(freshRequire(path.join(root, 'dist/extension.js')).ms);
    const { ms, mod } = freshRequire(baselineFile);
    baseLoads.push(ms);
    const context = { subscriptions: [] as vscode.Disposable[] };
    const t = performance.now();
    mod.activate(context);
    baseActs.push(performance.now() - t);
    context.subscriptions.forEach((d) => d.dispose());
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  rows.push(['minimal extension (baseline)', median(baseLoads), median(baseActs)]);
  rows.push(['Knowledge Desk', median(kdLoads), api.timings.activationMs]);
  console.log('\nActivation in the real extension host (VS Code ' + vscode.version + '), ms');
  console.log('  ' + ['', 'bundle load (median of 5)', 'activate()'].map((s, i) => (i ? s.padStart(26) : s.padEnd(30))).join(''));
  for (const [name, load, act] of rows) console.log('  ' + name.padEnd(30) + load.toFixed(1).padStart(26) + act.toFixed(1).padStart(26));
  console.log(
    '  activate() by step, ms: ' +
      Object.entries(api.timings.steps)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(' · '),
  );
  const first = api.timings.firstConnectedMs;
  console.log(
    `  Knowledge Desk: activation start → "Local · connected" (starts the local service, checks the key): ${first === undefined ? 'not reached' : first.toFixed(0) + ' ms'}`,
  );
  console.log('bench: done');
}
