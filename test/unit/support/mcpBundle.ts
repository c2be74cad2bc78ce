// dist/mcp.js and the dist/local.js it loads, built from the current sources into a temporary folder, so
// the MCP tests run the real bundle without depending on (or overwriting) the project's dist/.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(__dirname, '../../..');

export async function buildMcpBundle(): Promise<{ dir: string; mcp: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kd-mcp-bundle-'));
  await build({
    absWorkingDir: ROOT,
    entryPoints: { mcp: 'src/mcp/entry.ts', local: 'src/local/entry.ts', extractWorker: 'src/local/extract/worker.ts' },
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    // The test build: tests start the bundled service with its test options (src/testBuild.d.ts).
    define: { 'globalThis.__KD_TEST__': 'true' },
    target: 'node20',
    logLevel: 'error',
  });
  return { dir, mcp: path.join(dir, 'mcp.js'), remove: () => rm(dir, { recursive: true, force: true }) };
}
