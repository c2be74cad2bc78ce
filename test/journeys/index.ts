// Loaded by VS Code inside the extension host (extensionTestsPath) for `runIntegration.mjs --suite journeys`: runs the
// journeys named by KD_JOURNEYS (test/journeys/<name>.test.ts), in that order, in this window. Nothing resets the
// workbench before the first one: a journey that needs a window in which nothing happened yet comes first.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { journeyState, RESUME_FILE } from './support/journey';

export async function run(): Promise<void> {
  const state = journeyState();
  const names = (process.env.KD_JOURNEYS ?? '').split(',').filter(Boolean);
  // After a reload (the reload journey restarts the extension host), only the journey that asked for it goes on.
  const resume = path.join(state, RESUME_FILE);
  const resumed = fs.existsSync(resume) ? (JSON.parse(fs.readFileSync(resume, 'utf8')) as { file: string }).file : undefined;
  const files = resumed ? [resumed] : names;
  console.log(`journeys${resumed ? ' (after a reload)' : ''}: ${files.join(', ')}`);
  // The timeout is a hang guard: a journey is many steps, and the shared machine runs the workbench slowly.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 300_000, slow: 30_000 });
  if (process.env.KD_TEST_GREP) mocha.grep(process.env.KD_TEST_GREP);
  for (const name of files) mocha.addFile(path.join(__dirname, `${name}.test.js`));
  const ledger = path.join(state, 'ledger.jsonl');
  const note = (test: Mocha.Test, outcome: 'passed' | 'failed', error?: unknown): void => {
    const file = path.basename(test.file ?? '', '.test.js');
    fs.appendFileSync(
      ledger,
      JSON.stringify({ file, title: test.fullTitle(), state: outcome, error: error ? String(error) : undefined }) + '\n',
    );
  };
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const s = runner.stats!;
      console.log(`mocha (this extension host): ${s.passes} passed, ${s.failures} failed, ${s.pending} pending`);
      if (failures > 0) reject(new Error(`${failures} journeys failed`));
      else resolve();
    });
    runner.on('pass', (test) => note(test, 'passed'));
    runner.on('fail', (test, error) => {
      if (test.type === 'test') note(test as Mocha.Test, 'failed', error);
      else if (test.parent) for (const t of test.parent.tests) note(t, 'failed', error); // a hook: its journeys did not run
    });
  });
}
