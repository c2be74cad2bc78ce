import * as vscode from 'vscode';
import type * as ClientModule from '../../api/client';
import type { ApiClient } from '../../api/client';
import { ApiConnectionError, AuthenticationError, LocalServiceStoppedError, PermissionDeniedError } from '../../api/errors';
import { createDispatcher } from '../../api/proxy';
import { REGION_INFO, remoteEndpoints, type Endpoints, type Region } from '../../core/regions';
import { Disposable, toDisposable } from '../lifecycle';
import type { Log, Logger } from '../logger';
import type { Secrets } from '../secrets';
import type { Settings } from '../settings';
import type { LocalServiceHost } from './localServiceHost';
import { toUserFacing } from '../errorMessages';
import { regionLabel } from '../regionLabels';
import { NotConnectedError } from './notConnectedError';
import type { ConnectionStatus } from './connectionStatus';
import { localServiceStatus } from './localServiceStatus';

const AUTO_KEY_DECLINED = 'knowledgeDesk.local.autoKeyDeclined';
/** Settings the client is built from: a change of any other setting (e.g. upload.concurrency) keeps the client and the views' pages. */
const CLIENT_INPUTS = ['region', 'custom', 'identity', 'requestTimeoutSeconds', 'maxRetries'].map((k) => `knowledgeDesk.${k}`);
const PROXY_INPUTS = ['http.proxy', 'http.proxyStrictSSL', 'http.noProxy'];
const RECHECK_MS = [15_000, 30_000, 60_000, 120_000, 300_000];

/**
 * Owns the region, the key and the API client built from them; checks the connection with one
 * cheap authenticated call and tells the rest of the extension when the client changes.
 */
export class ConnectionManager extends Disposable {
  private readonly statusEmitter = this._register(new vscode.EventEmitter<ConnectionStatus>());
  readonly onDidChangeStatus = this.statusEmitter.event;
  private readonly clientEmitter = this._register(new vscode.EventEmitter<void>());
  /**
   * What views show may have changed: the client was rebuilt from new inputs (region, URLs, keys,
   * identity, timeouts, retries, proxy) or the connection became ready or stopped being ready.
   * Fires once per such change, never for unrelated settings.
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
  /** The local service key being stored (adoptLocalKey). */
  private adopting: Promise<void> | undefined;
  private generation = 0;
  private recheckTimer: NodeJS.Timeout | undefined;
  private recheckAttempt = 0;
  private readonly log: Log;

  constructor(
    private readonly settings: Settings,
    private readonly secrets: Secrets,
    private readonly local: LocalServiceHost,
    private readonly logger: Logger,
    private readonly globalState: vscode.Memento,
  ) {
    super();
    this.log = logger.scoped('connection');
    this._status = { state: 'idle', region: settings.region };
    this._register(
      settings.onDidChange((e) => {
        const proxy = PROXY_INPUTS.some((k) => e.affectsConfiguration(k));
        if (!proxy && !CLIENT_INPUTS.some((k) => e.affectsConfiguration(k))) return;
        if (!this.used) return this.setStatus({ state: 'idle', region: this.settings.region });
        void this.refresh();
      }),
    );
    this._register(secrets.onDidChange(({ region }) => this.used && region === this.settings.region && void this.refresh()));
    this._register(
      local.onDidChange((event) => {
        if (!this.used || this.settings.region !== 'local') return;
        // Back (maybe on another port): check again, which rebuilds the client and reloads the views.
        if (event.kind === 'started') return void (event.restarted && this.refresh());
        // Down: the status bar and the views say so now, not at the next failing request.
        this.generation++;
        clearTimeout(this.recheckTimer);
        this.setStatus(localServiceStatus(event, this._status.baseUrl));
        this.announce();
      }),
    );
    this._register(
      toDisposable(() => {
        clearTimeout(this.recheckTimer);
        void this.dispatcher?.choice.dispatcher.close();
      }),
    );
  }

  /** True once Knowledge Desk was used in this window (the local service may be running). */
  get isUsed(): boolean {
    return this.used;
  }

  /**
   * Knowledge Desk is being used in this window (a view became visible, a command ran, a panel was
   * restored, a request needs the service): the first call checks the connection, which starts the
   * local service for the Local region. Later calls do nothing.
   */
  use(): void {
    if (this.used) return;
    this.used = true;
    void this.refresh();
  }

  get status(): ConnectionStatus {
    return this._status;
  }

  get region(): Region {
    return this.settings.region;
  }

  /** Base URL and NLU URL of a region; starts the local service for Local. */
  async endpoints(region: Region): Promise<Endpoints & { localKeys?: { apiKey: string; nluApiKey: string } }> {
    if (region === 'local') {
      const ep = await this.local.ensureStarted();
      return { baseUrl: ep.url, nluUrl: ep.url, localKeys: { apiKey: ep.apiKey, nluApiKey: ep.nluApiKey } };
    }
    const resolved = remoteEndpoints(region, this.settings.custom);
    if ('error' in resolved)
      throw new NotConnectedError(
        vscode.l10n.t(
          'The Custom region is not configured: {0}. Run "{1}".',
          resolved.error,
          vscode.l10n.t('Knowledge Desk: Select Region'),
        ),
        'misconfigured',
      );
    return resolved;
  }

  /** A client for the current region; throws NotConnectedError (with the next step) when there is no key. */
  async getClient(): Promise<ApiClient> {
    this.use();
    const region = this.settings.region;
    const ep = await this.endpoints(region);
    // The first use may be a request (the first @knowledge question), running beside the first check.
    await this.adoptLocalKey(region, ep);
    const key = await this.secrets.get('apiKey', region);
    if (!key)
      throw new NotConnectedError(
        vscode.l10n.t('No API key is set for {0}. Run "{1}".', regionLabel(region), vscode.l10n.t('Knowledge Desk: Set API Key')),
        'noKey',
        vscode.l10n.t('No API key is set for {0}.', regionLabel(region)),
      );
    const nluKey = await this.secrets.get('nluApiKey', region);
    const id = this.inputsKey(region, ep, key, nluKey);
    if (this.client?.key !== id) {
      this.logger.redact(key);
      this.logger.redact(nluKey);
      this.client = { key: id, value: this.createClient(ep, key, nluKey) };
    }
    return this.client.value;
  }

  createClient(ep: Endpoints, apiKey: string, nluApiKey?: string): ApiClient {
    const http = this.logger.scoped('http');
    // The client and its zod schemas load with the first request, not at activation.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at activation
    const { ApiClient } = require('../../api/client') as typeof ClientModule;
    return new ApiClient({
      baseUrl: ep.baseUrl,
      nluUrl: ep.nluUrl,
      apiKey,
      nluApiKey,
      identity: this.settings.identity,
      timeoutMs: this.settings.timeoutMs,
      retry: { maxRetries: this.settings.maxRetries },
      // Requests to the local service say so when its process stops under them.
      dispatcher: 'localKeys' in ep ? this.local.guard(this.currentDispatcher()) : this.currentDispatcher(),
      logger: { debug: (m) => http.debug(m), info: (m) => http.info(m), warn: (m) => http.warn(m) },
    });
  }

  /** Everything the client is built from, as one comparable string (keys included: it never leaves memory). */
  private inputsKey(region: Region, ep: Endpoints, key: string | undefined, nluKey: string | undefined): string {
    this.currentDispatcher();
    const s = this.settings;
    return JSON.stringify([region, ep.baseUrl, ep.nluUrl, key, nluKey, s.identity, s.timeoutMs, s.maxRetries, this.dispatcherVersion]);
  }

  /**
   * Checks a key with the cheapest authenticated call the deployment has (the key's project, else the Q&A
   * embedding status; docs/api.md#key-check); throws the API error.
   */
  async verifyKey(region: Region, key: string, signal?: AbortSignal): Promise<void> {
    const ep = await this.endpoints(region);
    this.logger.redact(key);
    await this.createClient(ep, key).projects.checkKey({ signal, maxRetries: 0 });
  }

  /** Stores the embedded service's own key for the Local region. */
  async useLocalKey(): Promise<void> {
    const ep = await this.local.ensureStarted();
    await this.globalState.update(AUTO_KEY_DECLINED, false);
    await this.secrets.store('apiKey', 'local', ep.apiKey);
    await this.secrets.store('nluApiKey', 'local', ep.nluApiKey);
  }

  /**
   * A fresh machine works at once: the embedded service's key is stored the first time the Local region is
   * used, by the first check or the first request, whichever comes first (one store for both), unless the
   * person cleared it (Clear API Key).
   */
  private async adoptLocalKey(region: Region, ep: { localKeys?: unknown }): Promise<void> {
    if (region !== 'local' || !ep.localKeys || this.globalState.get<boolean>(AUTO_KEY_DECLINED)) return;
    if (await this.secrets.get('apiKey', 'local')) return;
    this.adopting ??= this.useLocalKey()
      .then(() => this.log.info('stored the local service key for the Local region'))
      .finally(() => (this.adopting = undefined));
    await this.adopting;
  }

  async clearKey(region: Region): Promise<void> {
    if (region === 'local') await this.globalState.update(AUTO_KEY_DECLINED, true);
    await this.secrets.delete('apiKey', region);
  }

  /** Re-resolves the connection and checks it. Safe to call often; the latest call wins. */
  async refresh(): Promise<ConnectionStatus> {
    this.used = true;
    const ticket = ++this.generation;
    clearTimeout(this.recheckTimer);
    const region = this.settings.region;
    this.setStatus({ state: 'checking', region });
    const status = await this.check(region);
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

  private async check(region: Region): Promise<ConnectionStatus> {
    let baseUrl: string | undefined;
    try {
      const ep = await this.endpoints(region);
      baseUrl = ep.baseUrl;
      await this.adoptLocalKey(region, ep);
      const key = await this.secrets.get('apiKey', region);
      if (!key) return { state: 'noKey', region, baseUrl, detail: vscode.l10n.t('No API key is set for this region.') };
      const client = await this.getClient();
      await client.projects.checkKey({ maxRetries: 0, timeoutMs: 15_000 });
      this.log.info(`connected to ${REGION_INFO[region].label} (${baseUrl})`);
      return { state: 'connected', region, baseUrl };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      const problem = toUserFacing(error).message;
      this.log.warn(`connection check for ${REGION_INFO[region].label} failed: ${detail}`);
      if (error instanceof AuthenticationError || error instanceof PermissionDeniedError)
        return { state: 'unauthorized', region, baseUrl, detail, problem };
      if (error instanceof LocalServiceStoppedError && error.restarting) return { state: 'restarting', region, baseUrl, detail, problem };
      if (error instanceof ApiConnectionError) {
        if (region === 'local') this.local.reset();
        return { state: 'unreachable', region, baseUrl, detail, problem };
      }
      if (error instanceof NotConnectedError) return { state: 'misconfigured', region, baseUrl, detail, problem };
      return { state: 'error', region, baseUrl, detail, problem };
    }
  }

  private setStatus(status: ConnectionStatus): void {
    this._status = status;
    this.statusEmitter.fire(status);
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
