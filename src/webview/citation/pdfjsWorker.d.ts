// pdfjs-dist ships no types for its worker module; the page only hands it to pdfjs (pdfEngine.ts).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
