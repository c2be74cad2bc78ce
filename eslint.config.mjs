// ESLint 9 flat config: typescript-eslint with type information, import cycles, and the layers of the
// architecture (docs/architecture.md, CONTRIBUTING.md "Layout": who may import whom). Formatting is Prettier's job
// (eslint-config-prettier, last).
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = path.dirname(new URL(import.meta.url).pathname);
const dirs = (rel) =>
  fs
    .readdirSync(path.join(root, rel), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

// ── Layers ────────────────────────────────────────────────────────────────────────────────────────
// Zones for import-x/no-restricted-paths: `target` may not import anything under `from` except `except`
// (paths relative to `from`). They work on resolved files, so `../../api/x` and `src/api/x` are the same.
const features = dirs('src/features');
/** Each webview page: its feature's protocol, and the pure modules the page shares with the host. */
const pages = {
  analytics: ['features/qna/analytics/protocol.ts', 'features/qna/analytics/analyticsStrings.ts'],
  chat: ['features/answers/chat/protocol.ts', 'features/answers/chat/citations.ts', 'features/answers/chat/chatStrings.ts'],
  citation: ['features/answers/citations/protocol.ts', 'features/answers/citations/citationStrings.ts'],
  qaEditor: ['features/qna/editor/protocol.ts', 'features/qna/editor/qaDraft.ts', 'features/qna/editor/qaEditorStrings.ts'],
  retrieval: [
    'features/answers/retrieval/protocol.ts',

    'features/answers/retrieval/rankChanges.ts',
    'features/answers/retrieval/retrievalStrings.ts',
  ],
};
for (const page of dirs('src/webview')) {
  if (page !== 'shared' && !pages[page])
    throw new Error(`eslint.config.mjs: list what the new webview page src/webview/${page} may import`);
}
const pageBasics = [
  'webview/shared',
  'core',
  'platform/webview/protocol.ts',
  'platform/webview/pageMark.ts',
  'platform/webview/rpc.ts',
  'platform/webview/pageStrings.ts',
];
const zones = [
  { target: 'src/core', from: 'src', except: ['core'], message: 'src/core is pure: it imports nothing of ours outside src/core.' },
  { target: 'src/api', from: 'src', except: ['api', 'core'], message: 'src/api is the HTTP client: it imports only src/core.' },
  {
    target: 'src/ai',
    from: 'src',
    except: ['ai', 'api', 'core'],
    message: 'src/ai holds the knowledge tools shared by VS Code and the MCP server: it imports src/api and src/core only.',
  },
  {
    target: 'src/mcp',
    from: 'src',
    except: ['mcp', 'ai', 'api', 'core', 'local/entry.ts'],
    message:
      'src/mcp is the MCP server (dist/mcp.js): src/ai, src/api, src/core, and the local service only through src/local/entry.ts (types).',
  },
  {
    target: 'src/cli',
    from: 'src',
    except: ['cli', 'mcp', 'ai', 'api', 'core', 'local/entry.ts'],
    message: 'src/cli is the command-line tool (dist/cli.js): what src/mcp may import, and src/mcp itself.',
  },
  {
    target: 'src/local',
    from: 'src',
    except: ['local', 'core'],
    message: 'src/local is the local service: it takes shared wire rules from src/core, nothing else of ours.',
  },
  {
    target: 'src/platform',
    from: 'src',
    except: ['platform', 'core', 'api'],
    message: 'src/platform is the VS Code glue that features build on: it imports src/core and src/api only.',
  },
  ...features.map((name) => ({
    target: `src/features/${name}`,
    from: 'src/features',
    except: [name],
    message: 'Features do not import each other: move what they share to src/platform or src/core.',
  })),
  {
    target: 'src/features',
    from: 'src/webview',
    message: 'src/webview holds browser bundles; the host talks to them only through <feature>/protocol.ts.',
  },
  {
    target: 'src/features',
    from: 'src/local',
    message: 'The local service is a bundle of its own, forked from dist/local.js by platform/connection only.',
  },
  {
    target: 'src/container.ts',
    from: 'src/features',
    message: 'The container builds what features share and owns no feature: move the shared part to src/platform.',
  },
  ...Object.entries(pages).map(([page, shared]) => ({
    target: `src/webview/${page}`,
    from: 'src',
    except: [`webview/${page}`, ...pageBasics, ...shared],
    message:
      'A webview page imports src/webview/shared, its own protocol (and listed pure modules), src/core and platform/webview/{protocol,rpc}.',
  })),
  {
    target: 'src/webview/shared',
    from: 'src',
    except: [...pageBasics, 'platform/lifecycle.ts'],
    message:
      'src/webview/shared imports src/core, platform/webview/{protocol,pageMark,rpc,pageStrings (types)} and platform/lifecycle only.',
  },
];
const vscodePath = { name: 'vscode', message: 'This layer runs outside VS Code (plain Node or a browser page).' };
const noVscode = { '@typescript-eslint/no-restricted-imports': ['error', { paths: [vscodePath] }] };
const browserOnly = 'Webview pages run in a browser: no Node modules.';
const noVscodeNoNode = {
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      paths: [vscodePath, ...builtinModules.map((name) => ({ name, message: browserOnly }))],
      patterns: [{ group: ['node:*'], message: browserOnly }],
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      '**/node_modules/**',
      'test/fixtures/**',
      'test/bench/fixtures/**',
      'test/host/.screenshots/**',
      'samples/**',
      '.dev/**',
    ],
  },
  // A disable comment that suppresses nothing is an error, so none can go stale.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { rules: { 'no-empty': ['error', { allowEmptyCatch: true }] } },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'src/webview/tsconfig.json'],
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `typeof import('./x')` stays allowed: it types a lazily loaded chunk without loading it.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // VS Code hands command arguments over as `any[]`, and tests read untyped JSON: `any` is not banned.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
    },
  },
  {
    files: ['src/api/**/*.ts', 'src/core/**/*.ts', 'src/local/**/*.ts', 'src/ai/**/*.ts', 'src/mcp/**/*.ts', 'src/cli/**/*.ts'],
    rules: noVscode,
  },
  { files: ['src/webview/**/*.ts'], rules: noVscodeNoNode },
  {
    // require() on purpose: the local service is loaded from its own bundle at run time (dist/local.js), and tests
    // load built bundles afresh.
    files: ['src/platform/connection/localServiceHost.ts', 'src/mcp/localEndpoint.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // require() on purpose: test-only modules load behind `globalThis.__KD_TEST__` (src/testBuild.d.ts), so
    // esbuild leaves them out of every build but the test build, which an import would not do.
    files: ['src/extension.ts', 'src/local/service.ts', 'src/platform/testProbe.ts', 'src/webview/chat/controller.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Scripts are plain JavaScript outside the TypeScript projects: the rules above without type information.
  { files: ['**/*.mjs', '**/*.cjs'], languageOptions: { globals: { ...globals.node } } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  prettier,
);
