import * as path from 'node:path';
import type { Dispatcher } from 'undici';
import * as vscode from 'vscode';
import { undici } from '../../api/undici';
import type { ChildWriter } from '../../core/localServiceProtocol';
import { OPERATIONS } from '../../core/operations';
import { CommandIds } from '../commandIds';
import { Disposable, toDisposable } from '../lifecycle';
import type { Log } from '../logger';
import { LocalStartError } from './process/localChild';
import { guardLocalDispatcher } from './process/stoppedGuard';
import { LocalServiceSupervisor, OwnerNotAnswering, type LocalEndpoint, type SupervisorEvent } from './process/supervisor';

export type { LocalEndpoint } from './process/supervisor';

export interface LocalServiceHostOptions {
  extensionPath: string;
  dataDir: string;
  log: Log;
  allowedRoots: () => string[];
  maxUploadBytes: () => number;
  /** Sample documents imported when the knowledge base is empty (npm start sets KNOWLEDGE_DESK_LOCAL_SEED). */
  seedDir?: string;
  /** Test options of the local service (the test build only; see platform/localServiceTestOptions.ts). */
  test?: { testHooks: boolean; jobStepDelayMs: number };
  /** "Show Log" of the notifications. */
  showLog?: () => void;
  /** Who writes the service's answers (platform/localWriter): sent at start and whenever it changes. */
  writer?: { current(): ChildWriter | undefined; onDidChange: vscode.Event<void> };
}

/**
 * Runs the local service for the Local region in its own process (dist/local.js, started on first use and
 * supervised: process/supervisor.ts), so its indexing, imports and JSON never run in the extension host
 * that every extension shares. Several windows share global storage: the first one's service owns the data
 * folder and the others use its server. Tells the person once when it stops, and why when it cannot start.
 */
export class LocalServiceHost extends Disposable {
  private readonly supervisor: LocalServiceSupervisor;
  private readonly changeEmitter = this._register(new vscode.EventEmitter<SupervisorEvent>());
  /** The service started, stopped (and is restarting) or was given up. */
  readonly onDidChange = this.changeEmitter.event;
  /** The last start failure shown, so a recheck failing the same way does not show it again. */
  private shownFailure: string | undefined;
  /** Why the service stopped, until it is back (then reported) or given up. */
  private crashReason: string | undefined;

  constructor(private readonly options: LocalServiceHostOptions) {
    super();
    const { log } = options;
    this.supervisor = new LocalServiceSupervisor({
      // A computed path: the service stays a bundle of its own, run in its own process.
      script: path.join(options.extensionPath, 'dist', 'local.js'),
      log: { trace: (m) => log.trace(m), info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(m) },
      startOptions: () => ({
        dataDir: options.dataDir,
        allowedRoots: options.allowedRoots(),
        maxUploadBytes: options.maxUploadBytes(),
        seedDir: options.seedDir,
        writer: options.writer?.current(),
        ...options.test,
      }),
      ownerAnswers: answers,
    });
    this._register(toDisposable(this.supervisor.onEvent((event) => this.onEvent(event))));
    this._register(toDisposable(() => void this.supervisor.dispose()));
    const writer = options.writer;
    if (writer) this._register(writer.onDidChange(() => this.supervisor.setWriter(writer.current())));
  }

  get current(): LocalEndpoint | undefined {
    return this.supervisor.current;
  }

  /** The data folder (an MCP server started with --local attaches to the service its lock file names). */
  get dataDir(): string {
    return this.options.dataDir;
  }

  /** True once something asked for the service in this window (it may still be starting). */
  get isStarted(): boolean {
    return this.supervisor.isStarted;
  }

  /** True while the service stopped and is being started again. */
  get restarting(): boolean {
    return this.supervisor.restarting;
  }

  async ensureStarted(): Promise<LocalEndpoint> {
    try {
      const endpoint = await this.supervisor.ensureStarted();
      this.shownFailure = undefined;
      return endpoint;
    } catch (error) {
      throw this.startFailure(error);
    }
  }

  /** "Restart Local Service": also after it was given up. */
  async restart(): Promise<LocalEndpoint> {
    this.shownFailure = undefined;
    try {
      return await this.supervisor.restart();
    } catch (error) {
      throw this.startFailure(error);
    }
  }

  /** Stops the process and waits until it has exited (its lock released), then disposes the host. */
  async close(): Promise<void> {
    await this.supervisor.dispose();
    this.dispose();
  }

  /** The workspace folders changed: file:// cloud uploads may read the new ones. */
  setAllowedRoots(roots: string[]): void {
    this.supervisor.setAllowedRoots(roots);
  }

  /** Forget a borrowed endpoint that stopped answering, so the next call can take the folder over. */
  reset(): void {
    this.supervisor.reset();
  }

  /** The dispatcher for requests to this service: a failure because its process stopped says so. */
  guard(dispatcher: Dispatcher): Dispatcher {
    return guardLocalDispatcher(dispatcher, this.supervisor);
  }

  private onEvent(event: SupervisorEvent): void {
    this.changeEmitter.fire(event);
    const showLog = vscode.l10n.t('Show Log');
    // While it restarts, the status bar says so. The crash is reported once it is back, so the message is still true
    // when it is read (a warning saying "it is being restarted" stayed on screen long after it was).
    if (event.kind === 'stopped' && event.failures === 1) this.crashReason = event.reason;
    else if (event.kind === 'started' && event.restarted && this.crashReason !== undefined) {
      const reason = this.crashReason;
      this.crashReason = undefined;
      void vscode.window
        .showWarningMessage(vscode.l10n.t('The local service stopped unexpectedly ({0}) and was started again.', reason), showLog)
        .then((choice) => choice === showLog && this.options.showLog?.());
    } else if (event.kind === 'gaveUp') {
      this.crashReason = undefined;
      const restart = vscode.l10n.t('Restart Local Service');
      void vscode.window
        .showErrorMessage(
          vscode.l10n.t(
            'The local service stopped {0} times in a row and was not started again. The last time it {1}.',
            event.failures,
            event.reason,
          ),
          restart,
          showLog,
        )
        .then((choice) => {
          if (choice === showLog) this.options.showLog?.();
          if (choice === restart) void vscode.commands.executeCommand(CommandIds.restartLocalService);
        });
    }
  }

  /** The error a failed start becomes: the child's reason, shown once with Open Data Folder and Show Log. */
  private startFailure(error: unknown): unknown {
    if (error instanceof OwnerNotAnswering)
      return new Error(
        vscode.l10n.t(
          'The local service data folder is locked by process {0}, which does not answer at {1}. Close the other VS Code window or restart it.',
          error.pid,
          error.url,
        ),
      );
    if (!(error instanceof LocalStartError)) return error;
    const failure = new Error(vscode.l10n.t('The local service could not start: {0}', error.message), { cause: error });
    // Given up: that was shown already, with Restart Local Service.
    if (this.shownFailure !== error.message && !this.supervisor.gaveUp) {
      this.shownFailure = error.message;
      const open = vscode.l10n.t('Open Data Folder');
      const showLog = vscode.l10n.t('Show Log');
      void vscode.window.showErrorMessage(failure.message, open, showLog).then((choice) => {
        if (choice === showLog) this.options.showLog?.();
        // Revealed, never changed: what is in it is the person's data.
        if (choice === open) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(this.options.dataDir));
      });
    }
    return failure;
  }
}

async function answers(url: string, apiKey: string): Promise<boolean> {
  try {
    const res = await undici().request(url + OPERATIONS['admin.info'].path, {
      headers: { 'API-KEY': apiKey },
      signal: AbortSignal.timeout(3000),
    });
    await res.body.dump();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}
