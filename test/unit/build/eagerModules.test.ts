// What activation loads: the modules reachable from src/extension.ts through static imports are initialised
// (and, in dist/main.js, compiled or read from the code cache) in every window. Libraries and command modules
// that only some commands use are required on first use instead (issue 25, docs/architecture.md#startup).
import assert from 'node:assert/strict';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '../../..');

async function eagerImports(): Promise<{ modules: Set<string>; packages: Set<string> }> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/extension.ts'],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    define: { 'globalThis.__KD_TEST__': 'false' },
    logLevel: 'silent',
  });
  const inputs = result.metafile.inputs;
  const modules = new Set<string>(['src/extension.ts']);
  const packages = new Set<string>();
  const queue = ['src/extension.ts'];
  for (let file = queue.shift(); file; file = queue.shift()) {
    for (const i of inputs[file]?.imports ?? []) {
      // require() calls are the lazy loads; only static imports run at activation.
      if (i.kind !== 'import-statement') continue;
      if (i.external) packages.add(i.path);
      else if (!modules.has(i.path)) {
        modules.add(i.path);
        queue.push(i.path);
      }
    }
  }
  return { modules, packages };
}

describe('What activation loads', function () {
  this.timeout(30_000);

  it('no library that only some commands use (YAML, CSV parsing, ZIP, exceljs, zod) is imported on the way to activate()', async () => {
    const { packages } = await eagerImports();
    // zod: building schemas was about a third of loading dist/main.js; the stored connections and the page
    // states are read without it, and the page protocols load with their first panel.
    const lazyOnly = ['yaml', 'csv-parse', 'csv-parse/sync', 'yazl', 'exceljs', 'undici', 'zod'];
    assert.deepEqual(
      [...packages].filter((p) => lazyOnly.includes(p)),
      [],
    );
  });

  it('the command groups of Knowledge Base, Q&A import and Jobs load on their first command, not at activation', async () => {
    const { modules } = await eagerImports();
    const lazy = [
      'src/features/knowledgeBase/kbUploadCommands.ts',
      'src/features/knowledgeBase/uploadFlow.ts',
      'src/features/knowledgeBase/kbInspectCommands.ts',
      'src/features/qna/importFlow.ts',
      'src/features/qna/qnaFileCommands.ts',
      'src/core/qaFile/readQaFile.ts',
      'src/features/jobs/jobsCommands.ts',
      'src/api/client.ts',
      // The page protocols' schemas and the panel host: a panel's first use or restore.
      'src/platform/webview/protocol.ts',
      'src/platform/webview/webviewPanel.ts',
    ];
    assert.deepEqual(
      lazy.filter((m) => modules.has(m)),
      [],
    );
    // The walk itself works: the feature registrars are reached.
    assert.ok(modules.has('src/features/knowledgeBase/knowledgeBaseFeature.ts'));
  });
});
