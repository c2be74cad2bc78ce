import * as vscode from 'vscode';
import { activeConnectionLabel } from './platform/connection/connectionLabel';
import { ConnectionFileSync } from './platform/connection/connectionFileSync';
import { ConnectionManager } from './platform/connection/connectionManager';
import type { LocalServiceHost } from './platform/connection/localServiceHost';
import { LocalProjects } from './platform/connection/localProjects';
import { CommandIds, type CommandId } from './platform/commandIds';
import { registerCommand, type CommandHandler, type CommandHost } from './platform/commands';
import { DetailsDocuments } from './platform/detailsDocument';
import { Disposable, disposeAll, toDisposable, type IDisposable } from './platform/lifecycle';
import { Logger, type Log } from './platform/logger';
import { LocalWriterSource } from './platform/localWriter/localWriterSource';
import { Secrets } from './platform/secrets';
import type { ErrorReporting, ErrorShown } from './platform/errorReport';
import type { PanelBasics } from './platform/webview/panelErrors';
import { Settings, SettingKeys } from './platform/settings';
import { localServiceTestOptions } from './platform/localServiceTestOptions';
import { noteUse, onDidUse } from './platform/usage';
import { WindowUserInput, type UserInput } from './platform/userInput';
import { usePageStates } from './platform/webview/pageStates';

// Select Region checks the connection itself once a region is picked; the log and identity need no service.
const PASSIVE_COMMANDS = new Set<string>([CommandIds.showLog, CommandIds.selectRegion, CommandIds.setIdentity]);

/** The services every feature shares; built once in activate(). */
export class Container extends Disposable {
  readonly logger: Logger;
  readonly settings: Settings;
  readonly secrets: Secrets;
  /** The local projects, one service process each (started on first use). */
  readonly localProjects: LocalProjects;
  /** The default local project's service (the Local connection's). */
  readonly localService: LocalServiceHost;
  /** Who writes the local service's answers (knowledgeDesk.local.writer). */
  readonly localWriter: LocalWriterSource;
  readonly connection: ConnectionManager;
  /** Replaced by scripted input in integration tests (src/testApi.ts setUserInput). */
  ui: UserInput = new WindowUserInput();
  private readonly errorShownEmitter = this._register(new vscode.EventEmitter<ErrorShown>());
  /** A command or a panel showed the user an error. */
  readonly onDidShowError = this.errorShownEmitter.event;
  private readonly commandHost: CommandHost;
  private detailsDocuments?: DetailsDocuments;

  /** Read-only "Show Details" reports (platform/detailsDocument.ts), registered on first use. */
  get details(): DetailsDocuments {
    return (this.detailsDocuments ??= this._register(new DetailsDocuments()));
  }

  constructor(readonly context: vscode.ExtensionContext) {
    super();
    // Before any feature registers a panel serializer: restored pages use the host's copy of their state.
    usePageStates(context.workspaceState);
    this.logger = this._register(new Logger());
    this.settings = this._register(new Settings());
    this.secrets = this._register(new Secrets(context.secrets));
    const log = this.logger.scoped('local');
    this.localWriter = this._register(new LocalWriterSource(this.settings, log));
    this.localProjects = this._register(
      new LocalProjects({
        extensionPath: context.extensionPath,
        storageDir: context.globalStorageUri.fsPath,
        log,
        allowedRoots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
        maxUploadBytes: () => this.settings.get<number>(SettingKeys.localMaxUploadMb, 512) * 1024 * 1024,
        seedDir: process.env.KNOWLEDGE_DESK_LOCAL_SEED || undefined,
        // Test routes, the stream delay and slow job steps: the test build only (src/testBuild.d.ts).
        test: globalThis.__KD_TEST__ ? localServiceTestOptions() : undefined,
        showLog: () => this.logger.show(),
        writer: this.localWriter,
      }),
    );
    this.localService = this.localProjects.host();
    this._register(
      vscode.workspace.onDidChangeWorkspaceFolders(() =>
        this.localProjects.setAllowedRoots((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath)),
      ),
    );
    this.connection = this._register(
      new ConnectionManager(this.settings, this.secrets, this.localProjects, this.logger, context.globalState),
    );
    this._register(new ConnectionFileSync(context.globalStorageUri.fsPath, this.connection.store, this.settings, this.localProjects, log));
    this._register(
      onDidUse((what) => {
        if (this.connection.isUsed) return;
        this.logger.scoped('activation').info(`first use in this window: ${what}`);
        this.connection.use();
      }),
    );
    this.commandHost = this.errorReporting(this.logger.scoped('command'));
  }

  log(component: string): Log {
    return this.logger.scoped(component);
  }

  /** How commands and panels report errors: to `log`, shown with "Show Log", and fired as onDidShowError. */
  errorReporting(log: Log): ErrorReporting {
    return {
      log,
      showLog: () => this.logger.show(),
      onErrorShown: (command, message) => this.errorShownEmitter.fire({ command, message }),
    };
  }

  /** The extension's resources, a log named `component` and error reporting: what every panel needs. */
  panelBasics(component: string): PanelBasics {
    const log = this.log(component);
    return {
      extensionUri: this.context.extensionUri,
      log,
      errors: this.errorReporting(log),
      connectionLabel: () => activeConnectionLabel(this.connection.store),
    };
  }

  /**
   * A command behind the error-handling wrapper; the caller owns (registers) the disposable.
   * Running it counts as using Knowledge Desk, except for the few commands that never talk to the service.
   */
  command(id: CommandId, handler: CommandHandler): IDisposable {
    return registerCommand(this.commandHost, id, (...args: unknown[]) => {
      if (!PASSIVE_COMMANDS.has(id)) noteUse(`command ${id}`);
      return handler(...args);
    });
  }

  /** The one way features register commands: a table of handlers, each behind the wrapper; one disposable for all. */
  commands(handlers: Partial<Record<CommandId, CommandHandler>>): IDisposable {
    const registered = Object.entries(handlers).map(([id, handler]) => this.command(id as CommandId, handler!));
    return toDisposable(() => disposeAll(registered));
  }
}
