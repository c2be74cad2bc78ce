// Crash test: a child process commits to a Journal until it is SIGKILLed at a random moment (during
// start-up, replay, commits or compaction); the reopened journal must hold every acknowledged write.
// Reproduce a failure with KD_DURABILITY_SEED=<printed seed>.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../../../src/local/store/journal';
import { COLLECTION, KEYS_PER_WORKER, prng, valueFor, WORKERS } from './fixtures/journalWriter';

const WRITER = join(__dirname, 'fixtures', 'journalWriter.ts');
const TRIALS = Number(process.env.KD_DURABILITY_TRIALS ?? 32);
const ALL_KEYS = Array.from({ length: WORKERS * KEYS_PER_WORKER }, (_, i) => `w${i % WORKERS}-${Math.floor(i / WORKERS)}`);

/** State of a key: the op that wrote its current value, or null when absent. */
type KeyState = number | null;

interface TrialLog {
  lines: string[];
  exit: { code: number | null; signal: NodeJS.Signals | null };
  stderr: string;
  sawReady: boolean;
}

function runAndKill(child: ChildProcess, killAfterReadyMs: number | undefined, killAfterSpawnMs: number): Promise<TrialLog> {
  let buffered = '';
  let stderr = '';
  let sawReady = false;
  const lines: string[] = [];
  const kill = (): void => void child.kill('SIGKILL');
  const early = killAfterReadyMs === undefined ? setTimeout(kill, killAfterSpawnMs) : undefined;
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d: Buffer) => {
    buffered += d.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop()!; // a line is written with one write(), but may arrive split
    for (const line of parts) {
      if (line === 'ready' && !sawReady) {
        sawReady = true;
        if (killAfterReadyMs !== undefined) setTimeout(kill, killAfterReadyMs);
      }
      lines.push(line);
    }
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(early);
      resolve({ lines, exit: { code, signal }, stderr, sawReady });
    });
  });
}

describe('Journal durability under SIGKILL', function () {
  this.timeout(120_000);
  const children: ChildProcess[] = [];
  const dirs: string[] = [];

  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged write across ${TRIALS} random kills`, async () => {
    const seed = Number(process.env.KD_DURABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`      durability seed=${seed} (KD_DURABILITY_SEED to replay)`);
    const random = prng(seed);
    for (let i = 0; i < 2; i++) dirs.push(await mkdtemp(join(tmpdir(), `kd-durability-${i}-`)));
    const models = dirs.map(() => new Map<string, KeyState>());
    const totals = { acked: 0, killedBeforeReady: 0, midCompaction: 0, tornTails: 0, started: Date.now() };

    for (let trial = 0; trial < TRIALS; trial++) {
      // Alternate two folders, so each trial opens what an earlier kill left behind.
      const dir = dirs[trial % 2];
      const model = models[trial % 2];
      const context = `seed=${seed} trial=${trial} dir=${dir}`;
      const early = random() < 0.2;
      const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, String(seed + trial), String(trial * 10_000_000)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const log = await runAndKill(child, early ? undefined : Math.floor(random() * 250), Math.floor(random() * 600));
      assert.equal(log.exit.signal, 'SIGKILL', `${context}: writer ended by itself: ${log.stderr}`);
      const files = await readdir(dir);
      if (files.includes('snapshot.json.tmp') || files.filter((f) => f.endsWith('.jsonl')).length > 1) totals.midCompaction++;
      if (!log.sawReady) totals.killedBeforeReady++;

      // What the writer said: the last acknowledged state of each key, and the commit in flight.
      const tries = new Map<number, { key: string; state: KeyState }[]>();
      const acked = new Map<string, KeyState>();
      const inFlight = new Map<string, { op: number; state: KeyState }>();
      for (const line of log.lines) {
        const [word, opText, ...rest] = line.split(' ');
        const op = Number(opText);
        if (word === 'try') {
          const entries = rest.map((e) => {
            const [key, kind] = e.split('=');
            return { key, state: kind === 'put' ? op : null };
          });
          tries.set(op, entries);
          for (const e of entries) inFlight.set(e.key, { op, state: e.state });
        } else if (word === 'ack') {
          totals.acked++;
          for (const e of tries.get(op)!) {
            acked.set(e.key, e.state);
            if (inFlight.get(e.key)?.op === op) inFlight.delete(e.key);
          }
          tries.delete(op);
        }
      }

      const journal = await Journal.open({ dir });
      try {
        if (journal.stats.loaded.truncatedBytes > 0) totals.tornTails++;
        const actual = new Map<string, KeyState>();
        for (const [key, value] of journal.collection<ReturnType<typeof valueFor>>(COLLECTION)) {
          assert.ok(ALL_KEYS.includes(key), `${context}: unexpected key ${key}`);
          assert.deepEqual(value, valueFor(value.op, key), `${context}: damaged value of ${key}`);
          actual.set(key, value.op);
        }
        for (const key of ALL_KEYS) {
          const got = actual.get(key) ?? null;
          const expected = acked.has(key) ? acked.get(key)! : (model.get(key) ?? null);
          const allowed = [expected, ...(inFlight.has(key) ? [inFlight.get(key)!.state] : [])];
          assert.ok(
            allowed.includes(got),
            `${context}: ${key} is ${got}, acknowledged ${expected}, allowed ${allowed.map(String).join('|')}`,
          );
        }
        // A commit in flight at the kill is all-or-nothing across its keys.
        for (const [op, entries] of tries) {
          const visible = entries
            .filter((e) => e.state !== (acked.has(e.key) ? acked.get(e.key)! : (model.get(e.key) ?? null)))
            .map((e) => (actual.get(e.key) ?? null) === e.state);
          assert.ok(
            visible.every((v) => v === visible[0]),
            `${context}: op ${op} applied partially`,
          );
        }
        model.clear();
        for (const [key, state] of actual) model.set(key, state);
      } finally {
        await journal.close();
      }
    }
    const seconds = ((Date.now() - totals.started) / 1000).toFixed(1);
    console.log(
      `      ${TRIALS} kills in ${seconds} s: ${totals.acked} acknowledged commits checked; ` +
        `${totals.killedBeforeReady} kills before ready, ${totals.midCompaction} mid-compaction, ${totals.tornTails} torn tails truncated`,
    );
    assert.ok(totals.acked > 0);
  });
});
