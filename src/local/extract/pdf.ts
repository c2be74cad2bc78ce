// PDF text per page with item boxes, through pdfjs-dist 5's legacy build (Node 20, no canvas).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DecodeBudget, decodeLimits } from './decodeLimits';
import { installDomMatrixShim } from './domMatrixShim';
import { checkPageCount, throwIfAborted } from './paginate';
import { checkPdfStreams } from './pdfStreams';
import { layoutPageText, type PageViewport } from './pdfText';
import { ExtractionError, type ExtractedPage, type Extraction, type ExtractOptions } from './types';

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loading: Promise<Pdfjs> | undefined;

/** Loads pdfjs once per thread; the worker module is imported first so pdfjs never tries to find a worker file. */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= importPdfjs().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function importPdfjs(): Promise<Pdfjs> {
  installDomMatrixShim();
  const restore = muteLoadWarnings();
  try {
    // In a bundle pdfjs cannot `import()` its worker file by URL: handing it the module on
    // globalThis.pdfjsWorker makes its in-thread ("fake") worker use that instead.
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return await import('pdfjs-dist/legacy/build/pdf.mjs');
  } finally {
    restore();
  }
}

// On load pdfjs warns (console.warn) that the optional native canvas, ImageData and Path2D are missing;
// they only matter for rendering, so the warnings would only mislead whoever reads the log.
function muteLoadWarnings(): () => void {
  const original = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && /^Warning: Cannot (load|access|polyfill)/.test(args[0])) return;
    original(...args);
  };
  return () => {
    console.warn = original;
  };
}

export async function extractPdf(filePath: string, options: ExtractOptions): Promise<Extraction> {
  // Without them Japanese PDFs silently come out empty: an installation problem must not look like a bad file.
  if (!existsSync(path.join(options.assetsDir, 'cmaps'))) {
    throw new Error(`the PDF support files are missing (${path.join(options.assetsDir, 'cmaps')}); reinstall the extension`);
  }
  const data = new Uint8Array(await readFile(filePath));
  // Before pdfjs sees it: pdfjs would decode a bomb into gigabytes it cannot be stopped from allocating.
  await checkPdfStreams(data, new DecodeBudget(decodeLimits(options), 'PDF'));
  throwIfAborted(options);
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data,
    // pdfjs joins these with file names, so they need a trailing '/' (fine on Windows too).
    cMapUrl: path.join(options.assetsDir, 'cmaps') + '/',
    cMapPacked: true,
    standardFontDataUrl: path.join(options.assetsDir, 'standard_fonts') + '/',
    useSystemFonts: false,
    disableFontFace: true,
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  try {
    const doc = await task.promise.catch((error: unknown) => {
      throw openError(error);
    });
    checkPageCount(doc.numPages, options);
    const pages: ExtractedPage[] = [];
    for (let pageNo = 1; pageNo <= doc.numPages; pageNo++) {
      throwIfAborted(options);
      const page = await doc.getPage(pageNo);
      const viewport = page.getViewport({ scale: 1 }) as PageViewport;
      const content = await page.getTextContent();
      const { text, items } = layoutPageText(content.items, viewport);
      pages.push({ pageNo, text, items });
      page.cleanup();
    }
    if (pages.every((p) => p.text.trim() === '')) {
      throw new ExtractionError(
        'empty',
        'No text found: the PDF seems to contain only images (scanned pages need OCR, which the local service does not do). Upload a PDF with a text layer, or run OCR on it first.',
      );
    }
    const title = await readTitle(doc);
    return { kind: 'pdf', pages, ...(title ? { title } : {}) };
  } finally {
    await task.destroy();
  }
}

function openError(error: unknown): Error {
  const name = (error as { name?: string } | undefined)?.name;
  const detail = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') {
    return new ExtractionError('encrypted', 'The PDF is password-protected; remove the password and upload it again.');
  }
  if (name === 'InvalidPDFException') {
    return new ExtractionError(
      'broken',
      `The file is not a valid PDF or is damaged (${detail}); open it in a PDF viewer, save or export it again, and upload the new file.`,
    );
  }
  if (error instanceof DOMException && error.name === 'AbortError') return error;
  return new ExtractionError(
    'broken',
    `The PDF could not be read (${detail}); open it in a PDF viewer, save or export it again, and upload the new file.`,
  );
}

async function readTitle(doc: { getMetadata(): Promise<{ info: object }> }): Promise<string | undefined> {
  try {
    const { info } = await doc.getMetadata();
    const title = (info as { Title?: unknown }).Title;
    return typeof title === 'string' && title.trim() ? title.trim() : undefined;
  } catch {
    return undefined;
  }
}
