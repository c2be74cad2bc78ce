// Runs inside the real extension host (npm run bench): activation figures of Knowledge Desk next to
// a minimal baseline extension measured in the same host, same run.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../../src/extension';

// Wall time and this process's CPU time: on a shared, busy machine the wall time mostly measures waiting.
function freshRequire(file: string): { ms: number; cpuMs: number; mod: any } {
  delete require.cache[require.resolve(file)];
  const cpu = process.cpuUsage();
  const t = performance.now();
  const mod = require(file);
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, mod };
}

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<KnowledgeDeskTestApi>('knowledge-desk.knowledge-desk')!;
  const api = ext.isActive ? ext.exports : await ext.activate();
  // Nothing has used Knowledge Desk in this window yet: activation must have started nothing.
  const idleAtStart = api.container.connection.status.state === 'idle' && !api.container.localService.isStarted;
  const used = performance.now();
  await vscode.commands.executeCommand('knowledgeDesk.checkConnection');
  const deadline = Date.now() + 30_000;
  while (api.container.connection.status.state !== 'connected' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const firstUseMs = api.container.connection.status.state === 'connected' ? performance.now() - used : undefined;
  const root = ext.extensionPath;
  const baselineFile = path.join(root, 'test/bench/fixtures/baselineExtension.js');
  const rows: Array<[string, number, number]> = [];
  const kdLoads: number[] = [];
  const kdLoadsCpu: number[] = [];
  const baseLoadsCpu: number[] = [];
  const baseLoads: number[] = [];
  const baseActs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const kd = freshRequire(path.join(root, 'dist/extension.js'));
    kdLoads.push(kd.ms);
    kdLoadsCpu.push(kd.cpuMs);
    const { ms, cpuMs, mod } = freshRequire(baselineFile);
    baseLoads.push(ms);
    baseLoadsCpu.push(cpuMs);
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
  console.log(
    `  bundle load, CPU time of this process (median of 5): Knowledge Desk ${median(kdLoadsCpu).toFixed(1)} ms, minimal extension ${median(baseLoadsCpu).toFixed(1)} ms; activate() CPU ${api.timings.activationCpuMs.toFixed(1)} ms`,
  );
  const kdTotal = median(kdLoads) + api.timings.activationMs;
  const baseTotal = median(baseLoads) + median(baseActs);
  console.log(
    `  bundle load + activate(): Knowledge Desk ${kdTotal.toFixed(1)} ms, minimal extension ${baseTotal.toFixed(1)} ms (target: under 25 ms)`,
  );
  console.log(`  after activation, before any use: ${idleAtStart ? 'idle (no local service, no data folder read)' : 'NOT idle'}`);
  console.log(
    `  first use (Check Connection) → "Local · connected" (loads undici and the client, starts the local service, checks the key): ${firstUseMs === undefined ? 'not reached' : firstUseMs.toFixed(0) + ' ms'}`,
  );
  console.log('bench: done');
}
