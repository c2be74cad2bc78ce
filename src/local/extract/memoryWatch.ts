// The memory budget of the extraction workers (issue 23). A worker's `resourceLimits` bound only its V8 heap;
// pdfjs and JSZip decode into ArrayBuffers outside it, and a worker busy in one long synchronous decode cannot
// report anything itself. So the pool's own thread samples the process's resident memory while jobs run, minus
// what its own isolate holds (heap and external buffers, e.g. uploads in flight): the rest is the workers'.
// Resident memory is what the machine pays for, portable through process.memoryUsage(), and cheap to read.

export interface MemoryWatchOptions {
  budgetBytes: number;
  intervalMs: number;
  /** Called (once per overrun) with the growth seen; the pool terminates workers, which stops the growth. */
  onOverrun(growthBytes: number): void;
}

/** Resident memory not held by this thread's isolate. */
function workersMemory(): number {
  const m = process.memoryUsage();
  return m.rss - m.heapTotal - m.external;
}

export class MemoryWatch {
  private timer: NodeJS.Timeout | undefined;
  private baseline = 0;

  constructor(private readonly options: MemoryWatchOptions) {}

  /** Starts sampling from the memory of now (no job running) unless it already samples. */
  start(): void {
    if (this.timer) return;
    this.baseline = workersMemory();
    this.timer = setInterval(() => this.sample(), this.options.intervalMs);
    // Sampling must not keep a CLI process alive on its own.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** After workers were terminated, what they held is gone: count from the memory of now again. */
  rebase(): void {
    this.baseline = workersMemory();
  }

  private sample(): void {
    const growth = workersMemory() - this.baseline;
    // Freed memory may be returned to the system late; a lower reading is simply the new floor.
    if (growth < 0) this.baseline += growth;
    else if (growth > this.options.budgetBytes) this.options.onOverrun(growth);
  }
}
