// Unit tests run the sources through tsx, not esbuild: they get the test build's code (src/testBuild.d.ts).
globalThis.__KD_TEST__ = true;
