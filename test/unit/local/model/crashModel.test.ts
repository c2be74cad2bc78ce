// The model test with crashes (issue 11): the service runs standalone (src/local/entry.ts through tsx, with
// its --test-commit-seq option) and is SIGKILLed after a random number of operations, mid-flight, then
// restarted on the same data folder. Every acknowledged operation must survive; an operation whose answer
// was lost must have happened entirely or not at all. Each client works in its own folder and on its own
// Q&As, so a lost operation can be told from the state alone. KD_MODEL_SEED replays; KD_CRASH_OPS sets the size.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient } from '../../../../src/api/client';
import { KbModel } from './kbModel';
import { contentFor, lostStats, prng, randomOperation, type Acked, type ClientCtx, type LostResolver, type Probe } from './modelOps';
import { identityOf, modelSeeds, replay, tokenFactory } from './modelSupport';
import { SeqAgent } from './seqAgent';
import { adminInfo, listFaqs, verifyAgainstModel, walkTree } from './verify';

const ENTRY = path.join(__dirname, '..', '..', '..', '..', 'src', 'local', 'entry.ts');
const OPS = Number(process.env.KD_CRASH_OPS ?? 1000);
const CLIENTS = 4;

interface Child {
  process: ChildProcess;
  url: string;
  apiKey: string;
}

/** The test build's code paths in the child too (--test-commit-seq needs them): test/support/testBuild.cjs. */
const TEST_BUILD = path.resolve(__dirname, '../../../support/testBuild.cjs');

function startService(dir: string): Promise<Child> {
  const child = spawn(process.execPath, ['--require', TEST_BUILD, '--import', 'tsx', ENTRY, '--data', dir, '--test-commit-seq'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service did not start within 60 s: ${out}${err}`));
    }, 60_000);
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const url = /URL:\s+(\S+)/.exec(out)?.[1];
      const apiKey = /API key:\s+(\S+)/.exec(out)?.[1];
      if (url && apiKey && /Data:/.test(out)) {
        clearTimeout(timer);
        resolve({ process: child, url, apiKey });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code ?? signal}) before it started: ${out}${err}`));
    });
  });
}

function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  return exited;
}

/**
 * Bounded wait for every document to leave processing (unfinished ones are resumed after a restart) and for
 * the retrieval index's start-up rebuild (its counts in /_local/info are partial until then).
 */
async function processingDone(api: ApiClient, child: Child): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const busy = [...(await walkTree(api)).values()].filter((n) => n.nodeType === 'file' && n.processState !== 'completed');
    if (!busy.length && (await adminInfo(child.url, child.apiKey)).counts['retrieval.ready'] === 1) return;
    if (Date.now() > deadline)
      throw new Error(`waited 60 s for processing; still busy: ${busy.map((n) => `${n.name}:${n.processState}`).join(', ')}`);
    await sleep(100);
  }
}

async function probeOf(api: ApiClient): Promise<Probe> {
  const nodes = await walkTree(api);
  const faqs = new Map(
    [...(await listFaqs(api, 'probe')).entries()].map(([id, f]) => [
      id,
      { ...f, counts: JSON.stringify({ agent: f.agent, user: f.user }) },
    ]),
  );
  return {
    nodes,
    faqs,
    votes(faqId, model, voter, isPositive) {
      const faq = model.faqs.get(faqId)!;
      const votes = new Map(faq.votes);
      if (isPositive === null) votes.delete(voter);
      else votes.set(voter, isPositive);
      return faqs.get(faqId)?.counts === JSON.stringify(model.counts({ ...faq, votes }));
    },
    async holder(token) {
      const hits = await api.answers.retrieve({ question: token, maxDocumentClues: 3 });
      return hits.find((h) => new RegExp(`\\b${token}\\b`).test(h.text))?.kb_id;
    },
  };
}

describe('Local service: model test with SIGKILL and restart', function () {
  this.timeout(600_000);

  for (const seed of modelSeeds()) {
    it(`${OPS} operations from ${CLIENTS} clients: acknowledged ones survive random kills, lost ones are all or nothing (seed ${seed})`, async () => {
      console.log(`      crash model seed=${seed} (KD_MODEL_SEED to replay)`);
      const started = Date.now();
      const random = prng(seed ^ 0x5bd1e995);
      const dir = await mkdtemp(path.join(tmpdir(), 'kd-crash-model-'));
      const agents = Array.from({ length: CLIENTS }, () => new SeqAgent());
      const token = tokenFactory('zk');
      let child = await startService(dir);
      try {
        const connect = (i: number): ApiClient =>
          new ApiClient({
            baseUrl: child.url,
            apiKey: child.apiKey,
            identity: identityOf(i).identity,
            dispatcher: agents[i].dispatcher,
            retry: { maxRetries: 0 },
          });
        const model = new KbModel();
        const clients: ClientCtx[] = [];
        const setup: Acked[] = [];
        for (let i = 0; i < CLIENTS; i++) {
          // Each client's own folder: a ZIP upload, acknowledged before the first kill.
          const c: ClientCtx = {
            api: connect(i),
            agent: agents[i],
            voter: identityOf(i).voter,
            random: prng(seed * 31 + i),
            pools: { folders: [], files: [], faqs: [] },
            token,
          };
          c.agent.last = undefined;
          const op = { folderId: null, content: contentFor(token(), c.random), token: '' };
          op.token = /Document (\w+)\./.exec(op.content)![1];
          const yazl = await import('yazl');
          const zip = new yazl.ZipFile();
          zip.addBuffer(Buffer.from(op.content), 'inner.txt');
          zip.end();
          const chunks: Buffer[] = [];
          for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
          const [f, d] = (await c.api.kbNodes.upload({ file: { data: Buffer.concat(chunks) }, fileName: `home${i}.zip` })).map((n) => ({
            id: n.id,
            name: n.name,
            action: 'created',
            parentId: n.parentFolder?.id ?? null,
          }));
          setup.push({ seq: c.agent.last!, kind: 'home', apply: (m) => m.applyZip(op, f, d) });
          c.home = f.id;
          c.pools.files.push({ id: d.id, parentId: f.id, name: d.name, content: op.content });
          clients.push(c);
        }
        replay(setup, model, `seed=${seed} setup`);
        const statusNotApplied = lostStats.statusChangesNotApplied;
        let issued = 0;
        let kills = 0;
        let lostTotal = 0;
        let appliedLost = 0;
        while (issued < OPS) {
          const epochStart = issued;
          const killAfter = Math.min(OPS, issued + 100 + Math.floor(random() * 300));
          let dead = false;
          const acked: Acked[] = [];
          const lost: LostResolver[] = [];
          const killer = (async () => {
            while (issued < killAfter) await sleep(2);
            await sleep(random() * 20); // a random moment among the operations in flight
            dead = true;
            await killed(child.process);
          })();
          await Promise.all(
            clients.map(async (c) => {
              while (!dead) {
                issued++;
                const o = await randomOperation(c);
                if (o.acked) acked.push(o.acked);
                if (o.result === 'lost') {
                  if (!dead) throw new Error(`${o.kind}: no answer although the service was not killed`);
                  if (o.lost) lost.push(o.lost);
                  return;
                }
              }
            }),
          );
          await killer;
          kills++;
          const context = `seed=${seed} kill ${kills} after op ${epochStart}..${issued}`;
          child = await startService(dir);
          clients.forEach((c, i) => (c.api = connect(i)));
          const api = clients[0].api;
          await processingDone(api, child);
          replay(acked, model, context);
          const probe = await probeOf(api);
          for (const resolve of lost) {
            const apply = await resolve(probe, model);
            if (apply) {
              apply(model);
              appliedLost++;
            }
          }
          lostTotal += lost.length;
          await verifyAgainstModel(api, model, await adminInfo(child.url, child.apiKey), context);
        }
        console.log(
          `      ${issued} ops, ${CLIENTS} clients, ${kills} kills, ${lostTotal} answers lost (${appliedLost} of them had happened; ` +
            `${lostStats.statusChangesNotApplied - statusNotApplied} status-only updates had not), ` +
            `${model.nodes.size} nodes, ${model.faqs.size} Q&As, ${Date.now() - started} ms`,
        );
        assert.ok(kills > 0);
      } finally {
        await killed(child.process);
        await Promise.all(agents.map((a) => a.close()));
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
