// CSV/TSV Q&A files, streamed: the encoding chosen by a first pass (csvScan.ts), the delimiter (.tsv, or tabs
// vs commas outside quotes in the header line), then csv-parse with resync.
import * as l10n from '@vscode/l10n';
import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';
import type { QaCollector } from './collector';
import type { CsvEncoding, CsvScan } from './csvScan';
import { ResyncingCsvParser } from './csvResync';

/** Small enough that parsing one chunk (about 1,500 rows) between two awaits keeps a service answering. */
const CHUNK = 64 * 1024;
const QUOTE = 34;
const LF = 10;
const CR = 13;
const TAB = 9;
const COMMA = 44;

export type { CsvEncoding };

export interface CsvRead {
  sink: QaCollector;
  encoding: Exclude<CsvEncoding, 'utf-16'>;
  delimiter: ',' | '\t';
}

export interface CsvReadOptions {
  signal?: AbortSignal;
  /** Awaited after each chunk's records reached the collector: a consumer takes them (bounded memory, backpressure). */
  afterChunk?: () => Promise<void>;
}

/** Reads the file once, decoded as `scan` says. */
export async function readCsv(
  path: string,
  tsv: boolean,
  scan: CsvScan,
  sink: QaCollector,
  options: CsvReadOptions = {},
): Promise<CsvRead> {
  const { signal, afterChunk } = options;
  signal?.throwIfAborted();
  let delimiter: ',' | '\t' = tsv ? '\t' : ',';
  if (scan.encoding === 'utf-16') {
    sink.fileProblem('unsupported-encoding', l10n.t('The file is UTF-16 text. Save it as CSV UTF-8 (or Shift_JIS) and try again.'));
    return { sink, encoding: 'utf-8', delimiter };
  }
  const encoding = scan.encoding;
  const decoder = encoding === 'shift_jis' || encoding === 'windows-1252' ? new TextDecoder(encoding) : undefined;
  let parser: ResyncingCsvParser | undefined;
  let replaced = false;
  const stream = createReadStream(path, { highWaterMark: CHUNK });
  try {
    for await (const raw of stream as AsyncIterable<Buffer>) {
      signal?.throwIfAborted();
      let chunk = raw;
      if (!parser) {
        if (encoding === 'utf-8-bom') chunk = chunk.subarray(3);
        if (!tsv) delimiter = sniffDelimiter(chunk);
        parser = new ResyncingCsvParser(delimiter, sink);
      }
      if (decoder) {
        const text = decoder.decode(chunk, { stream: true });
        replaced ||= text.includes('\uFFFD');
        chunk = Buffer.from(text, 'utf8');
      }
      parser.write(chunk);
      if (sink.stopped) break;
      await afterChunk?.();
    }
    if (parser && !sink.stopped) {
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
