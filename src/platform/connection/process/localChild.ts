// One run of the local service as a child process of the extension host, as language servers run:
// child_process.fork of dist/local.js with the host's own runtime (Electron as Node in desktop VS Code),
// its log lines forwarded with their levels, its first IPC message saying whether it listens. No `vscode`:
// the unit tests and the benchmark run it in plain Node.
import { fork, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import {
  isChildMessage,
  LOG_LEVELS,
  SUPERVISED_ARG,
  type ChildMessage,
  type ChildStartOptions,
  type LogLevel,
  type ParentMessage,
} from '../../../core/localServiceProtocol';

export interface ChildLog {
  trace(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface LocalChildOptions {
  /** dist/local.js */
  script: string;
  log: ChildLog;
  start: ChildStartOptions;
  /** How long the service may take to listen (a large data folder replays its journal first). */
  startTimeoutMs?: number;
}

/** The child said why it could not start (its error message), or exited before it said anything. */
export class LocalStartError extends Error {
  override readonly name = 'LocalStartError';
}

/** A started child: what its first message said, and the process until it exits. */
/** How long before an exit an error line may be its reason. */
const CAUSE_WINDOW_MS = 5000;

export class LocalChild {
  /** Resolves once, when the process has exited (whatever the cause). */
  readonly exited: Promise<ChildExit>;
  private exit: ChildExit | undefined;
  /** The last log lines, for a crash report. */
  private readonly tail: string[] = [];
  /** The last error line and when it came: a cause of the exit only if it came just before it. */
  private lastError: { line: string; at: number } | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly log: ChildLog,
  ) {
    this.exited = new Promise((resolve) =>
      // 'close', not 'exit': by then its last output (usually the reason) has been read.
      child.once('close', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      }),
    );
    forwardLines(child.stdout!, 'info', (level, line) => this.line(level, line));
    forwardLines(child.stderr!, 'error', (level, line) => this.line(level, line));
  }

  get pid(): number {
    return this.child.pid!;
  }

  get hasExited(): boolean {
    return this.exit !== undefined;
  }

  /** The last lines the child logged at warn or error, newest last. */
  get lastProblems(): string[] {
    return [...this.tail];
  }

  /** Forks the child and waits for its first message: `ready`, `locked` or `failed`. */
  static async start(options: LocalChildOptions): Promise<{ child: LocalChild; first: ChildMessage }> {
    const proc = fork(options.script, [SUPERVISED_ARG], {
      execPath: process.execPath,
      // Not the extension host's own flags (inspector ports, loaders): a plain runtime.
      execArgv: [],
      // Desktop VS Code's execPath is Electron: this makes it behave as Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const child = new LocalChild(proc, options.log);
    proc.on('error', (error) => options.log.error(`local service process: ${error.message}`));
    const first = await new Promise<ChildMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new LocalStartError(`the local service did not start within ${(options.startTimeoutMs ?? 120_000) / 1000} s`));
        void child.stop();
      }, options.startTimeoutMs ?? 120_000);
      proc.on('message', (message) => {
        if (!isChildMessage(message)) return;
        clearTimeout(timer);
        resolve(message);
      });
      void child.exited.then((exit) => {
        clearTimeout(timer);
        reject(new LocalStartError(child.describeExit(exit)));
      });
      child.send({ type: 'start', options: options.start });
    });
    return { child, first };
  }

  send(message: ParentMessage): void {
    if (this.child.connected) this.child.send(message);
  }

  /**
   * "exited with code 1: <its last error line>", "was stopped by SIGKILL". Only an error logged in the last
   * seconds before the exit is given as its reason: a warning about a document processed minutes earlier read as
   * the cause of a kill.
   */
  describeExit(exit: ChildExit): string {
    const how = exit.signal ? `was stopped by ${exit.signal}` : `exited with code ${exit.code}`;
    const last = this.lastError && Date.now() - this.lastError.at <= CAUSE_WINDOW_MS ? this.lastError.line : undefined;
    return last ? `${how}: ${last}` : how;
  }

  /** SIGTERM (the service closes its journal and lock), then SIGKILL after `graceMs`; by this child's pid only. */
  async stop(graceMs = 5000): Promise<ChildExit> {
    if (!this.exit) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.exit || this.child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    return this.exit!;
  }

  private line(level: LogLevel, line: string): void {
    if (level === 'warn' || level === 'error') {
      this.tail.push(line);
      if (this.tail.length > 5) this.tail.shift();
    }
    if (level === 'error') this.lastError = { line, at: Date.now() };
    if (level === 'debug') this.log.trace(line);
    else this.log[level](line);
  }
}

/** "<level> <message>" lines (continuations indented, kept with their entry); other lines at `fallback`. */
function forwardLines(stream: Readable, fallback: LogLevel, emit: (level: LogLevel, text: string) => void): void {
  let pending: { level: LogLevel; text: string } | undefined;
  const flush = (): void => {
    if (pending) emit(pending.level, pending.text);
    pending = undefined;
  };
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (pending && line.startsWith('  ')) {
      pending.text += `\n${line.slice(2)}`;
      return;
    }
    flush();
    const space = line.indexOf(' ');
    const level = LOG_LEVELS.find((l) => l === line.slice(0, space));
    pending = level ? { level, text: line.slice(space + 1) } : { level: fallback, text: line };
    // Written once the chunk's continuation lines (a stack) have been read with it.
    setImmediate(flush);
  });
  lines.on('close', flush);
}
