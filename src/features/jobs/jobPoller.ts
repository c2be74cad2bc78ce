// Polling with backoff (no vscode: unit-tested in plain Node with fake timers).

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as NodeJS.Timeout) };

export const POLL_MIN_MS = 2_000;
export const POLL_MAX_MS = 30_000;
/** While a job runs its state and progress are what the user watches: never wait longer than this. */
export const POLL_ACTIVE_MAX_MS = 3_000;

/** The waits after consecutive polls that saw no change: 2 s, 4 s, 8 s, 16 s, 30 s, 30 s… */
export function backoffDelay(unchangedPolls: number, minMs = POLL_MIN_MS, maxMs = POLL_MAX_MS): number {
  return Math.min(maxMs, minMs * 2 ** Math.max(0, Math.min(unchangedPolls, 30)));
}

export interface PollerOptions {
  /** One poll; resolves true when the state changed (which resets the backoff). A rejection counts as "no change". */
  tick: () => Promise<boolean>;
  /** Whether polling should go on (view visible or a job active); checked before each poll and each wait. */
  shouldPoll: () => boolean;
  timers?: Timers;
  minMs?: number;
  /** The longest wait; a function so it can be shorter while a job runs. */
  maxMs?: number | (() => number);
}

/**
 * Polls while `shouldPoll()` holds, waiting longer after each poll that saw no change and going back
 * to the shortest wait after a change or a user action. At most one poll runs at a time; a poll asked
 * for during another one runs right after it.
 */
export class Poller {
  /** Polls made so far (tests assert it stops growing). */
  polls = 0;
  private unchanged = 0;
  private timer: unknown;
  private delay: number | undefined;
  private inFlight: Promise<void> | undefined;
  private again = false;
  private disposed = false;
  private readonly timers: Timers;

  constructor(private readonly opts: PollerOptions) {
    this.timers = opts.timers ?? realTimers;
  }

  /** The wait before the next poll, or undefined when no poll is scheduled. */
  get interval(): number | undefined {
    return this.timer !== undefined ? this.delay : undefined;
  }

  /** The wait the next scheduled poll would use (also when stopped). */
  get nextDelay(): number {
    const max = typeof this.opts.maxMs === 'function' ? this.opts.maxMs() : this.opts.maxMs;
    return backoffDelay(Math.max(0, this.unchanged), this.opts.minMs, max);
  }

  get scheduled(): boolean {
    return this.timer !== undefined;
  }

  get polling(): boolean {
    return this.inFlight !== undefined;
  }

  /** A user action or the view appearing: poll now and start over at the shortest wait. */
  pollNow(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    // -1: the poll made now does not count as one more poll without a change.
    this.unchanged = -1;
    this.cancelTimer();
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    this.inFlight = this.run().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Back to the shortest wait without polling at once (a user action whose effect shows later). */
  resetBackoff(): void {
    this.unchanged = 0;
    if (this.timer !== undefined) {
      this.cancelTimer();
      this.schedule();
    }
  }

  /** Conditions changed (view shown or hidden): start waiting if polling should go on, stop if not. */
  update(): void {
    if (this.disposed || this.inFlight) return;
    if (!this.opts.shouldPoll()) this.cancelTimer();
    else if (this.timer === undefined) this.schedule();
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      let changed = false;
      this.polls++;
      try {
        changed = await this.opts.tick();
      } catch {
        changed = false;
      }
      if (changed) this.unchanged = 0;
      else if (!this.again) this.unchanged++;
    } while (this.again && !this.disposed);
    if (!this.disposed && this.opts.shouldPoll()) this.schedule();
  }

  private schedule(): void {
    this.cancelTimer();
    // The wait after a change or a user action is the shortest; each poll without a change doubles it.
    this.delay = this.nextDelay;
    this.timer = this.timers.set(() => {
      this.timer = undefined;
      if (this.disposed || !this.opts.shouldPoll()) return;
      this.inFlight = this.run().finally(() => (this.inFlight = undefined));
    }, this.delay);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
  }
}
