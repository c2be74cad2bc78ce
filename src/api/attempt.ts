import { linkSignals } from './signals';

/** One attempt's signal: the caller's signal plus a timeout, telling which one fired. */
export class Attempt {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private unlink: () => void;
  timedOut = false;
  abortedByCaller = false;

  constructor(caller: AbortSignal | undefined, timeoutMs: number) {
    this.signal = this.controller.signal;
    this.unlink = linkSignals(caller, (reason) => {
      this.abortedByCaller = true;
      this.controller.abort(reason);
    });
    if (timeoutMs > 0 && !this.abortedByCaller) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort(new Error('timeout'));
      }, timeoutMs);
    }
  }

  stopTimer(): void {
    clearTimeout(this.timer);
  }

  release(): void {
    this.stopTimer();
    this.unlink();
  }
}
