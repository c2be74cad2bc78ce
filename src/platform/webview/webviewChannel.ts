import * as vscode from 'vscode';
import { Disposable, MutableDisposable, type IDisposable } from '../lifecycle';
import type { Log } from '../logger';
import type {
  Envelope,
  NotificationInput,
  NotificationPayload,
  NotificationType,
  Protocol,
  RequestParams,
  RequestParamsInput,
  RequestResult,
  RequestResultInput,
  RequestType,
  WireError,
} from './protocol';
import { RpcEndpoint } from './rpc';

export interface ChannelOptions {
  /** How a handler's error reaches the page (default: its message). */
  describeError?(error: unknown): WireError;
  /** Default timeout of requests to the page. */
  timeoutMs?: number;
}

const MAX_QUEUED = 500;

/**
 * The host's end of a webview conversation: every incoming message is validated with the feature's
 * protocol (invalid ones are logged and dropped), and outgoing messages wait until the page says
 * `ready` — again after each reload of a hidden page (PRGH's src/common/webview.ts does the same).
 */
export class WebviewChannel<P extends Protocol> extends Disposable {
  private readonly rpc: RpcEndpoint<P['toHost'], P['toPage']>;
  private readonly readyEmitter = this._register(new vscode.EventEmitter<void>());
  private queue: Envelope[] = [];
  private ready = false;
  private readyCount = 0;
  private pauseCount = 0;
  /** The last few messages each way, for diagnostics (a wait that times out says what the channel saw). */
  private readonly recent: string[] = [];
  /** Problems of dropped messages (diagnostics and tests). */
  readonly dropped: string[] = [];
  /** Fires each time the page (re)loads and says it is ready; queued messages are sent just before. */
  readonly onDidBecomeReady = this.readyEmitter.event;

  private webview: vscode.Webview;
  private readonly subscription = this._register(new MutableDisposable());

  constructor(
    webview: vscode.Webview,
    protocol: P,
    private readonly log: Log,
    options: ChannelOptions = {},
  ) {
    super();
    this.rpc = new RpcEndpoint<P['toHost'], P['toPage']>({
      incoming: protocol.toHost,
      outgoing: protocol.toPage,
      post: (m) => this.send(m),
      onInvalid: (problem) => {
        this.dropped.push(problem);
        if (this.dropped.length > 50) this.dropped.shift();
        log.warn(`${protocol.name}: dropped a message from the page: ${problem}`);
      },
      describeError: options.describeError,
      defaultTimeoutMs: options.timeoutMs ?? 30_000,
    });
    this.rpc.setReadyListener(() => this.onReady());
    this._register(this.rpc);
    this.webview = webview;
    this.attach(webview);
  }

  /**
   * Talks to `webview` from now on (a panel replaced by a new one): messages of the old page are no
   * longer heard, requests it never answered fail, and outgoing messages wait for the new page's `ready`.
   */
  attach(webview: vscode.Webview): void {
    const replacing = this.subscription.value !== undefined;
    this.webview = webview;
    this.subscription.value = webview.onDidReceiveMessage((raw: unknown) => {
      this.remember('in', raw as Envelope);
      this.rpc.receive(raw);
    });
    if (replacing) {
      this.ready = false;
      this.remember('attach');
      this.rpc.rejectPending('the page was loaded again');
    }
  }

  /** What the channel knows of the page: for logs and for timeouts that must say what they saw. */
  describe(): string {
    return `ready=${this.ready}, readies=${this.readyCount}, pauses=${this.pauseCount}, queued=${this.queue.length}, recent=[${this.recent.join(', ')}]`;
  }

  get isReady(): boolean {
    return this.ready;
  }

  notify<K extends NotificationType<P['toPage']>>(type: K, payload: NotificationInput<P['toPage'], K>): void {
    this.rpc.notify(type, payload);
  }

  request<K extends RequestType<P['toPage']>>(
    type: K,
    params: RequestParamsInput<P['toPage'], K>,
    options?: { timeoutMs?: number },
  ): Promise<RequestResult<P['toPage'], K>> {
    return this.rpc.request(type, params, options);
  }

  onNotification<K extends NotificationType<P['toHost']>>(
    type: K,
    listener: (payload: NotificationPayload<P['toHost'], K>) => void,
  ): IDisposable {
    return this._register(this.rpc.onNotification(type, listener));
  }

  handle<K extends RequestType<P['toHost']>>(
    type: K,
    handler: (params: RequestParams<P['toHost'], K>) => Promise<RequestResultInput<P['toHost'], K>> | RequestResultInput<P['toHost'], K>,
  ): IDisposable {
    return this._register(this.rpc.handle(type, handler));
  }

  /** The page went away (hidden without retained context, or reloading): hold messages until the next `ready`. */
  pause(): void {
    this.ready = false;
    this.pauseCount++;
    this.remember('pause');
  }

  private onReady(): void {
    this.ready = true;
    this.readyCount++;
    const queued = this.queue;
    this.queue = [];
    for (const m of queued) this.post(m);
    this.readyEmitter.fire();
  }

  private send(message: Envelope): void {
    if (this.isDisposed) return;
    if (!this.ready) {
      this.queue.push(message);
      // A page hidden for long: keep the newest messages (each `ready` brings a full refresh anyway).
      if (this.queue.length > MAX_QUEUED) this.queue.splice(0, this.queue.length - MAX_QUEUED);
      return;
    }
    this.post(message);
  }

  private remember(direction: 'in' | 'out' | 'pause' | 'attach', message?: Envelope): void {
    const m = message as { kind?: unknown; type?: unknown } | undefined;
    const what = m ? `${direction}:${String(m.kind)}${typeof m.type === 'string' ? `:${m.type}` : ''}` : direction;
    this.recent.push(`${what}@${Math.round(performance.now())}`);
    if (this.recent.length > 12) this.recent.shift();
  }

  private post(message: Envelope): void {
    this.remember('out', message);
    this.webview.postMessage(message).then(
      (delivered) => delivered || this.log.debug(`message ${message.kind} not delivered (page not live)`),
      (error: unknown) => this.log.warn(`postMessage failed: ${String(error)}`),
    );
  }
}
