import * as vscode from 'vscode';
import { ApiConnectionError } from '../../api/errors';
import { checkServiceUrl, REGIONS } from '../../core/regions';
import type { Container } from '../../container';
import { toAbortSignal } from '../../platform/cancellation';
import { CommandIds, ContextKeys } from '../../platform/commandIds';
import { setContext } from '../../platform/contextKeys';
import { unreachableNextStep, unreachableText } from '../../platform/errorMessages';
import { Disposable, toDisposable } from '../../platform/lifecycle';
import { SettingKeys } from '../../platform/settings';
import { completeWalkthroughStep } from '../../platform/walkthrough';
import type { ConnectionStatus } from '../../platform/connection/connectionStatus';
import { chooseWriterModel } from './chooseWriterModel';
import { setIdentity } from './identityCommand';
import { regionDescription, regionLabel } from '../../platform/regionLabels';
import { ConnectionCommands } from './connectionCommands';
import { ConnectionStatusBar } from './statusBar';
import { WorkspaceSettingsGuard } from './workspaceSettingsGuard';

/** Regions, keys, identity, the status bar and the connection context keys. */
export class ConnectionFeature extends Disposable {
  readonly statusBar: ConnectionStatusBar;
  readonly workspaceSettings: WorkspaceSettingsGuard;

  constructor(private readonly c: Container) {
    super();
    this.statusBar = this._register(new ConnectionStatusBar(c.connection));
    this.workspaceSettings = this._register(new WorkspaceSettingsGuard(c.settings, c.context.workspaceState, c.log('settings')));
    // Reads the workspace's settings files: after activation, not in it.
    const firstCheck = setTimeout(() => void this.workspaceSettings.check(), 0);
    this._register(toDisposable(() => clearTimeout(firstCheck)));
    let connected = false;
    const publish = (s: ConnectionStatus): void => {
      setContext(ContextKeys.connectionState, s.state);
      // The walkthrough's first step, on each change to connected (the command behind it is cheap, but not free).
      if (s.state === 'connected' && !connected) completeWalkthroughStep('connected');
      connected = s.state === 'connected';
      setContext(ContextKeys.region, s.region);
      if (s.state !== 'checking' && s.state !== 'idle') setContext(ContextKeys.hasKey, s.state !== 'noKey');
    };
    this._register(new ConnectionCommands(c, (id) => this.setApiKey(id)));
    this.reportLoad();
    publish(c.connection.status);
    this._register(c.connection.onDidChangeStatus(publish));
    this._register(
      c.commands({
        [CommandIds.selectRegion]: () => this.selectRegion(),
        [CommandIds.setApiKey]: (id?: string) => this.setApiKey(id),
        [CommandIds.clearApiKey]: () => this.clearApiKey(),
        [CommandIds.setNluKey]: () => this.setNluKey(),
        [CommandIds.clearNluKey]: () => this.clearNluKey(),
        [CommandIds.connect]: () => this.connect(),
        [CommandIds.setIdentity]: () => setIdentity(c.ui, c.settings),
        [CommandIds.checkConnection]: () => c.connection.refresh(),
        [CommandIds.showLog]: () => c.logger.show(),
        [CommandIds.chooseLocalWriterModel]: () => chooseWriterModel(c.ui, c.settings),
        [CommandIds.restartLocalService]: async () => {
          // The active connection's local project (the default one while a remote connection is active).
          const target = c.connection.active.target;
          await c.localProjects.host(target.kind === 'local' ? target.project : undefined).restart();
          await c.connection.refresh();
        },
      }),
    );
  }

  /** A hand-edited connection list, or a workspace preferring a connection that does not exist: said once. */
  private reportLoad(): void {
    const { problem, unknownPreference, migrated } = this.c.connection.loaded;
    const log = this.c.log('connection');
    if (migrated) log.info('the region keys became the connections US, JA, Custom and Local');
    if (problem) {
      log.warn(`the stored connection list was not valid (${problem}); the default connections were rebuilt, keys kept`);
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'The stored Knowledge Desk connections could not be read ({0}). The default connections were rebuilt; no key was removed.',
          problem,
        ),
      );
    }
    if (unknownPreference) {
      log.warn(`the workspace prefers the connection "${unknownPreference}", which does not exist; it was not created`);
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'This workspace prefers the connection "{0}", which does not exist on this machine. Knowledge Desk shows "{1}".',
          unknownPreference,
          this.c.connection.active.name,
        ),
      );
    }
  }

  private async selectRegion(): Promise<void> {
    const current = this.c.connection.region;
    const items = await Promise.all(
      REGIONS.map(async (region) => {
        const hasKey = !!(await this.c.secrets.get('apiKey', region));
        return {
          id: region,
          label: `${region === current ? '$(check) ' : ''}${regionLabel(region)}`,
          description: region === 'custom' && this.c.settings.custom.baseUrl ? this.c.settings.custom.baseUrl : regionDescription(region),
          detail:
            region === 'local'
              ? vscode.l10n.t('Works offline; its key is managed for you')
              : hasKey
                ? vscode.l10n.t('API key stored')
                : vscode.l10n.t('No API key yet'),
          region,
        };
      }),
    );
    const pick = await this.c.ui.showQuickPick(items, {
      title: vscode.l10n.t('Knowledge Desk: Select Region'),
      placeHolder: vscode.l10n.t('Current: {0}', regionLabel(current)),
    });
    if (!pick) return;
    if (pick.region === 'custom' && !(await this.configureCustom())) return;
    await this.c.settings.set(SettingKeys.region, pick.region);
    // The setting maps to its connection; picking the region already set must switch back to it too.
    await this.c.connection.store.activateRegion(pick.region);
    const status = await this.c.connection.refresh();
    if (status.state === 'noKey' && pick.region !== 'local') await this.setApiKey(pick.region);
  }

  /** Asks for the on-premises base URL (and NLU URL) when they are not set yet. */
  private async configureCustom(): Promise<boolean> {
    const current = this.c.settings.custom;
    const baseUrl = await this.c.ui.showInputBox({
      title: vscode.l10n.t('Custom region: base URL of the service'),
      value: current.baseUrl || 'https://',
      prompt: vscode.l10n.t('For example {0} ({1} only for this machine)', 'https://knowledge.example.co.jp', 'http://'),
      validateInput: (v) => urlProblem(v),
    });
    if (baseUrl === undefined) return false;
    const nluUrl = await this.c.ui.showInputBox({
      title: vscode.l10n.t('Custom region: entity-recognition URL (optional)'),
      value: current.nluUrl ?? '',
      prompt: vscode.l10n.t('Leave empty to use the base URL'),
      validateInput: (v) => (v.trim() ? urlProblem(v) : undefined),
    });
    if (nluUrl === undefined) return false;
    await this.c.settings.set(SettingKeys.customBaseUrl, checkServiceUrl(baseUrl).url);
    await this.c.settings.set(SettingKeys.customNluUrl, nluUrl.trim() ? checkServiceUrl(nluUrl).url : '');
    return true;
  }

  /** For the active connection, or the one whose id (a region for the default ones) is given. */
  private async setApiKey(idArg?: string): Promise<boolean> {
    const connection = (typeof idArg === 'string' && this.c.connection.store.get(idArg)) || this.c.connection.active;
    const region = connection.target.kind;
    const label = connection.name;
    const key = (
      await this.c.ui.showInputBox({
        title: vscode.l10n.t('Knowledge Desk: API key for {0}', label),
        prompt:
          region === 'local'
            ? vscode.l10n.t('Key printed by the local service (or run "{0}" to use the embedded one)', vscode.l10n.t('Connect'))
            : vscode.l10n.t('Found in the dashboard under Settings'),
        password: true,
        validateInput: keyProblem,
      })
    )?.trim();
    if (!key) return false;
    const stored = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the key with {0}…', label), cancellable: true },
      async (_progress, token) => {
        const { signal, dispose } = toAbortSignal(token);
        try {
          for (;;) {
            try {
              await this.c.connection.verifyKey(connection, key, signal);
              return true;
            } catch (error) {
              if (!(error instanceof ApiConnectionError)) throw error;
              // The first button is the dialog's default (Enter): Check Again, never storing an unchecked key;
              // Escape is VS Code's own Cancel.
              const checkAgain = vscode.l10n.t('Check Again');
              const storeAnyway = vscode.l10n.t('Store Without Checking');
              const choice = await this.c.ui.showWarningMessage(
                vscode.l10n.t(
                  'The key for {0} could not be checked. {1} {2} Store the key without checking it?',
                  label,
                  unreachableText(error),
                  unreachableNextStep(),
                ),
                { modal: true },
                checkAgain,
                storeAnyway,
              );
              if (choice !== checkAgain) return choice === storeAnyway;
            }
          }
        } finally {
          dispose();
        }
      },
    );
    if (!stored) return false;
    await this.c.secrets.store('apiKey', connection.id, key);
    this.c.log('connection').info(`API key stored for the connection ${connection.id}`);
    if (connection.id === this.c.connection.active.id) await this.c.connection.refresh();
    return true;
  }

  /** The entity-recognition service has its own key per region; checked with one small inference first. */
  private async setNluKey(): Promise<void> {
    const connection = this.c.connection.active;
    const label = connection.name;
    const key = (
      await this.c.ui.showInputBox({
        title: vscode.l10n.t('Knowledge Desk: entity-recognition key for {0}', label),
        prompt: vscode.l10n.t('Found in the entity-recognition dashboard under Settings, General'),
        password: true,
        validateInput: keyProblem,
      })
    )?.trim();
    if (!key) return;
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Checking the entity-recognition key with {0}…', label),
        cancellable: true,
      },
      async (_p, token) => {
        const { signal, dispose } = toAbortSignal(token);
        try {
          const ep = await this.c.connection.endpoints(connection);
          this.c.logger.redact(key);
          await this.c.connection.createClient(ep, '', key).nlu.infer('Knowledge Desk key check', { signal, maxRetries: 0 });
        } finally {
          dispose();
        }
      },
    );
    await this.c.secrets.store('nluApiKey', connection.id, key);
    this.c.log('connection').info(`entity-recognition key stored for the connection ${connection.id}`);
  }

  /** A modal "Remove Key" confirmation; true when the user chose it. */
  private async confirmRemove(question: string): Promise<boolean> {
    const remove = vscode.l10n.t('Remove Key');
    return (await this.c.ui.showWarningMessage(question, { modal: true }, remove)) === remove;
  }

  private async clearNluKey(): Promise<void> {
    const connection = this.c.connection.active;
    if (await this.confirmRemove(vscode.l10n.t('Remove the entity-recognition key for {0} from this machine?', connection.name)))
      await this.c.secrets.delete('nluApiKey', connection.id);
  }

  private async clearApiKey(): Promise<void> {
    const connection = this.c.connection.active;
    if (!(await this.confirmRemove(vscode.l10n.t('Remove the API key for {0} from this machine?', connection.name)))) return;
    await this.c.connection.localKeys.clear(connection);
    this.c.log('connection').info(`API key removed for the connection ${connection.id}`);
    await this.c.connection.refresh();
  }

  /** The welcome view's button: Local uses its own key; other regions ask for one. */
  private async connect(): Promise<void> {
    if (this.c.connection.region === 'local') {
      await this.c.connection.localKeys.use(this.c.connection.active);
      await this.c.connection.refresh();
    } else {
      await this.setApiKey();
    }
  }
}

function keyProblem(value: string): string | undefined {
  if (!value.trim()) return vscode.l10n.t('Enter the key');
  return /\s/.test(value.trim()) ? vscode.l10n.t('A key has no spaces') : undefined;
}

function urlProblem(value: string): string | undefined {
  const problem = checkServiceUrl(value).error;
  // The reason comes from src/core/regions.ts (English, shared with the logs).
  return problem ? vscode.l10n.t('The URL {0}', problem) : undefined;
}
