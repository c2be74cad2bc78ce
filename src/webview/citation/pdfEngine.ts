// pdfjs in the webview. Only main.ts imports this module (tests use a fake engine).
//
// The worker: pdfjs runs in the page with its in-thread ("fake") worker — the worker module is bundled
// into citation.js and handed over on globalThis.pdfjsWorker before anything is opened. Why not a real
// Worker: the page's origin (vscode-webview://…) differs from the origin its resources are served from
// (asWebviewUri), and a Worker must be same-origin; pdfjs' own fallback makes a blob: module worker that
// import()s the cross-origin bundle, which needs `worker-src blob:` and relies on requests from inside
// that worker reaching VS Code's resource loader. In-thread needs no worker-src at all and behaves the
// same in desktop VS Code and in the browser (code-server). The cost: parsing runs on the page's thread,
// which for one page at a time is a few tens of milliseconds.
//
// The legacy build: the modern one calls Uint8Array.prototype.toHex (Chromium 140+) for every
// document, newer than the Chromium of VS Code 1.100 (engines: ^1.100).
import * as pdfjsWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { getDocument, TextLayer, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextRun } from './highlightGeometry';

(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfjsWorker;

export interface PdfPage {
  readonly pageNo: number;
  /** At scale 1 (CSS pixels = points), with the page's own rotation. */
  readonly size: { width: number; height: number };
  /** Draws the page at `scale` (CSS) on `canvas`, sharp on HiDPI screens; cancel() stops it. */
  render(canvas: HTMLCanvasElement, scale: number, pixelRatio: number): { promise: Promise<void>; cancel(): void };
  /** The text runs with their boxes in page fractions. */
  textRuns(): Promise<TextRun[]>;
  /** Selectable, findable text over the canvas (pdfjs' text layer). */
  renderTextLayer(container: HTMLElement, scale: number): Promise<void>;
}

export interface PdfDocument {
  readonly numPages: number;
  getPage(pageNo: number): Promise<PdfPage>;
  destroy(): void;
}

export interface PdfEngine {
  open(data: Uint8Array): Promise<PdfDocument>;
  /** pdfjs warnings since the last call (font and character map problems are among them). */
  takeWarnings(): string[];
}

export interface PdfAssets {
  /** asWebviewUri of dist/pdfjs/cmaps/ and dist/pdfjs/standard_fonts/, with a trailing '/'. */
  cMapUrl: string;
  standardFontDataUrl: string;
}

const warnings: string[] = [];
let hooked = false;

/** pdfjs reports problems with console.warn("Warning: …"): keep them (and still log them). */
function hookWarnings(): void {
  if (hooked) return;
  hooked = true;
  const original = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    const first = args[0];
    const pdfjsWarning = typeof first === 'string' && first.startsWith('Warning: ') && !first.includes('Setting up fake worker'); // l10n-ignore: pdfjs' messages
    if (pdfjsWarning) {
      warnings.push(first.slice(9, 1_000));
      if (warnings.length > 100) warnings.shift();
    }
    original(...args);
  };
}

export function createPdfEngine(assets: PdfAssets): PdfEngine {
  hookWarnings();
  return {
    async open(data) {
      const task = getDocument({
        // pdfjs moves the buffer to its worker: hand it a copy so the page can open the bytes again.
        data: data.slice(),
        cMapUrl: assets.cMapUrl,
        cMapPacked: true,
        standardFontDataUrl: assets.standardFontDataUrl,
        // Under the CSP, trying `new Function` would only produce a violation report.
        isEvalSupported: false,
        enableXfa: false,
      });
      const doc = await task.promise;
      return wrapDocument(doc);
    },
    takeWarnings: () => warnings.splice(0),
  };
}

function wrapDocument(doc: PDFDocumentProxy): PdfDocument {
  return {
    numPages: doc.numPages,
    async getPage(pageNo) {
      return wrapPage(await doc.getPage(pageNo), pageNo);
    },
    destroy: () => void doc.destroy(),
  };
}

function wrapPage(page: PDFPageProxy, pageNo: number): PdfPage {
  const unit = page.getViewport({ scale: 1 });
  let text: ReturnType<PDFPageProxy['getTextContent']> | undefined;
  const textContent = (): ReturnType<PDFPageProxy['getTextContent']> => (text ??= page.getTextContent());
  return {
    pageNo,
    size: { width: unit.width, height: unit.height },
    render(canvas, scale, pixelRatio) {
      const viewport = page.getViewport({ scale });
      canvas.width = Math.max(1, Math.floor(viewport.width * pixelRatio));
      canvas.height = Math.max(1, Math.floor(viewport.height * pixelRatio));
      const canvasContext = canvas.getContext('2d')!;
      const task = page.render({
        canvasContext,
        canvas,
        viewport,
        transform: pixelRatio !== 1 ? [pixelRatio, 0, 0, pixelRatio, 0, 0] : undefined,
      });
      return { promise: task.promise, cancel: () => task.cancel() };
    },
    async textRuns() {
      const content = await textContent();
      const runs: TextRun[] = [];
      for (const item of content.items) {
        if (!('str' in item) || !item.str) continue;
        const [, , c = 0, d = 0, e = 0, f = 0] = item.transform as number[];
        const height = item.height || Math.hypot(c, d);
        const [x1, y1, x2, y2] = unit.convertToViewportRectangle([e, f, e + item.width, f + height]);
        runs.push({
          str: item.str,
          box: [
            Math.min(x1, x2) / unit.width,
            Math.min(y1, y2) / unit.height,
            Math.max(x1, x2) / unit.width,
            Math.max(y1, y2) / unit.height,
          ],
        });
      }
      return runs;
    },
    async renderTextLayer(container, scale) {
      container.replaceChildren();
      const layer = new TextLayer({ textContentSource: await textContent(), container, viewport: page.getViewport({ scale }) });
      await layer.render();
    },
  };
}
