// The journal's active log file: appends of whole commits, durable before they resolve when the journal fsyncs.
// A flush used to be two trips to the thread pool, a write and then an fdatasync, each waking a pool thread and
// waiting for the event loop to hand over the next step. When the platform has O_DSYNC, an append that fits in one
// write goes through a second handle opened with it: the write returns once the data is on disk, as fdatasync
// would (the rule stays: each write fsynced before its 2xx), in one trip. An append of several writes (a large
// upload's commit) goes through the plain handle and is synced once at its end, not once per write.
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { writeAll } from './durableFs';
import { FILE_MODE } from './fileModes';
import type { Prepared } from './journalFormat';

/** Characters of log text turned into one write (and one Buffer) at a time. */
const WRITE_CHUNK = 256 * 1024;

export class LogFile {
  private constructor(
    private readonly handle: FileHandle,
    /** The same file opened with O_DSYNC; only when the journal fsyncs and the platform has it (not Windows). */
    private readonly dsync: FileHandle | undefined,
    private readonly fsync: boolean,
  ) {}

  static async open(path: string, flags: number, fsync: boolean): Promise<LogFile> {
    const handle = await open(path, flags, FILE_MODE);
    if (!fsync || !constants.O_DSYNC) return new LogFile(handle, undefined, fsync);
    try {
      return new LogFile(handle, await open(path, constants.O_WRONLY | constants.O_DSYNC), fsync);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /**
   * Appends commits at `offset`, one line each (a commit of several records is one JSON array), numbering records
   * after `seq`, and resolves once they are durable (if the journal fsyncs). Written in pieces of about WRITE_CHUNK,
   * so a commit of thousands of records never becomes one giant string; a crash part-way leaves a torn last line,
   * which recovery cuts off: a commit is there whole or not at all.
   */
  async append(offset: number, seq: number, commits: ReadonlyArray<readonly Prepared[]>): Promise<{ seq: number; written: number }> {
    // One turn of the microtask queue first, as the write always had: commits made by requests handled in the
    // same turn join this batch instead of waiting for the next (measured: starting at once lowered concurrency 4).
    await undefined;
    const lines = commitLines(seq, commits);
    let next = lines.next();
    if (next.done) {
      const buf = Buffer.from(next.value.rest, 'utf8');
      if (buf.length === 0) return { seq: next.value.seq, written: 0 };
      await writeAll(this.dsync ?? this.handle, buf, offset);
      if (this.fsync && !this.dsync) await this.handle.datasync();
      return { seq: next.value.seq, written: buf.length };
    }
    let written = 0;
    for (;;) {
      const buf = Buffer.from(next.done ? next.value.rest : next.value, 'utf8');
      await writeAll(this.handle, buf, offset + written);
      written += buf.length;
      if (next.done) break;
      next = lines.next();
    }
    if (this.fsync) await this.handle.datasync();
    return { seq: next.value.seq, written };
  }

  async truncate(length: number): Promise<void> {
    await this.handle.truncate(length);
    if (this.fsync) await this.handle.datasync();
  }

  async close(): Promise<void> {
    await this.dsync?.close().catch(() => undefined);
    await this.handle.close();
  }
}

/** The log text of `commits` in pieces of at least WRITE_CHUNK characters; returns the last seq and what is left. */
function* commitLines(seq: number, commits: ReadonlyArray<readonly Prepared[]>): Generator<string, { seq: number; rest: string }> {
  let piece = '';
  for (const records of commits) {
    if (records.length === 1) piece += `{"s":${++seq},${records[0].body}}\n`;
    else if (records.length > 1) {
      for (const [i, r] of records.entries()) {
        piece += `${i === 0 ? '[' : ','}{"s":${++seq},${r.body}}`;
        if (piece.length >= WRITE_CHUNK) {
          yield piece;
          piece = '';
        }
      }
      piece += ']\n';
    }
    if (piece.length >= WRITE_CHUNK) {
      yield piece;
      piece = '';
    }
  }
  return { seq, rest: piece };
}
