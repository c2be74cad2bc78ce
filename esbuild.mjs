// Builds every bundle of the extension. Usage: node esbuild.mjs [--production] [--watch] [--tests]
//   boot       src/boot.ts           -> dist/extension.js   (loads dist/main.js with a V8 code cache)
//   extension  src/extension.ts      -> dist/main.js        (node, cjs, vscode external)
//   local      src/local/entry.ts    -> dist/local.js       (node, cjs; loaded only for the Local region,
//                                                            also runnable: node dist/local.js --data DIR)
//   worker     src/local/extract/worker.ts -> dist/extractWorker.js (text extraction threads)
//   xlsx       src/core/qaFile/xlsxReader.ts -> dist/xlsxReader.js (exceljs; required on the first XLSX)
//   undici     undici                -> dist/undici.js      (the HTTP stack; required on the first request)
//   vendor     yaml, csv-parse, yazl, zod -> dist/vendor/*.js (required by dist/main.js on first use)
//   cli        src/cli/entry.ts      -> dist/cli.js         (the knowledge-desk command; loads dist/local.js for --local)
//   webviews   src/webview/*/main.ts -> dist/webview/*.js   (browser, iife)
//   --tests    the test build: globalThis.__KD_TEST__ is true (src/testBuild.d.ts), and
//              test/integration/*.ts -> out/test/integration, test/journeys/*.ts -> out/test/journeys (node, cjs; run inside the extension host)
//              test/smoke/*.ts       -> out/test/smoke       (the smoke journey against an installed .vsix)
//   --bench    test/bench/host/*.ts  -> out/test/bench       (benchmarks run inside the extension host)
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');
const bench = process.argv.includes('--bench');
const root = path.dirname(new URL(import.meta.url).pathname);

// src/api, src/core and src/local run outside VS Code (unit tests, the standalone local service):
// importing `vscode` there is a build error, not a runtime surprise.
const noVscodeOutsideHost = {
  name: 'no-vscode-outside-host',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => {
      const rel = path.relative(root, args.importer).split(path.sep).join('/');
      if (/^src\/(api|core|local|ai|mcp|cli)\//.test(rel)) {
        return {
          errors: [
            { text: `${rel} imports 'vscode'; src/api, src/core, src/local, src/ai, src/mcp and src/cli must not depend on VS Code` },
          ],
        };
      }
      return undefined;
    });
  },
};

// exceljs and its dependencies are about 1 MB minified: bundled into extension.js they cost ~100 ms of script
// compilation at every activation even though only an XLSX import uses them. The XLSX Q&A reader is its own
// file (dist/xlsxReader.js), required from dist/ on the first XLSX.
const splitXlsxReader = {
  name: 'split-xlsx-reader',
  setup(build) {
    build.onResolve({ filter: /^\.\/xlsxReader$/ }, (args) =>
      args.importer.endsWith(path.join('src', 'core', 'qaFile', 'readQaFile.ts')) ? { path: './xlsxReader.js', external: true } : undefined,
    );
  },
};

// undici is ~520 KB minified and its module initialisation was most of the extension's load time; it is
// required on the first request (src/api/undici.ts) from its own file, shared by extension.js and local.js.
const splitUndici = {
  name: 'split-undici',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
  },
};

// Libraries only some commands use (YAML knowledge tests, CSV parsing, ZIP export; ~160 KB minified) are files
// of their own in dist/vendor/, so dist/main.js, which every window compiles (or reads from the code cache),
// does not carry them; the modules importing them are loaded lazily, so the first use requires the file.
// zod (~60 KB) too: nothing on the way to activate() builds a schema (test/unit/build/eagerModules.test.ts).
const VENDORED = ['yaml', 'csv-parse', 'csv-parse/sync', 'yazl', 'zod'];
const vendorFile = (name) => `vendor/${name.replace(/\//g, '-')}.js`;
const splitVendored = {
  name: 'split-vendored',
  setup(build) {
    build.onResolve({ filter: /^(yaml|csv-parse|csv-parse\/sync|yazl|zod)$/ }, (args) => ({
      path: `./${vendorFile(args.path)}`,
      external: true,
    }));
  },
};

// Every `import * as vscode from 'vscode'` of the extension goes through src/platform/vscodeApi.ts, so the
// API object is copied into a namespace object once at load instead of once per importing module.
const shareVscodeImport = {
  name: 'share-vscode-import',
  setup(build) {
    const shim = path.join(root, 'src', 'platform', 'vscodeApi.ts');
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.importer === shim ? { path: 'vscode', external: true } : { path: shim }));
  },
};

const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => {
      if (watch) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  // The test build (--tests) is the only one with test code: the test API (src/testApi.ts), the pages' `drive` and
  // `snapshot` handlers and the local service's test routes sit behind `globalThis.__KD_TEST__`, which is `false`
  // everywhere else, so esbuild drops them and the require() calls that load them (src/testBuild.d.ts).
  // The host bench (--bench) reads activate()'s timings through the test API, so its build has it too (the test
  // API is built after the timings are taken; nothing else of the test build runs at activation).
  define: { 'globalThis.__KD_TEST__': tests || bench ? 'true' : 'false' },
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [noVscodeOutsideHost, problemMatcher],
};
const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', plugins: [...common.plugins, splitXlsxReader] };

const webviewEntries = fs.existsSync(path.join(root, 'src/webview'))
  ? fs
      .readdirSync(path.join(root, 'src/webview'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && fs.existsSync(path.join(root, 'src/webview', d.name, 'main.ts')))
      .map((d) => ({ in: `src/webview/${d.name}/main.ts`, out: d.name }))
  : [];

const configs = [
  // dist/extension.js (package.json "main") is only the loader of dist/main.js with a V8 code cache (src/boot.ts).
  { ...node, entryPoints: ['src/boot.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  {
    ...node,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/main.js',
    external: ['vscode'],
    plugins: [...node.plugins, splitUndici, splitVendored, shareVscodeImport],
  },
  ...VENDORED.map((name) => ({ ...node, entryPoints: [name], outfile: `dist/${vendorFile(name)}` })),
  { ...node, entryPoints: ['src/local/entry.ts'], outfile: 'dist/local.js', plugins: [...node.plugins, splitUndici] },
  { ...node, entryPoints: ['node_modules/undici/index.js'], outfile: 'dist/undici.js' },
  // The MCP server (stdio) for agents outside VS Code; it loads dist/local.js at run time for --local.
  { ...node, entryPoints: ['src/mcp/entry.ts'], outfile: 'dist/mcp.js', plugins: [...node.plugins, splitUndici] },
  // The command-line tool (`knowledge-desk` in package.json "bin"): knowledge tests, and the MCP server as above.
  {
    ...node,
    entryPoints: ['src/cli/entry.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [...node.plugins, splitUndici],
  },
  // Text extraction runs in worker threads (src/local/extract/extractorPool.ts) started from this file.
  { ...node, entryPoints: ['src/local/extract/worker.ts'], outfile: 'dist/extractWorker.js' },
  { ...node, entryPoints: ['src/core/qaFile/xlsxReader.ts'], outfile: 'dist/xlsxReader.js' },
];
if (webviewEntries.length) {
  configs.push({ ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: webviewEntries, outdir: 'dist/webview' });
}
if (tests) {
  const dir = path.join(root, 'test/integration');
  const entries = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `test/integration/${f}`);
  configs.push({ ...node, sourcemap: 'inline', entryPoints: entries, outdir: 'out/test/integration', external: ['vscode', 'mocha'] });
  // The smoke journey against an installed .vsix (runIntegration.mjs --vsix).
  const smoke = ['test/smoke/index.ts', 'test/smoke/installed.test.ts'];
  configs.push({ ...node, sourcemap: 'inline', entryPoints: smoke, outdir: 'out/test/smoke', external: ['vscode', 'mocha'] });
  // The journeys (test/journeys): several steps in a row as a person takes them, run by runIntegration.mjs --suite journeys.
  const journeys = fs
    .readdirSync(path.join(root, 'test/journeys'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `test/journeys/${f}`);
  configs.push({ ...node, sourcemap: 'inline', entryPoints: journeys, outdir: 'out/test/journeys', external: ['vscode', 'mocha'] });
}

if (bench) {
  configs.push({
    ...node,
    sourcemap: false,
    entryPoints: ['test/bench/host/activation.ts'],
    outdir: 'out/test/bench',
    external: ['vscode'],
  });
}

// A production build starts clean, so no stale source map of a dev build ends up in the .vsix.
if (production && !watch) fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });

// pdfjs reads character maps (Japanese PDFs without embedded fonts) and standard fonts from files at run time.
for (const dir of ['cmaps', 'standard_fonts']) {
  fs.cpSync(path.join(root, 'node_modules/pdfjs-dist', dir), path.join(root, 'dist/pdfjs', dir), { recursive: true });
}

// The synonym tables of document retrieval (src/local/search/wordnet.ts, japaneseSynonyms.ts), read on first
// use beside dist/local.js, with their licence notices.
for (const file of ['wordnet-en.txt.gz', 'WORDNET-LICENSE', 'synonyms-ja.txt.gz', 'SUDACHI-NOTICE']) {
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(root, 'src/local/search/data', file), path.join(root, 'dist', file));
}

const contexts = await Promise.all(configs.map((c) => esbuild.context({ ...c, absWorkingDir: root })));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  try {
    await Promise.all(contexts.map((c) => c.rebuild()));
    // dist/main.js runs through a vm.Script (src/platform/codeCache.ts): a dynamic import() there depends on
    // the host's Node offering a default loader for scripts, so lazy parts are require()d instead.
    const imports = fs.readFileSync(path.join(root, 'dist/main.js'), 'utf8').match(/\bimport\((["'`])[^"'`]+\1\)/g);
    if (imports) {
      console.error(`✘ [ERROR] dist/main.js must not use import(): ${imports.join(', ')} (use require(), see src/api/undici.ts)`);
      process.exitCode = 1;
    }
  } catch {
    process.exitCode = 1;
  } finally {
    await Promise.all(contexts.map((c) => c.dispose()));
  }
}
