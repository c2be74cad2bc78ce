// Detects a file's kind and runs its extractor; any unexpected failure becomes a user-readable ExtractionError.
import { open } from 'node:fs/promises';
import { detectKind } from './detect';
import { extractDocx } from './docx';
import { extractHtml } from './html';
import { extractPdf } from './pdf';
import { extractMarkdown, extractText } from './text';
import { ExtractionError, type DocKind, type Extraction, type ExtractOptions } from './types';
import { extractXlsx } from './xlsx';

const EXTRACTORS: Record<DocKind, (filePath: string, options: ExtractOptions) => Promise<Extraction>> = {
  pdf: extractPdf,
  docx: extractDocx,
  xlsx: extractXlsx,
  html: extractHtml,
  markdown: extractMarkdown,
  text: extractText,
};

const SUPPORTED = 'PDF, Word (.docx), Excel (.xlsx), HTML, Markdown and plain text files';

/** `fileName` decides the format (the stored file may have no extension); `filePath` is read. */
export async function extractFile(filePath: string, fileName: string, options: ExtractOptions): Promise<Extraction> {
  const { head, size } = await readHead(filePath);
  const kind = detectKind(fileName, head);
  if (!kind) {
    throw new ExtractionError('unsupported', `"${fileName}" is not a document the local service can read; it supports ${SUPPORTED}.`);
  }
  if (size === 0) throw new ExtractionError('empty', `"${fileName}" is empty (0 bytes); upload the saved file again.`);
  options.signal?.throwIfAborted();
  try {
    return await EXTRACTORS[kind](filePath, options);
  } catch (error) {
    if (error instanceof ExtractionError || isAbort(error)) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new ExtractionError(
      'broken',
      `"${fileName}" could not be read as ${kind.toUpperCase()} (${detail.split('\n')[0]?.slice(0, 200)}); check that the file opens correctly, save it again, and upload the new file.`,
    );
  }
}

async function readHead(filePath: string): Promise<{ head: Buffer; size: number }> {
  const handle = await open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 4096));
    await handle.read(head, 0, head.length, 0);
    return { head, size };
  } finally {
    await handle.close();
  }
}

function isAbort(error: unknown): boolean {
  return (error as { name?: string } | undefined)?.name === 'AbortError';
}
