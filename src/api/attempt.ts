import { EventEmitter } from 'node:events';
import { linkSignals } from './signals';

/**
 * One attempt's abort: the caller's signal plus a timeout, telling which one fired. The attempt is itself the
 * signal undici listens to (undici takes an EventEmitter with `aborted` and `reason` as well as an AbortSignal):
 * an AbortController per request was the largest part of the client's own cost per call (`npm run bench`).
 */
export class Attempt extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  private timer: NodeJS.Timeout | undefined;
  private unlink: () => void;
  timedOut = false;
  abortedByCaller = false;

  constructor(caller: AbortSignal | undefined, timeoutMs: number) {
    super();
    this.unlink = linkSignals(caller, (reason) => {
      this.abortedByCaller = true;
      this.abort(reason);
    });
    if (timeoutMs > 0 && !this.abortedByCaller) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.abort(new Error('timeout'));
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

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}
