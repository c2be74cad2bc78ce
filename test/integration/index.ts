// Loaded by VS Code inside the extension host (extensionTestsPath): runs every bundled *.test.js here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, slow: 5_000 });
  if (process.env.KD_TEST_GREP) mocha.grep(process.env.KD_TEST_GREP);
  for (const file of fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const s = runner.stats!;
      console.log(`mocha: ${s.passes} passed, ${s.failures} failed, ${s.pending} pending`);
      if (failures > 0) reject(new Error(`${failures} integration tests failed`));
      else resolve();
    });
  });
}
