import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';
import { runUploads, type JobOutcome, type UploadJob } from '../../../src/api/uploads/uploadRunner';
import { startTestService, type TestService } from '../support/localService';
import { waitFor } from '../support/waitFor';

// Cancel of a big batch (issue 22): 20–50 files went on after Cancel. Counted on both ends: what the client
// sent after the cancel (nothing), and what the service received in all (only what was sent before it).
describe('Upload runner: Cancel sends nothing new', () => {
  let t: TestService;
  let dir: string;
  let jobs: UploadJob[];
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kd-cancel-'));
    t = await startTestService({ fsync: false });
    await mkdir(path.join(dir, 'many'));
    jobs = [];
    for (let i = 0; i < 400; i++) {
      const file = path.join(dir, 'many', `many-${String(i).padStart(3, '0')}.txt`);
      await writeFile(file, `Document ${i}\n${'lorem ipsum '.repeat(40)}`);
      jobs.push({ id: file, path: file, fileName: path.basename(file), size: (await stat(file)).size });
    }
  });
  after(async () => {
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const received = async (): Promise<Record<string, number>> => {
    const counts = (await t.admin<{ counts: Record<string, number> }>('GET', '/_local/info')).counts;
    return Object.fromEntries(Object.entries(counts).filter(([k]) => k.startsWith('http.received.kbNodes.')));
  };
  const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

  it('400 files, Cancel after 20: no request is sent after it; the ones in flight finish with the service’s answer', async function () {
    this.timeout(60_000);
    const before = total(await received());
    const sent: string[] = [];
    const counting = new Agent().compose((dispatch) => (options, handler) => {
      sent.push(options.path.split('?')[0]);
      return dispatch(options, handler);
    });
    const controller = new AbortController();
    let done = 0;
    let started = 0;
    let settled = 0;
    let sentAtCancel = -1;
    let inFlightAtCancel = -1;
    const out = await runUploads(t.client({ dispatcher: counting }), jobs, {
      concurrency: 8,
      options: {},
      signal: controller.signal,
      onProgress: (p) => {
        if (p.current) started++;
      },
      onOutcome: (_j, o) => {
        settled++;
        if (o.status === 'done' && ++done === 20) {
          sentAtCancel = sent.length;
          inFlightAtCancel = started - settled;
          controller.abort();
        }
      },
    });
    const byStatus = (s: JobOutcome['status']) => [...out.values()].filter((o) => o.status === s).length;
    // Jobs started before the cancel may still be preparing their request: those go out, nothing else (no lookups).
    const late = sent.slice(sentAtCancel);
    assert.ok(
      late.every((p) => p.endsWith('/knowledge_base_nodes/upload')) && late.length <= inFlightAtCancel,
      `sent after the cancel (${inFlightAtCancel} jobs in flight): ${JSON.stringify(late)}`,
    );
    await waitFor(
      async () => (await t.admin<{ counts: Record<string, number> }>('GET', '/_local/info')).counts['http.inFlight'] === 1,
      'the service to be idle',
    );
    const after = await received();
    assert.equal(total(after) - before, sent.length, 'the service received what the client sent, no more');
    // What was in flight finished and is reported as the service answered it: done and received uploads agree.
    assert.equal(byStatus('failed'), 0);
    assert.equal(byStatus('done'), after['http.received.kbNodes.upload'], JSON.stringify(after));
    assert.equal(byStatus('done') + byStatus('cancelled'), 400);
    assert.ok(byStatus('cancelled') >= 400 - 20 - 8, `cancelled ${byStatus('cancelled')}`);
    const stored = (await t.client().kbNodes.search({ searchTerm: 'many-' })).total;
    assert.equal(stored, byStatus('done'), 'every file reported done is stored, and no other');
  });
});
