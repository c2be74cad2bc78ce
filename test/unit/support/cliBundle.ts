// dist/cli.js and the dist/local.js it loads, built from the current sources into a temporary folder (as
// mcpBundle.ts does for dist/mcp.js), so the CLI tests run the real bundle without touching the project's dist/.
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
