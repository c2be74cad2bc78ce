// dist/cli.js and the dist/local.js it loads, built from the current sources into a temporary folder (as
// mcpBundle.ts does for dist/mcp.js), so the CLI tests run the real bundle without touching the project's dist/.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(__dirname, '../../..');

export async function buildCliBundle(): Promise<{ dir: string; cli: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kd-cli-bundle-'));
  await build({
    absWorkingDir: ROOT,
    entryPoints: { cli: 'src/cli/entry.ts', local: 'src/local/entry.ts', extractWorker: 'src/local/extract/worker.ts' },
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });
  return { dir, cli: path.join(dir, 'cli.js'), remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bundled CLI in `cwd` with a bare environment (no key, no region from the developer's shell). */
export function runCli(cli: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}
