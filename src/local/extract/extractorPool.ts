// Worker-thread pool for text extraction: a big PDF costs seconds of CPU, which must never stall the
// HTTP server's event loop. Jobs queue when every worker is busy; a stuck or crashed worker is
// replaced, and only its current file fails. Two workers, so one slow document never holds up the rest,
// and each job has a time budget that grows with its file's size and a memory budget (memoryWatch.ts).
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { MemoryWatch } from './memoryWatch';
import { crashError, memoryError, timeoutError } from './poolErrors';
import { ExtractionError, isExtractionFailure, type Extraction } from './types';
import type { WorkerMessage, WorkerReply, WorkerRequest, WorkerSetup } from './workerProtocol';

export interface ExtractorPoolOptions {
  workerFile?: string;
  /** folder holding pdfjs `cmaps/` and `standard_fonts/`; see defaultAssetsDir() */
  assetsDir: string;
  /** workers; default 2: a slow document takes one, the other keeps serving the rest (2 cores is the target) */
  size?: number;
  /** time budget of every document, counted from the moment its worker is ready; default 15,000 */
  timeoutMs?: number;
  /** added to the time budget per MiB of the file; default 15,000 (a 764 KB PDF that needs a minute is stopped) */
  timeoutMsPerMb?: number;
  /** the time budget never grows past this; default 20 minutes */
  maxTimeoutMs?: number;
  /** default 2,000 */
  maxPages?: number;
  /** heap limit of each worker: a runaway document then fails alone instead of taking the process down; default 1024 */
  maxMemoryMb?: number;
  /** resident memory the running workers may add, heap and buffers outside it; default 1024 */
  memoryBudgetMb?: number;
  /** decoded bytes one document may expand to (decodeLimits.ts); default 200 MiB */
  maxDecodedBytes?: number;
}

interface Job extends WorkerRequest {
  /** bytes of the file: its time budget grows with it */
  size: number;
  /** set after a memory overrun with several jobs running: retried with no other job beside it */
  alone?: boolean;
  budgetMs?: number;
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
  private readonly memoryBudgetMb: number;
  private readonly memory: MemoryWatch;
  /** Workers stopped for a memory overrun that have not exited yet: they may still be growing. */
  private stopping: Promise<unknown> | undefined;

  constructor(private readonly options: ExtractorPoolOptions) {
    this.size = Math.max(1, options.size ?? 2);
    this.memoryBudgetMb = options.memoryBudgetMb ?? 1024;
    this.memory = new MemoryWatch({ budgetBytes: this.memoryBudgetMb * 1024 * 1024, intervalMs: 50, onOverrun: () => this.overrun() });
  }

  /** Documents extracted at once (the processing queue runs as many). */
  get concurrency(): number {
    return this.size;
  }

  extract(filePath: string, fileName: string, options: { signal?: AbortSignal } = {}): Promise<Extraction> {
    if (this.closed) return Promise.reject(new Error('The extractor pool is closed.'));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Extraction>((resolve, reject) => {
      const size = fileSize(filePath);
      const job: Job = { id: this.nextId++, filePath, fileName, size, resolve, reject, ...(signal ? { signal } : {}) };
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
    this.memory.stop();
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
    // Nothing starts until overrunning workers are gone: one still allocating would be blamed on the next document.
    while (this.queue.length && !this.closed && !this.stopping) {
      const running = this.slots.filter((s) => s.job);
      // A job retried alone after a memory overrun runs with nothing beside it, so the next overrun is its own.
      if (running.some((s) => s.job!.alone) || (this.queue[0]!.alone && running.length)) return;
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
      this.memory.start();
      if (slot.ready) this.startTimer(slot);
      const request: WorkerRequest = { id: job.id, filePath: job.filePath, fileName: job.fileName };
      slot.worker.postMessage(request);
    }
  }

  private spawn(): Slot {
    const fallback = defaultWorkerFile();
    const file = this.options.workerFile ?? fallback.file;
    const { maxPages, maxDecodedBytes } = this.options;
    const setup: WorkerSetup = {
      assetsDir: this.options.assetsDir,
      ...(maxPages ? { maxPages } : {}),
      ...(maxDecodedBytes ? { maxDecodedBytes } : {}),
    };
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
        // The worker's start is not its document's memory, unless another document is growing meanwhile.
        if (!this.slots.some((s) => s !== slot && s.ready && s.job)) this.memory.rebase();
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
    const job = slot.job!;
    job.budgetMs ??= this.timeBudget(job.size);
    slot.timer = setTimeout(() => this.timeOut(slot), job.budgetMs);
  }

  /** Small files get a small budget: one that takes minutes is a crafted document, not a big one. */
  private timeBudget(bytes: number): number {
    const { timeoutMs = 15_000, timeoutMsPerMb = 15_000, maxTimeoutMs = 20 * 60_000 } = this.options;
    return Math.min(maxTimeoutMs, Math.round(timeoutMs + (timeoutMsPerMb * bytes) / (1024 * 1024)));
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
    void this.retire(slot);
    if (job) {
      this.settle(job, crashError(job.fileName, slot.ready, error, this.options.maxMemoryMb ?? 1024));
    }
    this.pump();
  }

  private timeOut(slot: Slot): void {
    const job = slot.job;
    if (!job) return;
    void this.retire(slot);
    this.settle(job, timeoutError(job.fileName, job.budgetMs ?? 0));
    this.pump();
  }

  /** The running workers together passed the memory budget: whose document it is must be known before one fails. */
  private overrun(): void {
    const running = this.slots.filter((s) => s.job);
    this.memory.stop();
    let stopped: Array<Promise<unknown>>;
    if (running.length === 1) {
      const slot = running[0]!;
      const job = slot.job!;
      stopped = [this.retire(slot)];
      this.settle(job, memoryError(job.fileName, this.memoryBudgetMb));
    } else {
      // Each is retried alone, in its original order: the one that overruns alone fails, the others complete.
      const jobs = running.map((s) => s.job!).sort((a, b) => a.id - b.id);
      stopped = running.map((slot) => this.retire(slot));
      for (const job of jobs) job.alone = true;
      for (let i = jobs.length - 1; i >= 0; i--) this.queue.unshift(jobs[i]!);
    }
    const stopping = (this.stopping = Promise.all(stopped).finally(() => {
      if (this.stopping !== stopping) return;
      this.stopping = undefined;
      this.pump();
    }));
  }

  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    const slot = this.slots.find((s) => s.job === job);
    // A running extraction cannot be interrupted from outside: the worker is replaced instead.
    if (slot) void this.retire(slot);
    this.settle(job, job.signal?.reason ?? new DOMException('The extraction was aborted.', 'AbortError'));
    this.pump();
  }

  private release(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
    if (!this.slots.some((s) => s.job)) this.memory.stop();
  }

  /** Removes a worker from the pool and terminates it; pump() starts a new one when needed. */
  private retire(slot: Slot): Promise<unknown> {
    this.release(slot);
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    // What the worker held is gone once it has exited: count from there (a job may be running beside it).
    return slot.worker
      .terminate()
      .then(() => this.memory.rebase())
      .catch(() => undefined);
  }

  private settle(job: Job, error: unknown, extraction?: Extraction): void {
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if (error !== undefined) job.reject(error);
    else job.resolve(extraction!);
  }
}

function fileSize(filePath: string): number {
  try {
    return statSync(filePath).size;
  } catch {
    return 0; // the worker reports a missing file with its own words
  }
}
