// Starts dist/local.js in its own process (so the client's figures are not mixed with the server's)
// and stops it by the pid that started it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface LocalProcess {
  url: string;
  apiKey: string;
  /** Key of the entity-recognition routes (printed as "NLU key:"). */
  nluApiKey: string;
  pid: number;
  stop(): Promise<void>;
}

const started = new Set<ChildProcess>();
// A benchmark that fails or is interrupted still stops every service it started, by pid.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
process.once('exit', () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
});

export interface LocalProcessOptions {
  /** Another build of the service (a baseline); default dist/local.js. */
  script?: string;
  /** An existing data folder, kept on stop; default a fresh temporary one, removed on stop. */
  dataDir?: string;
  /** How long the service may take to print its keys (default 20 s; a big data folder takes longer). */
  startTimeoutMs?: number;
}

export async function startLocalProcess(extraArgs: string[] = [], options: LocalProcessOptions = {}): Promise<LocalProcess> {
  const dir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'kd-bench-svc-')));
  const script = path.resolve(options.script ?? 'dist/local.js');
  const child: ChildProcess = spawn(process.execPath, [script, '--data', dir, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.add(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const deadline = Date.now() + (options.startTimeoutMs ?? 20_000);
  while (!/API key:\s+\S+/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`local service did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: /URL:\s+(\S+)/.exec(out)![1],
    apiKey: /API key:\s+(\S+)/.exec(out)![1],
    nluApiKey: /NLU key:\s+(\S+)/.exec(out)?.[1] ?? '',
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      started.delete(child);
      if (!options.dataDir) await rm(dir, { recursive: true, force: true });
    },
  };
}
