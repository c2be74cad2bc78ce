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
      // A test that leaves a server, socket or timer behind keeps the process alive after the summary: say what
      // is still open if the process has not exited 10 s later (the timer itself does not keep it alive).
      setTimeout(() => {
        const handles = process._getActiveHandles().map((h) => {
          const name = h?.constructor?.name ?? typeof h;
          if (name === 'Timeout') return `Timeout(${h._idleTimeout} ms): ${String(h._onTimeout).slice(0, 160).replace(/\s+/g, ' ')}`;
          if (name === 'Server') return `Server ${JSON.stringify(h.address?.())}`;
          if (name === 'Socket') return `Socket ${h.remoteAddress ?? ''}:${h.remotePort ?? ''} -> ${h.localPort ?? ''}`;
          if (name === 'ChildProcess') return `ChildProcess ${h.pid} ${h.spawnfile}`;
          return name;
        });
        console.error(`mocha: still running 10 s after the summary; open handles:\n  ${handles.join('\n  ')}`);
      }, 10_000).unref();
    });
  }
}
module.exports = SpecWithSummary;
