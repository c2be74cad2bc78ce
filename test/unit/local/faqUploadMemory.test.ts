// The memory a Q&A file upload costs the local service (issue 23: a 100,000-row file grew it by 750 MB). Two
// figures, each per row of a real upload through the client: what stays on the heap once it is collected (the
// store held a second copy of every Q&A, question keys as chains of joined pieces, index arrays with room for 17),
// and what the upload moved into the old generation while it ran (rows checked through zod left about 13 KB per
// row there, which the service's heap then grew to hold until a full collection).
import assert from 'node:assert/strict';
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startTestService, type TestService } from '../support/localService';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ROWS = 8_000;
const question = (i: number) => `How do I configure item ${i} of group ${i % 997}?`;

function csvOf(rows: number, from: number): string {
  const lines = ['question,answer,hashtags'];
  for (let i = from; i < from + rows; i++) lines.push(`${question(i)},Open the settings page and choose option ${i}.,group${i % 50}`);
  return lines.join('\n') + '\n';
}

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Bytes the old generation gained during young-generation collections (objects that outlived two). */
function promotedBytes(stats: ReturnType<GCProfiler['stop']>): number {
  let total = 0;
  for (const s of stats?.statistics ?? []) {
    if (s.gcType !== 'Scavenge') continue;
    const used = (h: typeof s.beforeGC) => h.heapSpaceStatistics.find((space) => space.spaceName === 'old_space')?.spaceUsedSize ?? 0;
    total += Math.max(0, used(s.afterGC) - used(s.beforeGC));
  }
  return total;
}

describe('Q&A file upload: memory per row (local service)', function () {
  this.timeout(60_000);
  let t: TestService;
  before(async () => {
    t = await startTestService({ fsync: false });
    // Warm-up: code, caches and the index's first arrays are not what an upload adds per row.
    await t.client().faq.uploadFile({ kind: 'buffer', data: csvOf(500, 1_000_000), fileName: 'warm.csv' });
  });
  after(() => t.stop());

  it(`keeps under 2 KB of heap per Q&A after a ${ROWS.toLocaleString('en-US')}-row upload`, async () => {
    const before = heapUsed();
    const result = await t.client().faq.uploadFile({ kind: 'buffer', data: csvOf(ROWS, 0), fileName: 'kept.csv' }, { timeoutMs: 60_000 });
    assert.equal(result.result, 'success');
    const perRow = (heapUsed() - before) / ROWS;
    assert.ok(perRow < 2_000, `${Math.round(perRow)} bytes per Q&A stay on the heap`);
  });

  it('moves under 4 KB per row into the old generation while the upload is applied', async () => {
    const data = csvOf(ROWS, 100_000);
    heapUsed();
    const profiler = new GCProfiler();
    profiler.start();
    const result = await t.client().faq.uploadFile({ kind: 'buffer', data, fileName: 'promoted.csv' }, { timeoutMs: 60_000 });
    const perRow = promotedBytes(profiler.stop()) / ROWS;
    assert.equal(result.result, 'success');
    assert.ok(perRow < 4_000, `${Math.round(perRow)} bytes per row were promoted`);
  });
});
