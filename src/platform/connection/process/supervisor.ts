// The local service as a supervised child process: started on first use, restarted with backoff when it
// stops unexpectedly, given up after repeated rapid failures. Several windows share one data folder: the
// first one's child owns it and the others use its server (the child reports the lock's owner). No `vscode`
// here: the unit tests and the benchmark drive this same class in plain Node.
import type { ChildStartOptions, ChildWriter } from '../../../core/localServiceProtocol';
import { LocalChild, LocalStartError, type ChildLog } from './localChild';

export interface LocalEndpoint {
  url: string;
  apiKey: string;
  nluApiKey: string;
  /** False when another VS Code window's service owns the data folder and we talk to its server. */
  owned: boolean;
  /** The process serving it, when this window owns it. */
  pid?: number;
}

export interface Backoff {
  /** First restart delay, doubled after each rapid failure up to `maxMs`. */
  initialMs: number;
  maxMs: number;
  /** A child that ran this long without stopping resets the count of rapid failures. */
  stableMs: number;
  /** Restarts tried in a row before giving up. */
  maxRapidFailures: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000, stableMs: 60_000, maxRapidFailures: 5 };

export interface SupervisorOptions {
  /** dist/local.js */
  script: string;
  log: ChildLog;
  /** Read at each start: the settings and workspace folders may have changed since the last one. */
  startOptions: () => Omit<ChildStartOptions, 'port'>;
  /** Whether the server another process owns answers (a window being reloaded may still hold the lock). */
  ownerAnswers: (url: string, apiKey: string) => Promise<boolean>;
  backoff?: Partial<Backoff>;
  startTimeoutMs?: number;
}

export type SupervisorEvent =
  | { kind: 'started'; endpoint: LocalEndpoint; restarted: boolean }
  /** The service stopped unexpectedly (or a restart failed); `failures` counts them in a row (1: the first). */
  | { kind: 'stopped'; reason: string; failures: number; retryInMs: number }
  | { kind: 'gaveUp'; reason: string; failures: number };

/** The data folder is locked by a process whose server does not answer (yet). */
export class OwnerNotAnswering extends Error {
  override readonly name = 'OwnerNotAnswering';
  constructor(
    readonly pid: number,
    readonly url: string,
  ) {
    super(`The local service data folder is locked by process ${pid}, which does not answer at ${url}`);
  }
}

/** After dispose(): nobody is left to show it. */
class HostDisposedError extends Error {
  override readonly name = 'HostDisposedError';
}

export class LocalServiceSupervisor {
  private readonly backoff: Backoff;
  private readonly listeners = new Set<(event: SupervisorEvent) => void>();
  private starting: Promise<LocalEndpoint> | undefined;
  private child: LocalChild | undefined;
  private endpoint: LocalEndpoint | undefined;
  private failures = 0;
  private gaveUpReason: string | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Ends the backoff delay of a pending restart early (restart(), dispose()). */
  private wake: (() => void) | undefined;
  private lastPort = 0;
  private disposed = false;
  /** Counts the children started: a request that began under another one saw its service stop. */
  private runs = 0;

  constructor(private readonly options: SupervisorOptions) {
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  }

  onEvent(listener: (event: SupervisorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get current(): LocalEndpoint | undefined {
    return this.endpoint;
  }

  get generation(): number {
    return this.runs;
  }

  /** Why the supervisor stopped restarting, until restart() is called. */
  get gaveUp(): string | undefined {
    return this.gaveUpReason;
  }

  /** True while the service is down and a restart is pending or running. */
  get restarting(): boolean {
    return !this.endpoint && this.starting !== undefined && this.failures > 0;
  }

  /** True once something asked for the service (it may still be starting). */
  get isStarted(): boolean {
    return this.starting !== undefined || this.endpoint !== undefined;
  }

  /** The endpoint; starts the service on first use and waits for a restart in progress. */
  ensureStarted(): Promise<LocalEndpoint> {
    if (this.disposed) return Promise.reject(new HostDisposedError());
    if (this.endpoint) return Promise.resolve(this.endpoint);
    if (this.gaveUpReason) return Promise.reject(new LocalStartError(this.gaveUpReason));
    this.starting ??= this.untilSettled(this.startWithRetry());
    return this.starting;
  }

  /** The workspace folders changed: file:// cloud uploads may read the new ones. */
  setAllowedRoots(roots: string[]): void {
    this.child?.send({ type: 'setAllowedRoots', roots });
  }

  /** The writer setting changed (a restarted child gets it from startOptions). */
  setWriter(writer: ChildWriter | undefined): void {
    this.child?.send({ type: 'setWriter', writer });
  }

  /** Forget a borrowed endpoint that stopped answering, so the next call can take the folder over. */
  reset(): void {
    if (this.endpoint && !this.endpoint.owned) this.endpoint = undefined;
  }

  /** "Restart Local Service": forgets the failures and starts a fresh child (stopping the running one). */
  async restart(): Promise<LocalEndpoint> {
    this.failures = 0;
    this.gaveUpReason = undefined;
    // A restart waiting for its backoff delay goes now.
    if (this.starting) {
      this.wake?.();
      return this.starting;
    }
    const running = this.child;
    this.child = undefined;
    this.endpoint = undefined;
    await running?.stop();
    return this.ensureStarted();
  }

  /** Is `error` (a request failure that began under run `generation`) the service stopping? Waits briefly for the exit. */
  async stoppedDuring(generation: number): Promise<{ restarting: boolean; reason: string } | undefined> {
    if (this.disposed) return undefined;
    if (this.gaveUpReason) return { restarting: false, reason: this.gaveUpReason };
    const child = this.child;
    if (generation === this.runs && child) {
      // A killed child's sockets may close before its exit is seen: give the exit a moment to arrive.
      const exit = await Promise.race([child.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 1000).unref())]);
      if (!exit) return undefined;
      return { restarting: !this.gaveUpReason, reason: child.describeExit(exit) };
    }
    // Another window's service (its own failures are the connection's), or nothing started: not ours to explain.
    if (this.endpoint?.owned === false || (!this.endpoint && !this.starting)) return undefined;
    return { restarting: true, reason: 'was restarted' };
  }

  /** Stops the child (SIGTERM, then SIGKILL after the grace period) and stops restarting. */
  async dispose(graceMs?: number): Promise<void> {
    this.disposed = true;
    clearTimeout(this.restartTimer);
    this.wake?.();
    const child = this.child;
    this.child = undefined;
    this.endpoint = undefined;
    await child?.stop(graceMs);
  }

  private emit(event: SupervisorEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  /** `starting` is the start (or restart) in progress, and nothing once it has settled either way. */
  private untilSettled(start: Promise<LocalEndpoint>): Promise<LocalEndpoint> {
    return start.finally(() => {
      this.starting = undefined;
    });
  }

  private async startWithRetry(): Promise<LocalEndpoint> {
    // After a window reload the previous extension host's service may hold the lock for a moment: retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.startOnce();
      } catch (error) {
        if (attempt >= 10 || !(error instanceof OwnerNotAnswering) || this.disposed) throw error;
        await new Promise((r) => setTimeout(r, 300));
      }
    }
  }

  private async startOnce(): Promise<LocalEndpoint> {
    const began = Date.now();
    const start = { ...this.options.startOptions(), port: this.lastPort };
    const { child, first } = await LocalChild.start({
      script: this.options.script,
      log: this.options.log,
      start,
      startTimeoutMs: this.options.startTimeoutMs,
    });
    if (first.type === 'ready' && !this.disposed) {
      const restarted = this.runs > 0;
      this.runs++;
      this.child = child;
      this.endpoint = { url: first.url, apiKey: first.apiKey, nluApiKey: first.nluApiKey, owned: true, pid: child.pid };
      this.lastPort = Number(new URL(first.url).port) || 0;
      this.options.log.info(
        `local service started (process ${child.pid}) on ${first.url} in ${Date.now() - began} ms (data: ${start.dataDir})`,
      );
      this.watch(child);
      this.emit({ kind: 'started', endpoint: this.endpoint, restarted });
      return this.endpoint;
    }
    await child.stop();
    if (first.type === 'ready') throw new HostDisposedError();
    if (first.type === 'failed') throw new LocalStartError(first.message);
    const { owner } = first;
    if (!owner.url) throw new LocalStartError(`The data folder ${start.dataDir} is in use by process ${owner.pid}`);
    if (!(await this.options.ownerAnswers(owner.url, first.apiKey))) throw new OwnerNotAnswering(owner.pid, owner.url);
    this.options.log.info(`using the local service of process ${owner.pid} at ${owner.url} (another window owns ${start.dataDir})`);
    this.endpoint = { url: owner.url, apiKey: first.apiKey, nluApiKey: first.nluApiKey, owned: false };
    return this.endpoint;
  }

  /** A child that exits while it is ours stopped unexpectedly: report it and start another. */
  private watch(child: LocalChild): void {
    const since = Date.now();
    void child.exited.then((exit) => {
      if (this.child !== child || this.disposed) return;
      this.child = undefined;
      this.endpoint = undefined;
      if (Date.now() - since >= this.backoff.stableMs) this.failures = 0;
      const reason = child.describeExit(exit);
      this.options.log.error(`local service process ${child.pid} ${reason}`);
      this.starting = this.untilSettled(this.restartLoop(reason));
      this.starting.catch(() => undefined); // whoever asks gets the outcome; nobody may be waiting
    });
  }

  private async restartLoop(reason: string): Promise<LocalEndpoint> {
    for (;;) {
      this.failures++;
      if (this.failures > this.backoff.maxRapidFailures) {
        this.gaveUpReason = `The local service stopped ${this.failures - 1} times in a row; the last time it ${reason}`;
        this.options.log.error(`${this.gaveUpReason}. Not restarting it again until "Restart Local Service".`);
        this.emit({ kind: 'gaveUp', reason, failures: this.failures - 1 });
        throw new LocalStartError(this.gaveUpReason);
      }
      const retryInMs = Math.min(this.backoff.initialMs * 2 ** (this.failures - 1), this.backoff.maxMs);
      this.emit({ kind: 'stopped', reason, failures: this.failures, retryInMs });
      this.options.log.info(`restarting the local service in ${retryInMs} ms (failure ${this.failures} in a row)`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.restartTimer = setTimeout(resolve, retryInMs);
      });
      clearTimeout(this.restartTimer);
      this.wake = undefined;
      if (this.disposed) throw new HostDisposedError();
      try {
        return await this.startWithRetry();
      } catch (error) {
        reason = `could not start again: ${(error as Error).message}`;
        this.options.log.error(`local service restart failed: ${(error as Error).message}`);
      }
    }
  }
}
