// CSV/TSV Q&A files, streamed: encoding (BOM → UTF-8; valid UTF-8; otherwise Shift_JIS), delimiter
// (.tsv, or tabs vs commas outside quotes in the header line), then csv-parse with resync.
import * as l10n from '@vscode/l10n';
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';
import type { QaCollector } from './collector';
import { ResyncingCsvParser } from './csvResync';

const CHUNK = 256 * 1024;
const QUOTE = 34;
const LF = 10;
const CR = 13;
const TAB = 9;
const COMMA = 44;

export type CsvEncoding = 'utf-8' | 'utf-8-bom' | 'shift_jis';

export interface CsvRead {
  sink: QaCollector;
  encoding: CsvEncoding;
  delimiter: ',' | '\t';
}

class NotUtf8 extends Error {}

/**
 * Reads optimistically as UTF-8 (checking each chunk natively, nothing decoded twice); at the first
 * invalid byte the whole file is read again as Shift_JIS into a fresh collector.
 */
export async function readCsv(path: string, tsv: boolean, newSink: () => QaCollector, signal?: AbortSignal): Promise<CsvRead> {
  try {
    return await readPass(path, tsv, false, newSink(), signal);
  } catch (error) {
    if (!(error instanceof NotUtf8)) throw error;
    return readPass(path, tsv, true, newSink(), signal);
  }
}

async function readPass(path: string, tsv: boolean, shiftJis: boolean, sink: QaCollector, signal?: AbortSignal): Promise<CsvRead> {
  signal?.throwIfAborted();
  let encoding: CsvEncoding = shiftJis ? 'shift_jis' : 'utf-8';
  let delimiter: ',' | '\t' = tsv ? '\t' : ',';
  let parser: ResyncingCsvParser | undefined;
  let decoder: TextDecoder | undefined;
  let utf8: Utf8Check | undefined;
  let replaced = false;
  const stream = createReadStream(path, { highWaterMark: CHUNK });
  try {
    for await (const raw of stream as AsyncIterable<Buffer>) {
      signal?.throwIfAborted();
      let chunk = raw;
      if (!parser) {
        if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
          encoding = 'utf-8-bom';
          chunk = chunk.subarray(3);
        } else if ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff)) {
          sink.fileProblem('unsupported-encoding', l10n.t('The file is UTF-16 text. Save it as CSV UTF-8 (or Shift_JIS) and try again.'));
          return { sink, encoding, delimiter };
        }
        if (!tsv) delimiter = sniffDelimiter(chunk);
        parser = new ResyncingCsvParser(delimiter, sink);
        if (encoding === 'shift_jis') decoder = new TextDecoder('shift_jis');
        else if (encoding === 'utf-8') utf8 = new Utf8Check();
      }
      if (decoder) {
        const text = decoder.decode(chunk, { stream: true });
        replaced ||= text.includes('\uFFFD');
        chunk = Buffer.from(text, 'utf8');
      } else if (utf8 && !utf8.check(chunk)) throw new NotUtf8();
      parser.write(chunk);
      if (sink.stopped) break;
    }
    if (parser && !sink.stopped) {
      if (utf8 && !utf8.complete()) throw new NotUtf8();
      const tail = decoder?.decode();
      if (tail) {
        replaced ||= tail.includes('\uFFFD');
        parser.write(Buffer.from(tail, 'utf8'));
      }
      parser.end();
    }
  } finally {
    stream.destroy();
  }
  if (replaced)
    sink.problems.unshift({
      row: 1,
      severity: 'warning',
      code: 'encoding',
      message: l10n.t(
        'Some bytes are neither UTF-8 nor Shift_JIS; they were replaced with "{0}". Save the file as CSV UTF-8 to keep every character.',
        '\uFFFD',
      ),
    });
  sink.finish();
  return { sink, encoding, delimiter };
}

/** Tabs vs commas outside quotes on the first non-empty line (the header). */
export function sniffDelimiter(buf: Uint8Array): ',' | '\t' {
  let tabs = 0;
  let commas = 0;
  let quoting = false;
  let started = false;
  for (let i = 0; i < buf.length && i < 65536; i++) {
    const b = buf[i];
    if (b === QUOTE) quoting = !quoting;
    else if (quoting) continue;
    else if (b === LF || b === CR) {
      if (started) break;
    } else {
      started = true;
      if (b === TAB) tabs++;
      else if (b === COMMA) commas++;
    }
  }
  return tabs > commas ? '\t' : ',';
}

/** Native UTF-8 validation across chunk boundaries (a character cut by the boundary waits for the next chunk). */
class Utf8Check {
  private carry: Buffer | undefined;

  check(chunk: Buffer): boolean {
    const buf = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const cut = completeLength(buf);
    this.carry = cut < buf.length ? Buffer.from(buf.subarray(cut)) : undefined;
    return isUtf8(buf.subarray(0, cut));
  }

  complete(): boolean {
    return !this.carry;
  }
}

function completeLength(buf: Buffer): number {
  let i = buf.length - 1;
  for (let k = 0; i >= 0 && k < 3 && (buf[i] & 0xc0) === 0x80; k++) i--;
  if (i < 0) return buf.length;
  const lead = buf[i];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return buf.length - i < need ? i : buf.length;
}
