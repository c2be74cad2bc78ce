// The pages load their test-only parts with require() behind `globalThis.__KD_TEST__` (src/testBuild.d.ts);
// esbuild bundles it (only in the test build). Pages have no Node types otherwise.
declare function require(id: string): unknown;
