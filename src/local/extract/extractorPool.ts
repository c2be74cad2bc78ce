// Worker-thread pool for text extraction: a big PDF costs seconds of CPU, which must never stall the
// HTTP server's event loop. Jobs queue when every worker is busy; a stuck or crashed worker is
// replaced, and only its current file fails.
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ExtractionError, isExtractionFailure, type Extraction } from './types';
import type { WorkerMessage, WorkerReply, WorkerRequest, WorkerSetup } from './workerProtocol';

export interface ExtractorPoolOptions {
  workerFile?: string;
  /** folder holding pdfjs `cmaps/` and `standard_fonts/`; see defaultAssetsDir() */
  assetsDir: string;
  /** default 1 */
  size?: number;
  /** per document, counted from the moment its worker is ready; default 120000 */
  timeoutMs?: number;
  /** default 2,000 */
  maxPages?: number;
  /** heap limit of each worker: a runaway document then fails alone instead of taking the process down; default 1024 */
  maxMemoryMb?: number;
}

interface Job extends WorkerRequest {
  resolve(extraction: Extraction): void;
  reject(error: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  /** the worker loaded its code and said so: a crash before that is an installation problem, not the file's */
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

// Running from TypeScript (tsx, unit tests) or from the esbuild bundle next to dist/local.js.
const fromSource = __filename.endsWith('.ts');

export function defaultWorkerFile(): { file: string; execArgv: string[] } {
  // `--import tsx` does not reach a worker's entry on Node 20 (ERR_UNKNOWN_FILE_EXTENSION); tsx's CommonJS hook
  // does. It is resolved here so the current directory does not matter, via createRequire so esbuild ignores it.
  if (fromSource) return { file: path.join(__dirname, 'worker.ts'), execArgv: ['--require', createRequire(__filename).resolve('tsx/cjs')] };
  return { file: path.join(__dirname, 'extractWorker.js'), execArgv: [] };
}

/** pdfjs cmaps/ and standard_fonts/: copied to dist/pdfjs by esbuild.mjs, or straight from node_modules. */
export function defaultAssetsDir(): string {
  return fromSource ? path.resolve(__dirname, '../../../node_modules/pdfjs-dist') : path.join(__dirname, 'pdfjs');
}

export class ExtractorPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private readonly size: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: ExtractorPoolOptions) {
    this.size = Math.max(1, options.size ?? 1);
    this.timeoutMs = options.timeoutMs ?? 120_000;
  }

  extract(filePath: string, fileName: string, options: { signal?: AbortSignal } = {}): Promise<Extraction> {
    if (this.closed) return Promise.reject(new Error('The extractor pool is closed.'));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Extraction>((resolve, reject) => {
      const job: Job = { id: this.nextId++, filePath, fileName, resolve, reject, ...(signal ? { signal } : {}) };
      if (signal) {
        job.onAbort = () => this.abort(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Rejects queued and running jobs and terminates the workers. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('The extractor pool was closed.');
    for (const job of this.queue.splice(0)) this.settle(job, error);
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      clearTimeout(slot.timer);
      if (slot.job) this.settle(slot.job, error);
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /** Workers started and alive (for tests and diagnostics). */
  get workerCount(): number {
    return this.slots.length;
  }

  /** Workers that loaded their code and said so (for tests and diagnostics). */
  get readyCount(): number {
    return this.slots.filter((s) => s.ready).length;
  }

  private pump(): void {
    while (this.queue.length && !this.closed) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) {
        try {
          slot = this.spawn();
        } catch (error) {
          // The worker file itself is unusable (an installation problem): fail the job rather than loop.
          this.settle(this.queue.shift()!, error);
          continue;
        }
      }
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      if (slot.ready) this.startTimer(slot);
      const request: WorkerRequest = { id: job.id, filePath: job.filePath, fileName: job.fileName };
      slot.worker.postMessage(request);
    }
  }

  private spawn(): Slot {
    const fallback = defaultWorkerFile();
    const file = this.options.workerFile ?? fallback.file;
    const setup: WorkerSetup = { assetsDir: this.options.assetsDir, ...(this.options.maxPages ? { maxPages: this.options.maxPages } : {}) };
    const worker = new Worker(file, {
      workerData: setup,
      // Explicit, so the worker never inherits the host's flags (an inspector port, for one).
      execArgv: file.endsWith('.ts') ? fallback.execArgv : [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxMemoryMb ?? 1024 },
      stdout: false,
      stderr: false,
    });
    // An idle worker must not keep the process alive (a CLI run ends when its work is done).
    worker.unref();
    const slot: Slot = { worker, ready: false };
    worker.on('message', (message: WorkerMessage) => {
      if ('ready' in message) {
        slot.ready = true;
        if (slot.job) this.startTimer(slot);
      } else this.onReply(slot, message);
    });
    worker.on('error', (error) => this.onCrash(slot, error));
    worker.on('exit', (code) => this.onCrash(slot, new Error(`the extraction worker exited with code ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  // The time limit is the document's: it starts once the worker has loaded (a busy machine may take long to start one).
  private startTimer(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => this.timeOut(slot), this.timeoutMs);
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    this.release(slot);
    if (reply.ok) this.settle(job, undefined, reply.extraction);
    else this.settle(job, new ExtractionError(isExtractionFailure(reply.reason) ? reply.reason : 'broken', reply.message));
    this.pump();
  }

  private onCrash(slot: Slot, error: Error): void {
    if (!this.slots.includes(slot)) return; // already retired: terminate() also ends in 'exit'
    const job = slot.job;
    this.retire(slot);
    if (job) {
      this.settle(job, this.crashError(job, slot, error));
    }
    this.pump();
  }

  private crashError(job: Job, slot: Slot, error: Error): ExtractionError {
    if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new ExtractionError(
        'tooLarge',
        `"${job.fileName}" needs more memory than text extraction may use (${this.options.maxMemoryMb ?? 1024} MB); split it into smaller files and upload them separately.`,
      );
    }
    if (!slot.ready) {
      return new ExtractionError(
        'broken',
        `The text extraction worker could not start (${error.message}); "${job.fileName}" was not read. Reinstall or update the extension.`,
      );
    }
    return new ExtractionError(
      'broken',
      `Text extraction crashed on "${job.fileName}" (${error.message}); the file may be damaged. Save it again and upload the new file.`,
    );
  }

  private timeOut(slot: Slot): void {
    const job = slot.job;
    if (!job) return;
    this.retire(slot);
    const seconds = Number((this.timeoutMs / 1000).toFixed(1));
    this.settle(
      job,
      new ExtractionError(
        'timeout',
        `Text extraction of "${job.fileName}" took longer than ${seconds} seconds and was stopped; the document may be too large or complex. Split it into smaller files and upload them again.`,
      ),
    );
    this.pump();
  }

  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    const slot = this.slots.find((s) => s.job === job);
    // A running extraction cannot be interrupted from outside: the worker is replaced instead.
    if (slot) this.retire(slot);
    this.settle(job, job.signal?.reason ?? new DOMException('The extraction was aborted.', 'AbortError'));
    this.pump();
  }

  private release(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  }

  /** Removes a worker from the pool and terminates it; pump() starts a new one when needed. */
  private retire(slot: Slot): void {
    this.release(slot);
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    void slot.worker.terminate().catch(() => undefined);
  }

  private settle(job: Job, error: unknown, extraction?: Extraction): void {
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if (error !== undefined) job.reject(error);
    else job.resolve(extraction!);
  }
}
