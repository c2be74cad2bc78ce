// csv-parse with row numbers that point at physical lines and a resync after each broken record.
//
// Records are taken as csv-parse pushes them (nothing reaches the readable side), so the parser is
// driven synchronously by write()/end() and `parser.info` describes the record being pushed. (on_record
// would give the same, but builds two copies of the info object per record: 6% of a dry run's time.)
// Each record's first line is counted from the line breaks inside its cells and csv-parse's count of
// skipped empty lines (its own `lines` counts a CRLF inside quotes twice).
// A record csv-parse cannot read (`skip_records_with_error` + `on_skip`) is reported on the line it
// starts on, then a fresh parser starts on the NEXT line: a stray quote would otherwise swallow every
// following line up to the next quote (or the end of the file), and letting csv-parse carry on in that
// state silently drops those rows. Re-reading them means a line that really continued a multi-line
// cell is read as a record of its own: usually a missing-answer error, at worst (when it holds a comma)
// an odd row that the dry run shows next to the error on the line above; visible, never silent.
// The bytes fed since the last good record are kept for that (at most MAX_RECORD_BYTES and a chunk).
import type { CsvError, Options, Parser } from 'csv-parse';
import type * as CsvParse from 'csv-parse';
import type { BrokenRecord } from './collector';
import { quoteProblemLine } from './quoteScan';

const LF = 10;
const CR = 13;
const CR_SEQUENCE = /\r\n?/g;

/** A record larger than this is reported (usually an unclosed quote); 1 MB cells pass. */
export const MAX_RECORD_BYTES = 8 * 1024 * 1024;

export interface RecordSink {
  record(cells: string[], row: number): void;
  brokenRecord(b: BrokenRecord): void;
}

export class ResyncingCsvParser {
  private parser!: Parser;
  /** Offsets are in bytes of what was written; `base` is where the current parser started. */
  private base = 0;
  private prevEnd = 0;
  private nextLine = 1;
  private emptyAtPrev = 0;
  private window: Buffer[] = [];
  private windowStart = 0;
  private failure: CsvError | undefined;
  /** After a resync: drop a LF that completes a CR at the end of the data (CRLF split between writes). */
  private dropLF = false;
  /** After a resync with no line break yet: drop bytes up to the end of the current line. */
  private skipLine = false;

  constructor(
    private readonly delimiter: ',' | '\t',
    private readonly sink: RecordSink,
    private readonly maxRecordBytes = MAX_RECORD_BYTES,
  ) {
    this.reset(0, 1);
  }

  write(chunk: Buffer): void {
    let data: Buffer | undefined = this.skipping(chunk);
    while (data && data.length) {
      this.window.push(data);
      this.parser.write(data);
      data = this.settle().rest;
    }
  }

  end(): void {
    for (;;) {
      this.parser.end();
      const { restarted, rest } = this.settle();
      if (!restarted) return;
      if (rest) this.write(rest);
    }
  }

  private reset(offset: number, line: number): void {
    const options: Options = {
      delimiter: this.delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      max_record_size: this.maxRecordBytes,
      on_skip: (err: CsvError | undefined) => {
        this.failure ??= err;
        throw err; // stops this parser at once; settle() resyncs
      },
    };
    this.parser = new (recordParser())(options, (cells) => this.onRecord(cells));
    this.parser.on('error', () => undefined); // reported through on_skip / settle()
    this.base = this.prevEnd = this.windowStart = offset;
    this.nextLine = line;
    this.emptyAtPrev = 0;
    this.window = [];
  }

  private onRecord(cells: string[]): void {
    const info = this.parser.info;
    const row = this.nextLine + (info.empty_lines - this.emptyAtPrev);
    let breaks = 0;
    for (let i = 0; i < cells.length; i++) {
      let c = cells[i];
      if (c.indexOf('\r') !== -1) cells[i] = c = c.replace(CR_SEQUENCE, '\n');
      for (let j = c.indexOf('\n'); j !== -1; j = c.indexOf('\n', j + 1)) breaks++;
    }
    this.prevEnd = this.base + info.bytes;
    this.nextLine = row + 1 + breaks;
    this.emptyAtPrev = info.empty_lines;
    this.sink.record(cells, row);
  }

  private settle(): { restarted: boolean; rest?: Buffer } {
    const err = this.failure;
    if (!err) {
      if (this.parser.errored) throw this.parser.errored; // thrown by our own callbacks
      while (this.window.length && this.windowStart + this.window[0].length <= this.prevEnd)
        this.windowStart += this.window.shift()!.length;
      return { restarted: false };
    }
    this.failure = undefined;
    return { restarted: true, rest: this.resync(err) };
  }

  /** Reports the broken record and restarts on the line after its first line; returns the bytes to feed again. */
  private resync(err: CsvError): Buffer | undefined {
    const data = this.window.length === 1 ? this.window[0] : Buffer.concat(this.window);
    const blankLines = this.parser.info.empty_lines - this.emptyAtPrev;
    const row = this.nextLine + blankLines;
    let start = this.prevEnd - this.windowStart;
    for (let k = 0; k < blankLines && start < data.length; k++) start += data[start] === CR && data[start + 1] === LF ? 2 : 1;
    const lf = data.indexOf(LF, start);
    const cr = data.indexOf(CR, start);
    const eol = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
    const atEnd = err.code === 'CSV_QUOTE_NOT_CLOSED';
    const kind: BrokenRecord['kind'] =
      err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'unclosed-quote' : err.code === 'CSV_MAX_RECORD_SIZE' ? 'record-too-large' : 'bad-quote';
    const offset = kind === 'record-too-large' ? undefined : quoteProblemLine(data, start, this.delimiter.charCodeAt(0));
    const resumes = eol >= 0 || !atEnd;
    this.sink.brokenRecord({
      row,
      ...(offset ? { line: row + offset } : {}),
      kind,
      ...(typeof err.column === 'number' ? { columnIndex: err.column } : {}),
      ...(resumes ? { resumedAt: row + 1 } : {}),
      ...(kind === 'record-too-large' ? { maxBytes: this.maxRecordBytes } : {}),
    });
    if (eol < 0) {
      // The broken record's first line has not ended in what was written: skip the rest of it.
      this.reset(this.windowStart + data.length, row + 1);
      this.skipLine = !atEnd;
      return undefined;
    }
    const resume = eol + (data[eol] === CR && data[eol + 1] === LF ? 2 : 1);
    this.reset(this.windowStart + resume, row + 1);
    this.dropLF = data[eol] === CR && eol + 1 === data.length;
    return data.subarray(resume);
  }

  /** Applies dropLF / skipLine to newly written bytes; moves the offsets past what is dropped. */
  private skipping(chunk: Buffer): Buffer {
    let cut = 0;
    if (this.skipLine) {
      const lf = chunk.indexOf(LF);
      const cr = chunk.indexOf(CR);
      const eol = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      if (eol < 0) cut = chunk.length;
      else {
        this.skipLine = false;
        cut = eol + (chunk[eol] === CR && chunk[eol + 1] === LF ? 2 : 1);
        this.dropLF = chunk[eol] === CR && eol + 1 === chunk.length;
      }
    } else if (this.dropLF && chunk.length) {
      this.dropLF = false;
      if (chunk[0] === LF) cut = 1;
    }
    if (cut === 0) return chunk;
    this.base += cut;
    this.prevEnd += cut;
    this.windowStart += cut;
    return chunk.subarray(cut);
  }
}

type RecordParserClass = new (options: Options, onRecord: (cells: string[]) => void) => Parser;
let recordParserClass: RecordParserClass | undefined;

/**
 * A csv-parse Parser handing each record to a callback at the moment it is parsed. Defined on the first
 * parse: the extension's bundle keeps csv-parse in a file of its own (esbuild.mjs), required on first use.
 */
function recordParser(): RecordParserClass {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on the first CSV, not at activation
  return (recordParserClass ??= class RecordParser extends (require('csv-parse') as typeof CsvParse).Parser {
    constructor(
      options: Options,
      private readonly onRecord: (cells: string[]) => void,
    ) {
      super(options);
    }

    override push(chunk: unknown, encoding?: BufferEncoding): boolean {
      if (chunk === null) return super.push(chunk, encoding);
      this.onRecord(chunk as string[]);
      return true;
    }
  });
}
