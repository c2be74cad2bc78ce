// Loaded by VS Code inside the extension host (extensionTestsPath) when runIntegration.mjs runs with --vsix: the
// development extension is test/smoke/extension, which carries nothing but this runner, so the Knowledge Desk that
// runs is the copy installed from the .vsix.
import * as path from 'node:path';
import Mocha from 'mocha';

export async function run(): Promise<void> {
  // A hang guard, not a speed limit (a busy machine runs the workbench several times slower).
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 180_000, slow: 10_000 });
  mocha.addFile(path.join(__dirname, 'installed.test.js'));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const s = runner.stats!;
      console.log(`mocha: ${s.passes} passed, ${s.failures} failed, ${s.pending} pending`);
      if (failures > 0) reject(new Error(`${failures} smoke tests failed`));
      else resolve();
    });
  });
}
