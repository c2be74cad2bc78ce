// The local service as a supervised child process (platform/connection/process), in plain Node against the
// real bundle: requests through the real client, a real kill -9, real data folders that cannot start.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiClient } from '../../../src/api/client';
import { LocalServiceStoppedError } from '../../../src/api/errors';
import { LocalStartError } from '../../../src/platform/connection/process/localChild';
import { guardLocalDispatcher } from '../../../src/platform/connection/process/stoppedGuard';
import {
  LocalServiceSupervisor,
  type Backoff,
  type LocalEndpoint,
  type SupervisorEvent,
} from '../../../src/platform/connection/process/supervisor';
import { withHeaders } from '../../fixtures/retrieval/seededService';
import { buildMcpBundle } from '../support/mcpBundle';
import { waitFor } from '../support/waitFor';

const DOC = [
  'Paid leave policy.',
  'New employees get ten days of paid leave in their first year.',
  'Paid leave requests go to the manager one week ahead.',
  'Unused paid leave days carry over to the next year, up to five days.',
].join('\n');

describe('Local service in its own process (supervisor)', () => {
  let bundle: Awaited<ReturnType<typeof buildMcpBundle>>;
  const cleanup: Array<() => Promise<unknown>> = [];
  const logged: string[] = [];

  before(async () => {
    bundle = await buildMcpBundle();
  });
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });
  after(() => bundle.remove());

  async function folder(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'kd-supervised-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  function supervise(dataDir: string, backoff: Partial<Backoff> = {}): { supervisor: LocalServiceSupervisor; events: SupervisorEvent[] } {
    const line = (level: string) => (m: string) => logged.push(`${level} ${m}`);
    const supervisor = new LocalServiceSupervisor({
      script: path.join(bundle.dir, 'local.js'),
      log: { trace: line('trace'), info: line('info'), warn: line('warn'), error: line('error') },
      startOptions: () => ({ dataDir, allowedRoots: [], testHooks: true }),
      ownerAnswers: async () => true,
      backoff: { initialMs: 20, maxMs: 200, ...backoff },
    });
    const events: SupervisorEvent[] = [];
    supervisor.onEvent((e) => events.push(e));
    cleanup.push(() => supervisor.dispose());
    return { supervisor, events };
  }

  const client = (ep: LocalEndpoint, supervisor: LocalServiceSupervisor, headers: Record<string, string> = {}): ApiClient =>
    new ApiClient({ baseUrl: ep.url, apiKey: ep.apiKey, dispatcher: guardLocalDispatcher(withHeaders(headers), supervisor) });

  /** Names, sizes and hashes of everything in `dir`: a failed start must leave it as it was. */
  async function contents(dir: string): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      const full = path.join(entry.parentPath, entry.name);
      const rel = path.relative(dir, full);
      out[rel] = entry.isFile()
        ? createHash('sha256')
            .update(await readFile(full))
            .digest('hex')
        : 'dir';
    }
    return out;
  }

  it('fails a request in flight with a clear error when the process is killed, restarts it, and keeps acknowledged data', async () => {
    const { supervisor, events } = supervise(await folder());
    const first = await supervisor.ensureStarted();
    assert.ok(first.owned && first.pid && first.pid !== process.pid, 'the service runs in a process of its own');
    const api = client(first, supervisor);
    const qa = await api.faq.register({ question: 'How many days of paid leave?', answer: 'Ten days.', status: 'on' });
    const [doc] = await api.kbNodes.upload({ file: { data: DOC, contentType: 'text/plain' }, fileName: 'leave.txt' });
    await waitFor(async () => (await api.kbNodes.get(doc.id)).processState === 'completed', 'the document processed');
    // A broken document logs a warning: a kill later must not be blamed on it.
    const [broken] = await api.kbNodes.upload({
      file: { data: Buffer.from('%PDF-1.4\nnot really a PDF'), contentType: 'application/pdf' },
      fileName: 'broken.pdf',
    });
    await waitFor(async () => (await api.kbNodes.get(broken.id)).processState === 'parsing_fail', 'the broken document failed');

    // A stream whose lines are 2 s apart: in flight for certain when its first line has arrived.
    const slow = client(first, supervisor, { 'X-Local-Stream-Delay-Ms': '2000' });
    const stream = slow.answers.stream({ query: 'How many days of paid leave do new employees get?' }, { maxRetries: 0 });
    const firstChunk = await stream.next();
    assert.equal(firstChunk.done, false);
    process.kill(first.pid!, 'SIGKILL');
    await assert.rejects(
      async () => {
        for (;;) if ((await stream.next()).done) break;
      },
      (error: unknown) => {
        // The stream reader says the stream broke, and why: the service stopped.
        const stopped = error instanceof LocalServiceStoppedError ? error : (error as Error).cause;
        assert.ok(stopped instanceof LocalServiceStoppedError, `a LocalServiceStoppedError, got ${String(error)}`);
        assert.equal(stopped.restarting, true);
        assert.match(stopped.message, /The local service stopped \(it was stopped by SIGKILL\); it is restarting/);
        return true;
      },
    );

    await waitFor(() => events.filter((e) => e.kind === 'started').length === 2, 'a restarted service');
    const again = await supervisor.ensureStarted();
    assert.notEqual(again.pid, first.pid);
    assert.equal(again.apiKey, first.apiKey, 'the keys are the data folder’s');
    assert.deepEqual(
      events.map((e) => e.kind),
      ['started', 'stopped', 'started'],
    );
    assert.equal((events[2] as { restarted: boolean }).restarted, true);
    const after = client(again, supervisor);
    assert.equal((await after.faq.get(qa.id)).answer, 'Ten days.', 'the Q&A acknowledged before the kill is still there');
    assert.equal((await after.kbNodes.get(doc.id)).name, 'leave.txt');
  });

  it('says why a data folder cannot be used (a file where the folder should be) and leaves the file as it was', async () => {
    const dir = await folder();
    const dataDir = path.join(dir, 'local-service');
    await writeFile(dataDir, 'not a folder');
    const { supervisor } = supervise(dataDir);
    await assert.rejects(supervisor.ensureStarted(), (error: unknown) => {
      assert.ok(error instanceof LocalStartError, String(error));
      assert.match(error.message, /EEXIST|ENOTDIR/, 'the child’s own reason, not an exit code');
      return true;
    });
    assert.equal(await readFile(dataDir, 'utf8'), 'not a folder');
    assert.ok((await stat(dataDir)).isFile());
  });

  it('says why a corrupt journal cannot be opened and changes nothing in the folder', async () => {
    const dataDir = await folder();
    const { supervisor } = supervise(dataDir);
    const ep = await supervisor.ensureStarted();
    await client(ep, supervisor).faq.register({ question: 'Kept?', answer: 'Yes.', status: 'on' });
    await supervisor.dispose();
    await writeFile(path.join(dataDir, 'db', 'snapshot.json'), '{"seq": 1, "collections": ');
    const before = await contents(dataDir);
    const second = supervise(dataDir).supervisor;
    await assert.rejects(second.ensureStarted(), (error: unknown) => {
      assert.ok(error instanceof LocalStartError, String(error));
      assert.match(error.message, /snapshot is not valid JSON/);
      return true;
    });
    assert.deepEqual(await contents(dataDir), before, 'nothing in the data folder was changed or deleted');
  });

  it('gives up after repeated rapid failures, then starts again on restart()', async () => {
    const dataDir = await folder();
    const { supervisor, events } = supervise(dataDir, { maxRapidFailures: 2 });
    const ep = await supervisor.ensureStarted();
    const snapshot = path.join(dataDir, 'db', 'snapshot.json');
    const good = await readFile(snapshot).catch(() => undefined);
    // Every restart now fails: the journal cannot be read.
    await writeFile(snapshot, 'garbage');
    process.kill(ep.pid!, 'SIGKILL');
    await waitFor(() => events.some((e) => e.kind === 'gaveUp'), 'the supervisor giving up', 30_000);
    const stopped = events.filter((e) => e.kind === 'stopped');
    assert.deepEqual(
      stopped.map((e) => e.failures),
      [1, 2],
    );
    assert.deepEqual(
      stopped.map((e) => e.retryInMs),
      [20, 40],
      'the delay doubles',
    );
    await assert.rejects(supervisor.ensureStarted(), /stopped 2 times in a row.*snapshot is not valid JSON/s);

    if (good) await writeFile(snapshot, good);
    else await rm(snapshot);
    const back = await supervisor.restart();
    assert.ok(back.pid && back.pid !== ep.pid);
    assert.equal(supervisor.gaveUp, undefined);
  });
});
