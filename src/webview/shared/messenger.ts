// The page's end of a webview conversation: a typed wrapper over acquireVsCodeApi().
import type { z } from 'zod';
import type { IDisposable } from '../../platform/lifecycle';
import type {
  NotificationPayload,
  NotificationType,
  Protocol,
  RequestParams,
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

/** The page's endpoint: notify/request/handle of RpcEndpoint, plus starting, state and the tests' handlers. */
export class Messenger<P extends Protocol> extends RpcEndpoint<P['toPage'], P['toHost']> {
  private started = false;
  /** Problems of messages dropped by validation (shown in the webview's console too). */
  readonly dropped: string[];

  constructor(
    protocol: P,
    private readonly vscode: VsCodeApi = vscodeApi(),
    private readonly target: Pick<Window, 'addEventListener'> = window,
  ) {
    const dropped: string[] = [];
    super({
      incoming: protocol.toPage,
      outgoing: protocol.toHost,
      post: (m) => vscode.postMessage(m),
      onInvalid: (problem) => {
        dropped.push(problem);
        console.warn(`[${protocol.name}] dropped a message from the extension: ${problem}`);
      },
      describeError: (error) => ({ message: error instanceof Error ? error.message : String(error) }),
      // Host requests call the service (with retries): give them time.
      defaultTimeoutMs: 180_000,
    });
    this.dropped = dropped;
  }

  /** Listens for messages, then tells the host the page is ready (once; the host holds messages until then). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.target.addEventListener('message', (e: Event) => void this.receive((e as MessageEvent).data));
    this.vscode.postMessage({ kind: 'ready' });
  }

  on<K extends NotificationType<P['toPage']>>(type: K, listener: (payload: NotificationPayload<P['toPage'], K>) => void): IDisposable {
    return this.onNotification(type, listener);
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
    return body?.dataset.kdProbe === '1' ? this.handle(type, handler) : undefined;
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
