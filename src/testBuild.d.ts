// `globalThis.__KD_TEST__` is true only in the test build (`node esbuild.mjs --tests`, which integration tests
// run) and in unit tests (test/support/testBuild.cjs); esbuild replaces it with `false` in every other build,
// so code behind it, and the modules it require()s, are not in the bundles a user installs. Read it directly
// at each site (`globalThis.__KD_TEST__ ? require('./x') : undefined`): esbuild folds only the literal expression.
// eslint-disable-next-line no-var
declare var __KD_TEST__: boolean | undefined;
