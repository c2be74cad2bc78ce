// Cooperative control of a background job: between two steps the job yields to the event loop (so the
// server keeps answering while a build runs), waits the optional test delay, and stops when it was
// cancelled or the service is closing. Nothing is interrupted in the middle of a step.
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/** Thrown at a step boundary after a cancel request. */
export class JobCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** Thrown at a step boundary while the service closes: the job's state is left as it is on disk. */
export class JobInterrupted extends Error {
  constructor() {
    super('interrupted: the local service is stopping');
  }
}

export class JobControl {
  private cancelRequested = false;
  /** Cuts the test delay short on cancel or close. */
  private readonly wake = new AbortController();

  constructor(
    private readonly isClosing: () => boolean,
    /** Extra pause per step (LocalServiceOptions.jobStepDelayMs; tests make jobs slow enough to cancel). */
    private readonly stepDelayMs = 0,
  ) {}

  get cancelled(): boolean {
    return this.cancelRequested;
  }

  cancel(): void {
    this.cancelRequested = true;
    this.wake.abort();
  }

  /** The service is closing: stop waiting (the next check sees isClosing). */
  wakeUp(): void {
    this.wake.abort();
  }

  /** The boundary between two steps. */
  async step(): Promise<void> {
    this.check();
    await nextTurn();
    if (this.stepDelayMs > 0 && !this.wake.signal.aborted)
      await sleep(this.stepDelayMs, undefined, { signal: this.wake.signal }).catch(() => undefined);
    this.check();
  }

  check(): void {
    if (this.isClosing()) throw new JobInterrupted();
    if (this.cancelRequested) throw new JobCancelled();
  }
}
