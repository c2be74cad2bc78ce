// A first pass over a CSV/TSV Q&A file, in bounded memory, before any row is read: which encoding to decode
// it with, and how many records it holds (so a file over a row limit is refused before anything is applied).
// Deciding the encoding up front also means rows handed out while reading are never read again in another one.
//
// The guess: a BOM says UTF-8 (or UTF-16, refused); bytes that are valid UTF-8 are UTF-8; otherwise Shift_JIS or
// Windows-1252 (a superset of Latin-1). Both decode nearly any bytes, so the choice is by what the text looks
// like as Shift_JIS: Japanese has kana and Japanese punctuation, which Latin-1 letters never decode to (é, ü, ß
// come out as half-width katakana, rare kanji or private-use characters, or as invalid pairs).
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';

export type CsvEncoding = 'utf-8' | 'utf-8-bom' | 'shift_jis' | 'windows-1252' | 'utf-16';

export interface CsvScan {
  encoding: CsvEncoding;
  /** Records with something on them outside quotes, header included (blank lines not counted). */
  records: number;
}

const CHUNK = 256 * 1024;
const QUOTE = 34;
const LF = 10;
const CR = 13;

export async function scanCsv(path: string, signal?: AbortSignal): Promise<CsvScan> {
  let first = true;
  let encoding: CsvEncoding = 'utf-8';
  let utf8: Utf8Check | undefined = new Utf8Check();
  const count = new RecordCounter();
  for await (const raw of createReadStream(path, { highWaterMark: CHUNK }) as AsyncIterable<Buffer>) {
    signal?.throwIfAborted();
    let chunk = raw;
    if (first) {
      first = false;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        encoding = 'utf-8-bom';
        chunk = chunk.subarray(3);
      } else if ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff)) {
        return { encoding: 'utf-16', records: 0 };
      }
    }
    if (utf8 && !utf8.check(chunk)) utf8 = undefined;
    count.add(chunk);
  }
  if (utf8 && !utf8.complete()) utf8 = undefined;
  if (!utf8) encoding = (await looksJapanese(path, signal)) ? 'shift_jis' : 'windows-1252';
  return { encoding, records: count.total() };
}

/**
 * Decoded as Shift_JIS, does the file read as Japanese? Kana, Japanese punctuation and full-width forms count
 * for it; half-width katakana, private-use characters and invalid sequences against it.
 */
async function looksJapanese(path: string, signal?: AbortSignal): Promise<boolean> {
  const decoder = new TextDecoder('shift_jis');
  let japanese = 0;
  let odd = 0;
  const tally = (text: string): void => {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) continue;
      if ((c >= 0x3000 && c <= 0x30ff) || (c >= 0xff01 && c <= 0xff5e)) japanese++;
      else if ((c >= 0xff61 && c <= 0xff9f) || (c >= 0xe000 && c <= 0xf8ff) || c === 0xfffd) odd++;
    }
  };
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK }) as AsyncIterable<Buffer>) {
    signal?.throwIfAborted();
    tally(decoder.decode(chunk, { stream: true }));
  }
  tally(decoder.decode());
  return japanese > 0 && japanese >= odd;
}

/** Counts records: a line with something on it that starts outside quotes. Quotes and line breaks are ASCII in all three encodings. */
class RecordCounter {
  private quoting = false;
  private lineStart = true;
  private records = 0;

  add(buf: Uint8Array): void {
    let { quoting, lineStart, records } = this;
    for (let i = 0; i < buf.length; i++) {
      const b = buf[i];
      if (b === QUOTE) {
        if (lineStart) records++;
        lineStart = false;
        quoting = !quoting;
      } else if (quoting) continue;
      else if (b === LF || b === CR) lineStart = true;
      else if (lineStart) {
        records++;
        lineStart = false;
      }
    }
    this.quoting = quoting;
    this.lineStart = lineStart;
    this.records = records;
  }

  total(): number {
    return this.records;
  }
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
