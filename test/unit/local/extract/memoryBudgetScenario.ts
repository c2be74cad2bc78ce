// Run by extractorPool.test.ts in a process of its own: the pool's memory budget reads the whole process's
// resident memory, so in the mocha process the workers of other suites' services (started from source, 150–400 MB
// each) would count against it. Prints one JSON line: what became of the hog and of the document beside it.
import path from 'node:path';
import { ExtractorPool, defaultAssetsDir } from '../../../../src/local/extract/extractorPool';
import { ExtractionError } from '../../../../src/local/extract/types';

async function main(): Promise<void> {
  const pool = new ExtractorPool({
    assetsDir: defaultAssetsDir(),
    workerFile: path.join(__dirname, 'stubWorker.cjs'),
    size: 2,
    memoryBudgetMb: 128,
  });
  const outcome = (p: Promise<{ pages: Array<{ text: string }> }>) =>
    p.then(
      (e) => ({ text: e.pages[0]?.text ?? '' }),
      (e: unknown) => ({ reason: e instanceof ExtractionError ? e.reason : 'other', message: String((e as Error).message) }),
    );
  const [hog, slow] = await Promise.all([outcome(pool.extract('x', 'hog.txt')), outcome(pool.extract('x', 'slow2000.txt'))]);
  const next = await outcome(pool.extract('x', 'ok.txt'));
  await pool.close();
  console.log(JSON.stringify({ hog, slow, next }));
}

void main();
