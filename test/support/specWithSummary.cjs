// Mocha's spec reporter plus one closing line that scripts/test.mjs adds up:
//   mocha: N passed, N failed, N pending
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;

class SpecWithSummary extends Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const s = runner.stats;
      console.log(`mocha: ${s.passes} passed, ${s.failures} failed, ${s.pending} pending`);
    });
  }
}
module.exports = SpecWithSummary;
