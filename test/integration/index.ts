// Loaded by VS Code inside the extension host (extensionTestsPath): runs every bundled *.test.js here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { getApi, resetWorkbench } from './support/host';

/**
 * The suites' files in the order asked for by KD_TEST_ORDER: `name` (default), `reverse`, or `shuffle:<seed>`.
 * Suites do not depend on each other, so every order must give the same results.
 */
function ordered(files: string[]): string[] {
  const order = process.env.KD_TEST_ORDER ?? 'name';
  const sorted = [...files].sort();
  if (order === 'reverse') return sorted.reverse();
  const seed = /^shuffle:(\d+)$/.exec(order)?.[1];
  if (seed === undefined) return sorted;
  let state = Number(seed) >>> 0 || 1;
  const next = (): number => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  for (let i = sorted.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [sorted[i], sorted[j]] = [sorted[j], sorted[i]];
  }
  return sorted;
}

export function run(): Promise<void> {
  // The timeout is a hang guard, not a speed limit: a busy machine runs the workbench several times slower.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 180_000, slow: 5_000 });
  if (process.env.KD_TEST_GREP) mocha.grep(process.env.KD_TEST_GREP);
  const files = ordered(fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js')));
  console.log(`suite files in ${process.env.KD_TEST_ORDER ?? 'name'} order: ${files.join(', ')}`);
  for (const file of files) mocha.addFile(path.join(__dirname, file));
  // Every top-level suite starts from, and leaves, the same workbench: whatever one suite leaves open (an
  // editor, a quick input, scripted answers, a second editor group) cannot reach the next one.
  mocha.suite.on('suite', (suite: Mocha.Suite) => {
    if (suite.parent !== mocha.suite) return;
    suite.beforeAll('reset the workbench', async () => resetWorkbench(await getApi()));
    suite.afterAll('reset the workbench', async () => resetWorkbench(await getApi()));
  });
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const s = runner.stats!;
      console.log(`mocha: ${s.passes} passed, ${s.failures} failed, ${s.pending} pending`);
      if (failures > 0) reject(new Error(`${failures} integration tests failed`));
      else resolve();
    });
  });
}
