// Counts what the parts of a DOCX/XLSX inflate to before mammoth or exceljs open it (issue 23). Both unzip
// through JSZip into buffers outside the V8 heap: a 3 MB word/document.xml of deflated zeros became 2.2 GB.
// The parts are streamed through yauzl here, counted and dropped, under the same ratio rule as ZIP uploads.
import { openPromise, type Entry, type ZipFile } from 'yauzl';
import type { DecodeBudget } from './decodeLimits';

// Images and embedded files are never decoded for text (mammoth is given no image reader, exceljs skips
// media): they count only against the ratio, so a document full of pictures is not refused for its size.
const MEDIA = /(^|\/)(media|embeddings)\/|\.(png|jpe?g|gif|bmp|tiff?|emf|wmf|svg|wdp)$/i;

/** Throws the budget's ExtractionError when a part's declared or real size breaks the cap or the ratio. */
export async function checkOfficeParts(filePath: string, budget: DecodeBudget): Promise<void> {
  let zip: ZipFile | undefined;
  try {
    // Names stay raw bytes: decoding makes yauzl stop at a name like "../x", and the parts after it would go
    // unchecked while JSZip still reads them. Sizes are not held to the header: the real bytes are counted.
    zip = await openPromise(filePath, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false });
  } catch {
    return; // not readable as a ZIP here: mammoth or exceljs give the precise reason
  }
  try {
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      const name = Buffer.from(entry.fileName as unknown as Uint8Array).toString('utf8');
      if (name.endsWith('/') || entry.isEncrypted()) continue;
      const media = MEDIA.test(name);
      const part = `part ${JSON.stringify(name)}`;
      // Headers can lie, so they only reject early; the bytes counted below decide.
      budget.checkRatio(entry.uncompressedSize, entry.compressedSize, part);
      if (!media) budget.checkDeclared(entry.uncompressedSize);
      await countEntry(zip, entry, (chunk, decoded) => {
        if (!media) budget.count(chunk);
        budget.checkRatio(decoded, entry.compressedSize, part);
      });
    }
  } finally {
    zip.close();
  }
}

function nextEntry(zip: ZipFile): Promise<Entry | undefined> {
  return new Promise((resolve) => {
    const cleanup = (): void => {
      zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
    };
    const onEntry = (entry: Entry): void => (cleanup(), resolve(entry));
    const onEnd = (): void => (cleanup(), resolve(undefined));
    // A damaged archive is mammoth's or exceljs's to report, with its own words.
    const onError = (): void => (cleanup(), resolve(undefined));
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}

async function countEntry(zip: ZipFile, entry: Entry, onChunk: (chunk: number, decoded: number) => void): Promise<void> {
  let stream: NodeJS.ReadableStream & { destroy(): void };
  try {
    stream = (await zip.openReadStreamPromise(entry)) as typeof stream;
  } catch {
    return; // an unsupported method or a damaged entry: left to the document reader
  }
  let decoded = 0;
  try {
    for await (const chunk of stream) {
      decoded += (chunk as Buffer).length;
      onChunk((chunk as Buffer).length, decoded);
    }
  } catch (error) {
    if ((error as { name?: string }).name === 'ExtractionError') throw error;
  } finally {
    stream.destroy();
  }
}
