import * as vscode from 'vscode';
import type * as ClientModule from '../../api/client';
import type { ApiClient } from '../../api/client';
import type { Identity } from '../../api/identity';
import { createDispatcher } from '../../api/proxy';
import { regionOf, type Connection } from '../../core/connections';
import { ConnectionStore, type LoadOutcome } from '../../core/connectionStore';
import type { Endpoints, Region } from '../../core/regions';
import { Disposable, toDisposable } from '../lifecycle';
import type { Log, Logger } from '../logger';
import type { Secrets } from '../secrets';
import { SettingKeys, type Settings } from '../settings';
import { LocalKeyAdoption } from './localKeyAdoption';
import type { LocalProjects } from './localProjects';
import { failedStatus } from './checkFailure';
import { NotConnectedError } from './notConnectedError';
import type { ConnectionStatus } from './connectionStatus';
import { localServiceStatus } from './localServiceStatus';
import { endpointsOf, type ResolvedEndpoints } from './connectionEndpoints';

/** Settings the client is built from: a change of any other setting (e.g. upload.concurrency) keeps the client and the views' pages. */
const CLIENT_INPUTS = ['custom', 'identity', 'requestTimeoutSeconds', 'maxRetries'].map((k) => `knowledgeDesk.${k}`);
const PROXY_INPUTS = ['http.proxy', 'http.proxyStrictSSL', 'http.noProxy'];
const RECHECK_MS = [15_000, 30_000, 60_000, 120_000, 300_000];

/**
 * Owns the active connection's client (built from its target, its keys and the settings); checks it with one
 * cheap authenticated call and tells the rest of the extension when the client changes.
 */
export class ConnectionManager extends Disposable {
  private readonly statusEmitter = this._register(new vscode.EventEmitter<ConnectionStatus>());
  readonly onDidChangeStatus = this.statusEmitter.event;
  private readonly clientEmitter = this._register(new vscode.EventEmitter<void>());
  /**
   * What views show may have changed: the client was rebuilt from new inputs (connection, URLs, keys, identity,
   * timeouts, retries, proxy) or the connection became ready or stopped being ready. Once per change.
   */
  readonly onDidChangeClient = this.clientEmitter.event;

  private _status: ConnectionStatus;
  private client: { key: string; value: ApiClient } | undefined;
  /** Built on the first request: undici is loaded then, not at activation. */
  private dispatcher: { choice: ReturnType<typeof createDispatcher>; settings: string } | undefined;
  private dispatcherVersion = 0;
  /** Inputs and readiness the views were last told about (see onDidChangeClient). */
  private announced: { inputs: string; ready: boolean } = { inputs: '', ready: false };
  private used = false;
  /** A local project's own key, stored for its connection on first use; Connect and Clear API Key (localKeyAdoption.ts). */
  readonly localKeys: LocalKeyAdoption;
  private generation = 0;
  private recheckTimer: NodeJS.Timeout | undefined;
  private recheckAttempt = 0;
  private readonly log: Log;
  /** The connections (application scope) and the active one; `loaded`: what reading them found. */
  readonly store: ConnectionStore;
  readonly loaded: LoadOutcome & { saved: Promise<void> };

  constructor(
    private readonly settings: Settings,
    private readonly secrets: Secrets,
    private readonly local: LocalProjects,
    private readonly logger: Logger,
    globalState: vscode.Memento,
  ) {
    super();
    this.log = logger.scoped('connection');
    this.store = new ConnectionStore(globalState, secrets);
    this.localKeys = new LocalKeyAdoption(local, secrets, globalState, this.log, (c) => this.endpoints(c));
    // The region setting picks the active connection on the first start; a workspace may prefer one by name.
    this.loaded = this.store.load(settings.region, settings.get<string>(SettingKeys.connection, ''));
    this._status = this.stamp({ state: 'idle', region: this.region });
    this._register(
      settings.onDidChange((e) => {
        // The deprecated region setting picks its connection (US, JA, Custom, Local) for one more release.
        if (e.affectsConfiguration('knowledgeDesk.region')) void this.store.activateRegion(this.settings.region);
        const proxy = PROXY_INPUTS.some((k) => e.affectsConfiguration(k));
        if (!proxy && !CLIENT_INPUTS.some((k) => e.affectsConfiguration(k))) return;
        if (!this.used) return this.setStatus({ state: 'idle', region: this.region });
        void this.refresh();
      }),
    );
    this._register(secrets.onDidChange(({ owner }) => this.used && owner === this.active.id && void this.refresh()));
    // A switch, or a rename or edit of the active connection: the views and the status bar follow it.
    const stored = this.store.onDidChange(() => (this.used ? void this.refresh() : this.setStatus({ state: 'idle', region: this.region })));
    this._register(toDisposable(() => stored.dispose()));
    this._register(
      local.onDidChange(({ project, event }) => {
        const target = this.active.target;
        // Another project's process (a panel's, or one being deleted) says nothing about the active connection.
        if (!this.used || target.kind !== 'local' || target.project !== project) return;
        // Back (maybe on another port): check again, which rebuilds the client and reloads the views.
        if (event.kind === 'started') return void (event.restarted && this.refresh());
        // Down: the status bar and the views say so now, not at the next failing request.
        this.generation++;
        clearTimeout(this.recheckTimer);
        this.setStatus(localServiceStatus(event, this._status.baseUrl));
        this.announce();
      }),
    );
    this._register(toDisposable(() => (clearTimeout(this.recheckTimer), void this.dispatcher?.choice.dispatcher.close())));
  }

  /** True once Knowledge Desk was used in this window (the local service may be running). */
  get isUsed(): boolean {
    return this.used;
  }

  /**
   * Knowledge Desk is being used in this window (a view became visible, a command ran, a panel was restored, a
   * request needs the service): the first call checks the connection, which starts the local service for Local.
   */
  use(): void {
    if (this.used) return;
    this.used = true;
    void this.refresh();
  }

  get status(): ConnectionStatus {
    return this._status;
  }

  /** The connection this window shows (views, panels, @knowledge, the tools and the MCP definition follow it). */
  get active(): Connection {
    return this.store.active;
  }

  /** Where the active connection goes (the client, the MCP server and the local-only limits differ per region). */
  get region(): Region {
    return regionOf(this.store.active.target);
  }

  /** Base URL and NLU URL of a connection (the active one by default); starts the local service for a local one. */
  endpoints(connection: Connection = this.active): Promise<ResolvedEndpoints> {
    return endpointsOf(connection, this.settings, this.local);
  }

  /** A client for the active connection; throws NotConnectedError (with the next step) when there is no key. */
  async getClient(): Promise<ApiClient> {
    this.use();
    const connection = this.active;
    // The first use may be a request (the first @knowledge question), running beside the first check.
    const ep = await this.localKeys.endpointsInUse(connection);
    const key = await this.secrets.get('apiKey', connection.id);
    if (!key)
      throw new NotConnectedError(
        vscode.l10n.t('No API key is set for {0}. Run "{1}".', connection.name, vscode.l10n.t('Knowledge Desk: Set API Key')),
        'noKey',
        vscode.l10n.t('No API key is set for {0}.', connection.name),
      );
    const nluKey = await this.secrets.get('nluApiKey', connection.id);
    const id = this.inputsKey(connection, ep, key, nluKey);
    if (this.client?.key !== id) {
      this.logger.redact(key);
      this.logger.redact(nluKey);
      this.client = { key: id, value: this.createClient(ep, key, nluKey, connection) };
    }
    return this.client.value;
  }

  /** The identity a connection's requests carry: its own, else the identity settings (chat threads need its own user id). */
  identityOf(connection: Connection = this.active): Identity {
    return { ...this.settings.identity, ...connection.identity };
  }

  createClient(ep: Endpoints, apiKey: string, nluApiKey?: string, connection: Connection = this.active): ApiClient {
    const http = this.logger.scoped('http');
    // The client and its zod schemas load with the first request, not at activation.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at activation
    const { ApiClient } = require('../../api/client') as typeof ClientModule;
    return new ApiClient({
      baseUrl: ep.baseUrl,
      nluUrl: ep.nluUrl,
      apiKey,
      nluApiKey,
      identity: this.identityOf(connection),
      timeoutMs: this.settings.timeoutMs,
      retry: { maxRetries: this.settings.maxRetries },
      // Requests to the local service say so when its process stops under them.
      dispatcher:
        'localKeys' in ep && connection.target.kind === 'local'
          ? this.local.host(connection.target.project).guard(this.currentDispatcher())
          : this.currentDispatcher(),
      logger: { debug: (m) => http.debug(m), info: (m) => http.info(m), warn: (m) => http.warn(m) },
    });
  }

  /** Everything the client is built from, as one comparable string (keys included: it never leaves memory). */
  private inputsKey(connection: Connection, ep: Endpoints, key: string | undefined, nluKey: string | undefined): string {
    this.currentDispatcher();
    const s = this.settings;
    return JSON.stringify([connection, ep.baseUrl, ep.nluUrl, key, nluKey, s.identity, s.timeoutMs, s.maxRetries, this.dispatcherVersion]);
  }

  /**
   * Checks a key with the cheapest authenticated call the deployment has (the key's project, else the Q&A
   * embedding status; docs/api.md#key-check); throws the API error.
   */
  async verifyKey(connection: Connection, key: string, signal?: AbortSignal): Promise<void> {
    const ep = await this.endpoints(connection);
    this.logger.redact(key);
    await this.createClient(ep, key, undefined, connection).projects.checkKey({ signal, maxRetries: 0 });
  }

  /** Re-resolves the connection and checks it. Safe to call often; the latest call wins. */
  async refresh(): Promise<ConnectionStatus> {
    this.used = true;
    const ticket = ++this.generation;
    clearTimeout(this.recheckTimer);
    const connection = this.active;
    this.setStatus({ state: 'checking', region: regionOf(connection.target) });
    const status = await this.check(connection);
    if (ticket !== this.generation) return this._status;
    this.setStatus(status);
    if (status.state === 'connected') this.recheckAttempt = 0;
    if (status.state === 'unreachable') this.scheduleRecheck();
    this.announce();
    return status;
  }

  /** Tells the views when the client or its readiness changed since they were last told. */
  private announce(): void {
    const now = { inputs: this.client?.key ?? '', ready: this._status.state === 'connected' };
    if (now.inputs !== this.announced.inputs || now.ready !== this.announced.ready) {
      this.announced = now;
      this.clientEmitter.fire();
    }
  }

  private async check(connection: Connection): Promise<ConnectionStatus> {
    let baseUrl: string | undefined;
    const region = regionOf(connection.target);
    const label = connection.name;
    try {
      const ep = await this.endpoints(connection);
      baseUrl = ep.baseUrl;
      await this.localKeys.adopt(connection, ep);
      const key = await this.secrets.get('apiKey', connection.id);
      if (!key) return { state: 'noKey', region, baseUrl, detail: vscode.l10n.t('No API key is set for this connection.') };
      const client = await this.getClient();
      await client.projects.checkKey({ maxRetries: 0, timeoutMs: 15_000 });
      this.log.info(`connected to ${label} (${baseUrl})`);
      return { state: 'connected', region, baseUrl };
    } catch (error) {
      const failed = failedStatus(error, region, baseUrl);
      this.log.warn(`connection check for ${label} failed: ${failed.detail}`);
      if (failed.state === 'unreachable' && connection.target.kind === 'local') this.local.host(connection.target.project).reset();
      return failed;
    }
  }

  /** The status names the connection it is about (the status bar, the views' error rows). */
  private stamp(status: ConnectionStatus): ConnectionStatus {
    return { ...status, connection: { id: this.store.active.id, name: this.store.active.name } };
  }

  private setStatus(status: ConnectionStatus): void {
    this._status = this.stamp(status);
    this.statusEmitter.fire(this._status);
  }

  private scheduleRecheck(): void {
    const delay = RECHECK_MS[Math.min(this.recheckAttempt++, RECHECK_MS.length - 1)];
    this.recheckTimer = setTimeout(() => void this.refresh(), delay);
  }

  /** The keep-alive dispatcher for the current proxy settings; rebuilt only when they changed. */
  private currentDispatcher(): ReturnType<typeof createDispatcher>['dispatcher'] {
    const proxy = this.settings.proxy;
    const settings = JSON.stringify(proxy);
    if (this.dispatcher?.settings !== settings) {
      const old = this.dispatcher;
      this.dispatcher = { choice: createDispatcher(proxy), settings };
      this.dispatcherVersion++;
      this.log.info(`network: ${this.dispatcher.choice.description}`);
      void old?.choice.dispatcher.close();
    }
    return this.dispatcher.choice.dispatcher;
  }
}
