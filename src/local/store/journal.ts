// Durable key/value store of named collections: `snapshot.json` plus append-only
// JSONL logs `log.<generation>.jsonl`. Every record carries a sequence number, so
// replaying a log over a newer snapshot is idempotent (records <= snapshot seq are skipped).
//
// A commit takes effect in memory synchronously, in the order of commit() calls, and is written in that
// same order; it resolves once durable. So code that reads, decides and calls commit() without an await in
// between is a read-modify-write that no other writer can interleave (docs/local-service-storage.md).
import { syncDir } from './durableFs';
import { JournalMemory, type JournalWatcher, type Undo } from './journalMemory';
import { createLog, recover, removeLogsBefore, type LoadedStats } from './journalRecovery';
import type { Captured, Prepared, State } from './journalFormat';
import { JournalCorruptionError, prepare, writeSnapshot, type JournalRecord } from './journalFormat';
import type { LogFile } from './journalLog';

export { JournalCorruptionError, type JournalRecord };

export interface JournalOptions {
  dir: string;
  /** fdatasync every write before acknowledging it (default true). */
  fsync?: boolean;
  compactAfterRecords?: number;
  compactAfterBytes?: number;
  /** Test option: told the sequence number of each commit's last record as commit() is called. */
  onCommit?: (seq: number) => void;
}

export type { JournalWatcher };

export interface JournalStats {
  seq: number;
  logRecords: number;
  logBytes: number;
  /** Write+fdatasync rounds so far; one round serves every commit queued behind the previous one. */
  flushes: number;
  compactions: number;
  loaded: LoadedStats;
}

const MAX_BATCH_BYTES = 8 * 1024 * 1024;

interface Pending {
  records: Prepared[];
  /** What the records replaced, to undo them if their write fails. */
  undo: Undo[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class Journal {
  private readonly queue: Pending[] = [];
  /** The batch being written now (out of `queue`, not yet durable). */
  private inFlight: Pending[] = [];
  private running: Promise<void> | undefined;
  private rotation: { resolve: (c: Captured) => void; reject: (err: unknown) => void } | undefined;
  private compactions: Promise<void> = Promise.resolve();
  private autoCompacting = false;
  private failure: Error | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;
  private counters = { flushes: 0, compactions: 0 };
  private readonly memory: JournalMemory;
  /** Sequence number of the last record committed (durable or not); `seq` is the last durable one. */
  private headSeq: number;
  /** Last automatic compaction failure (the logs stay in place, nothing is lost). */
  lastCompactionError: unknown;

  private constructor(
    private readonly dir: string,
    private readonly options: Required<Omit<JournalOptions, 'dir' | 'onCommit'>>,
    private readonly state: State,
    private seq: number,
    private log: LogFile,
    private gen: number,
    private logOffset: number,
    private logRecords: number,
    private readonly loaded: JournalStats['loaded'],
    private readonly onCommit: ((seq: number) => void) | undefined,
  ) {
    this.headSeq = seq;
    this.memory = new JournalMemory(state);
  }

  static async open(options: JournalOptions): Promise<Journal> {
    const settings = {
      fsync: options.fsync ?? true,
      compactAfterRecords: options.compactAfterRecords ?? 20_000,
      compactAfterBytes: options.compactAfterBytes ?? 16 * 1024 * 1024,
    };
    const r = await recover(options.dir, settings.fsync);
    const { dir, onCommit } = options;
    const journal = new Journal(dir, settings, r.state, r.seq, r.log, r.gen, r.logOffset, r.logRecords, r.loaded, onCommit);
    // Leftovers of an interrupted compaction: fold them into a snapshot so only one log remains.
    if (r.logCount > 1) await journal.compact().catch((err) => (journal.lastCompactionError = err));
    return journal;
  }

  get stats(): JournalStats {
    return { seq: this.seq, logRecords: this.logRecords, logBytes: this.logOffset, ...this.counters, loaded: { ...this.loaded } };
  }

  /** True when every commit is durable: memory then holds exactly what the disk does up to `stats.seq`. */
  get settled(): boolean {
    return this.headSeq === this.seq;
  }

  get<T>(collection: string, key: string): T | undefined {
    return this.state.get(collection)?.get(key) as T | undefined;
  }

  /** Live view: later commits show up in the returned map. Treat values as immutable. */
  collection<T>(collection: string): ReadonlyMap<string, T> {
    let map = this.state.get(collection);
    if (!map) this.state.set(collection, (map = new Map()));
    return map as ReadonlyMap<string, T>;
  }

  /**
   * The values that commits not yet durable replaced or removed in `collection`: after a crash the disk still
   * holds them. A step that cannot be undone, decided from memory (deleting a file no record names any more),
   * must count them too.
   */
  *pendingReplaced(collection: string): IterableIterator<unknown> {
    for (const p of [...this.inFlight, ...this.queue])
      for (const u of p.undo) if (u.c === collection && u.previous !== undefined) yield u.previous;
  }

  /** Calls `watcher` for every later change of `collection` (derived indexes follow the journal exactly). */
  watch(collection: string, watcher: JournalWatcher): void {
    this.memory.watch(collection, watcher);
  }

  /**
   * Applies the records in memory now (later readers and writers see them) and resolves once they are on
   * disk (fdatasync'ed); all or nothing. If the write fails, this commit and every one queued after it
   * (they may have read it) are undone in memory and rejected.
   */
  commit(records: JournalRecord[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('Journal is closed'));
    if (this.failure) return Promise.reject(this.failure);
    let prepared: Prepared[];
    try {
      prepared = records.map(prepare);
    } catch (err) {
      return Promise.reject(err);
    }
    const undo = prepared.map((r) => this.memory.set(r.c, r.k, r.json === undefined ? undefined : JSON.parse(r.json)));
    this.headSeq += prepared.length;
    this.onCommit?.(this.headSeq);
    return new Promise((resolve, reject) => {
      this.queue.push({ records: prepared, undo, resolve, reject });
      this.kick();
    });
  }

  /** Undoes (newest first) and rejects commits whose write failed or never happened. */
  private abandon(pending: Pending[], err: unknown): void {
    this.memory.undo(pending.map((p) => p.undo));
    this.headSeq = this.seq;
    for (const p of pending) p.reject(err);
  }

  compact(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('Journal is closed'));
    const run = this.compactions.catch(() => undefined).then(() => this.compactOnce());
    this.compactions = run;
    return run;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      while (this.running) await this.running;
      await this.compactions.catch(() => undefined);
      await this.log.close();
    })();
    return this.closing;
  }

  private kick(): void {
    if (this.running) return;
    this.running = this.pump()
      .catch((err: unknown) => {
        // Unexpected (write errors are handled in flush): stop accepting commits rather than guess.
        this.failure ??= err instanceof Error ? err : new Error(String(err));
      })
      .finally(() => {
        this.running = undefined;
        if (this.queue.length > 0 || this.rotation) this.kick();
      });
  }

  // The single writer loop: commits queued while a flush is in flight go out together in the next one.
  private async pump(): Promise<void> {
    for (;;) {
      if (this.failure) {
        this.abandon(this.queue.splice(0), this.failure);
        this.rotation?.reject(this.failure);
        this.rotation = undefined;
        return;
      }
      const rotation = this.rotation;
      if (rotation) {
        this.rotation = undefined;
        await this.rotate().then(rotation.resolve, rotation.reject);
        continue;
      }
      if (this.queue.length === 0) return;
      let bytes = 0;
      let n = 0;
      while (n < this.queue.length && (n === 0 || bytes < MAX_BATCH_BYTES)) {
        for (const r of this.queue[n].records) bytes += r.body.length;
        n++;
      }
      await this.flush(this.queue.splice(0, n));
    }
  }

  private async flush(batch: Pending[]): Promise<void> {
    this.inFlight = batch;
    let seq = this.seq;
    let written = 0;
    try {
      ({ seq, written } = await this.log.append(
        this.logOffset,
        seq,
        batch.map((p) => p.records),
      ));
    } catch (err) {
      await this.undoPartialWrite(err);
      this.inFlight = [];
      // Later commits were decided on top of this batch: they go too.
      this.abandon([...batch, ...this.queue.splice(0)], err);
      return;
    }
    if (written > 0) this.counters.flushes++;
    this.logOffset += written;
    this.logRecords += seq - this.seq;
    this.seq = seq;
    this.inFlight = [];
    for (const p of batch) p.resolve();
    const { compactAfterRecords, compactAfterBytes } = this.options;
    if (!this.autoCompacting && !this.closed && (this.logRecords >= compactAfterRecords || this.logOffset >= compactAfterBytes)) {
      this.autoCompacting = true;
      this.compact()
        .then(
          () => (this.lastCompactionError = undefined),
          (err) => (this.lastCompactionError = err),
        )
        .finally(() => (this.autoCompacting = false));
    }
  }

  // A failed append may have left part of the batch in the file: cut it off so the next append
  // starts on a line boundary. If even that fails, refuse further commits (reopen to recover).
  private async undoPartialWrite(cause: unknown): Promise<void> {
    try {
      await this.log.truncate(this.logOffset);
    } catch {
      this.failure = new Error(`Journal in ${this.dir} is unusable after a failed write; reopen it`, { cause });
    }
  }

  private async compactOnce(): Promise<void> {
    const captured = await new Promise<Captured>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.rotation = { resolve, reject };
      this.kick();
    });
    // Commits continue into the new log while the snapshot of `captured` is written.
    await writeSnapshot(this.dir, captured);
    await removeLogsBefore(this.dir, captured.gen);
    this.counters.compactions++;
  }

  // Runs inside the writer loop, between flushes: memory is what is durable at `seq` plus the queued commits.
  private async rotate(): Promise<Captured> {
    const gen = this.gen + 1;
    const next = await createLog(this.dir, gen, this.options.fsync);
    try {
      // The new name must be durable before acknowledged records land in it.
      await syncDir(this.dir);
    } catch (err) {
      await next.close();
      throw err;
    }
    const previous = this.log;
    this.log = next;
    this.gen = gen;
    this.logOffset = 0;
    this.logRecords = 0;
    await previous.close().catch(() => undefined);
    // The snapshot holds what is durable at `seq` only: queued commits go to the new log.
    const state = this.memory.copyWithout(this.queue.map((p) => p.undo));
    return { seq: this.seq, gen, state };
  }
}
