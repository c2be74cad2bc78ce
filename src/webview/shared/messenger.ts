// The page's end of a webview conversation: a typed wrapper over acquireVsCodeApi().
import type { z } from 'zod';
import type { IDisposable } from '../../platform/lifecycle';
import type {
  NotificationInput,
  NotificationPayload,
  NotificationType,
  Protocol,
  RequestParams,
  RequestParamsInput,
  RequestResult,
  RequestResultInput,
  RequestType,
} from '../../platform/webview/protocol';
import { RpcEndpoint } from '../../platform/webview/rpc';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

let api: VsCodeApi | undefined;
/** acquireVsCodeApi() may be called only once per page. */
export function vscodeApi(): VsCodeApi {
  return (api ??= acquireVsCodeApi());
}

export class Messenger<P extends Protocol> {
  private readonly rpc: RpcEndpoint<P['toPage'], P['toHost']>;
  private started = false;
  /** Problems of messages dropped by validation (shown in the webview's console too). */
  readonly dropped: string[] = [];

  constructor(
    protocol: P,
    private readonly vscode: VsCodeApi = vscodeApi(),
    private readonly target: Pick<Window, 'addEventListener'> = window,
  ) {
    this.rpc = new RpcEndpoint<P['toPage'], P['toHost']>({
      incoming: protocol.toPage,
      outgoing: protocol.toHost,
      post: (m) => this.vscode.postMessage(m),
      onInvalid: (problem) => {
        this.dropped.push(problem);
        console.warn(`[${protocol.name}] dropped a message from the extension: ${problem}`);
      },
      describeError: (error) => ({ message: error instanceof Error ? error.message : String(error) }),
      // Host requests call the service (with retries): give them time.
      defaultTimeoutMs: 180_000,
    });
  }

  /** Listens for messages, then tells the host the page is ready (once; the host holds messages until then). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.target.addEventListener('message', (e: Event) => void this.rpc.receive((e as MessageEvent).data));
    this.vscode.postMessage({ kind: 'ready' });
  }

  notify<K extends NotificationType<P['toHost']>>(type: K, payload: NotificationInput<P['toHost'], K>): void {
    this.rpc.notify(type, payload);
  }

  request<K extends RequestType<P['toHost']>>(
    type: K,
    params: RequestParamsInput<P['toHost'], K>,
    options?: { timeoutMs?: number },
  ): Promise<RequestResult<P['toHost'], K>> {
    return this.rpc.request(type, params, options);
  }

  on<K extends NotificationType<P['toPage']>>(type: K, listener: (payload: NotificationPayload<P['toPage'], K>) => void): IDisposable {
    return this.rpc.onNotification(type, listener);
  }

  handle<K extends RequestType<P['toPage']>>(
    type: K,
    handler: (params: RequestParams<P['toPage'], K>) => Promise<RequestResultInput<P['toPage'], K>> | RequestResultInput<P['toPage'], K>,
  ): IDisposable {
    return this.rpc.handle(type, handler);
  }

  /**
   * A request only integration tests send (`drive`: working the page's controls as a person would). Registered
   * only when the host has the test probe, which it says with data-kd-probe on <body> (WebviewPanelHost): in
   * Production the page does not answer it.
   */
  handleForTests<K extends RequestType<P['toPage']>>(
    type: K,
    handler: (params: RequestParams<P['toPage'], K>) => Promise<RequestResultInput<P['toPage'], K>> | RequestResultInput<P['toPage'], K>,
  ): IDisposable | undefined {
    const body = (this.target as Partial<Window>).document?.body;
    return body?.dataset.kdProbe === '1' ? this.rpc.handle(type, handler) : undefined;
  }

  /** The saved state if it matches `schema` (it survives hiding the panel and restarting VS Code). */
  getState<S extends z.ZodTypeAny>(schema: S): z.output<S> | undefined {
    const parsed = schema.safeParse(this.vscode.getState());
    return parsed.success ? parsed.data : undefined;
  }

  setState<S extends z.ZodTypeAny>(schema: S, state: z.input<S>): void {
    // Validated on the way in too: the host's serializer reads exactly this after a restart.
    this.vscode.setState(schema.parse(state));
  }
}
