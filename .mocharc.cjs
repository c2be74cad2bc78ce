// Unit tests: mocha + tsx in plain Node. `KD_SPEC=path/to/file.test.ts npx mocha` runs one file.
module.exports = {
  'node-option': ['import=tsx'],
  // The test build's code paths (src/testBuild.d.ts).
  require: ['./test/support/testBuild.cjs'],
  extension: ['ts'],
  spec: process.env.KD_SPEC ? process.env.KD_SPEC.split(',') : ['test/unit/**/*.test.ts'],
  // A hang guard, not a speed limit: a busy 2-core CI machine runs the slowest tests several times slower.
  timeout: 60000,
  ui: 'bdd',
  reporter: './test/support/specWithSummary.cjs',
  'reporter-option': ['maxDiffSize=2000'],
};
