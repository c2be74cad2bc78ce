// worker_threads entry (dist/extractWorker.js): runs extractions off the service's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { extractFile } from './extractFile';
import { loadPdfjs } from './pdf';
import { ExtractionError } from './types';
import type { WorkerReady, WorkerReply, WorkerRequest, WorkerSetup } from './workerProtocol';

const setup = workerData as WorkerSetup;
const port = parentPort;
if (!port) throw new Error('extractWorker must run in a worker thread');

port.on('message', (request: WorkerRequest) => {
  void handle(request).then((reply) => port.postMessage(reply));
});
// Loading pdfjs takes a few hundred milliseconds: do it while the first file is on its way, and say "ready"
// after it, so the document's time and memory budgets do not pay for the worker's start.
void loadPdfjs()
  .catch(() => undefined)
  .finally(() => port.postMessage({ ready: true } satisfies WorkerReady));

async function handle({ id, filePath, fileName }: WorkerRequest): Promise<WorkerReply> {
  try {
    const { assetsDir, maxPages, maxDecodedBytes } = setup;
    const options = { assetsDir, ...(maxPages ? { maxPages } : {}), ...(maxDecodedBytes ? { maxDecodedBytes } : {}) };
    return { id, ok: true, extraction: await extractFile(filePath, fileName, options) };
  } catch (error) {
    if (error instanceof ExtractionError) return { id, ok: false, reason: error.reason, message: error.message };
    const message = error instanceof Error ? error.message : String(error);
    return { id, ok: false, reason: 'broken', message: `"${fileName}" could not be processed (${message}).` };
  }
}
