import * as vscode from 'vscode';
import { ApiConnectionError } from '../../api/errors';
import { checkServiceUrl, REGION_INFO, REGIONS, type Region } from '../../core/regions';
import type { Container } from '../../container';
import { toAbortSignal } from '../../platform/cancellation';
import { CommandIds, ContextKeys } from '../../platform/commandIds';
import { setContext } from '../../platform/contextKeys';
import { Disposable, toDisposable } from '../../platform/lifecycle';
import { SettingKeys } from '../../platform/settings';
import type { ConnectionStatus } from './connectionManager';
import { setIdentity } from './identityCommand';
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
    const publish = (s: ConnectionStatus): void => {
      setContext(ContextKeys.connectionState, s.state);
      setContext(ContextKeys.region, s.region);
      if (s.state !== 'checking' && s.state !== 'idle') setContext(ContextKeys.hasKey, s.state !== 'noKey');
    };
    publish(c.connection.status);
    this._register(c.connection.onDidChangeStatus(publish));
    this._register(
      c.commands({
        [CommandIds.selectRegion]: () => this.selectRegion(),
        [CommandIds.setApiKey]: (region?: Region) => this.setApiKey(region),
        [CommandIds.clearApiKey]: () => this.clearApiKey(),
        [CommandIds.setNluKey]: () => this.setNluKey(),
        [CommandIds.clearNluKey]: () => this.clearNluKey(),
        [CommandIds.connect]: () => this.connect(),
        [CommandIds.setIdentity]: () => setIdentity(c.ui, c.settings),
        [CommandIds.checkConnection]: () => c.connection.refresh(),
        [CommandIds.showLog]: () => c.logger.show(),
      }),
    );
  }

  private async selectRegion(): Promise<void> {
    const current = this.c.settings.region;
    const items = await Promise.all(
      REGIONS.map(async (region) => {
        const hasKey = !!(await this.c.secrets.get('apiKey', region));
        return {
          id: region,
          label: `${region === current ? '$(check) ' : ''}${REGION_INFO[region].label}`,
          description:
            region === 'custom' && this.c.settings.custom.baseUrl ? this.c.settings.custom.baseUrl : REGION_INFO[region].description,
          detail: region === 'local' ? 'Works offline; its key is managed for you' : hasKey ? 'API key stored' : 'No API key yet',
          region,
        };
      }),
    );
    const pick = await this.c.ui.showQuickPick(items, {
      title: 'Knowledge Desk: Select Region',
      placeHolder: `Current: ${REGION_INFO[current].label}`,
    });
    if (!pick) return;
    if (pick.region === 'custom' && !(await this.configureCustom())) return;
    await this.c.settings.set(SettingKeys.region, pick.region);
    const status = await this.c.connection.refresh();
    if (status.state === 'noKey' && pick.region !== 'local') await this.setApiKey(pick.region);
  }

  /** Asks for the on-premises base URL (and NLU URL) when they are not set yet. */
  private async configureCustom(): Promise<boolean> {
    const current = this.c.settings.custom;
    const baseUrl = await this.c.ui.showInputBox({
      title: 'Custom region: base URL of the service',
      value: current.baseUrl || 'https://',
      prompt: 'For example https://knowledge.example.co.jp (http:// only for this machine)',
      validateInput: (v) => (checkServiceUrl(v).error ? `The URL ${checkServiceUrl(v).error}` : undefined),
    });
    if (baseUrl === undefined) return false;
    const nluUrl = await this.c.ui.showInputBox({
      title: 'Custom region: entity-recognition URL (optional)',
      value: current.nluUrl ?? '',
      prompt: 'Leave empty to use the base URL',
      validateInput: (v) => (v.trim() && checkServiceUrl(v).error ? `The URL ${checkServiceUrl(v).error}` : undefined),
    });
    if (nluUrl === undefined) return false;
    await this.c.settings.set(SettingKeys.customBaseUrl, checkServiceUrl(baseUrl).url);
    await this.c.settings.set(SettingKeys.customNluUrl, nluUrl.trim() ? checkServiceUrl(nluUrl).url : '');
    return true;
  }

  private async setApiKey(regionArg?: Region): Promise<void> {
    const region = regionArg && REGIONS.includes(regionArg) ? regionArg : this.c.settings.region;
    const label = REGION_INFO[region].label;
    const key = (
      await this.c.ui.showInputBox({
        title: `Knowledge Desk: API key for ${label}`,
        prompt:
          region === 'local'
            ? 'Key printed by the local service (or run "Connect" to use the embedded one)'
            : 'Found in the dashboard under Settings',
        password: true,
        validateInput: (v) => (!v.trim() ? 'Enter the key' : /\s/.test(v.trim()) ? 'A key has no spaces' : undefined),
      })
    )?.trim();
    if (!key) return;
    const stored = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Checking the key with ${label}…`, cancellable: true },
      async (_progress, token) => {
        const { signal, dispose } = toAbortSignal(token);
        try {
          await this.c.connection.verifyKey(region, key, signal);
          return true;
        } catch (error) {
          if (!(error instanceof ApiConnectionError)) throw error;
          const choice = await this.c.ui.showWarningMessage(
            `Could not reach ${label} to check the key (${error.message}). Store it anyway?`,
            { modal: true },
            'Store Anyway',
          );
          return choice === 'Store Anyway';
        } finally {
          dispose();
        }
      },
    );
    if (!stored) return;
    await this.c.secrets.store('apiKey', region, key);
    this.c.log('connection').info(`API key stored for ${label}`);
    if (region === this.c.settings.region) await this.c.connection.refresh();
  }

  /** The entity-recognition service has its own key per region; checked with one small inference first. */
  private async setNluKey(): Promise<void> {
    const region = this.c.settings.region;
    const label = REGION_INFO[region].label;
    const key = (
      await this.c.ui.showInputBox({
        title: `Knowledge Desk: entity-recognition key for ${label}`,
        prompt: 'Found in the entity-recognition dashboard under Settings, General',
        password: true,
        validateInput: (v) => (!v.trim() ? 'Enter the key' : /\s/.test(v.trim()) ? 'A key has no spaces' : undefined),
      })
    )?.trim();
    if (!key) return;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Checking the entity-recognition key with ${label}…`, cancellable: true },
      async (_p, token) => {
        const { signal, dispose } = toAbortSignal(token);
        try {
          const ep = await this.c.connection.endpoints(region);
          this.c.logger.redact(key);
          await this.c.connection.createClient(ep, '', key).nlu.infer('Knowledge Desk key check', { signal, maxRetries: 0 });
        } finally {
          dispose();
        }
      },
    );
    await this.c.secrets.store('nluApiKey', region, key);
    this.c.log('connection').info(`entity-recognition key stored for ${label}`);
  }

  private async clearNluKey(): Promise<void> {
    const region = this.c.settings.region;
    const choice = await this.c.ui.showWarningMessage(
      `Remove the entity-recognition key for ${REGION_INFO[region].label} from this machine?`,
      { modal: true },
      'Remove Key',
    );
    if (choice === 'Remove Key') await this.c.secrets.delete('nluApiKey', region);
  }

  private async clearApiKey(): Promise<void> {
    const region = this.c.settings.region;
    const label = REGION_INFO[region].label;
    const choice = await this.c.ui.showWarningMessage(`Remove the API key for ${label} from this machine?`, { modal: true }, 'Remove Key');
    if (choice !== 'Remove Key') return;
    await this.c.connection.clearKey(region);
    this.c.log('connection').info(`API key removed for ${label}`);
    await this.c.connection.refresh();
  }

  /** The welcome view's button: Local uses its own key; other regions ask for one. */
  private async connect(): Promise<void> {
    if (this.c.settings.region === 'local') {
      await this.c.connection.useLocalKey();
      await this.c.connection.refresh();
    } else {
      await this.setApiKey();
    }
  }
}
