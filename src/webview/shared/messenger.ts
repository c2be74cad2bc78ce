// The page's end of a webview conversation: a typed wrapper over acquireVsCodeApi().
import type { z } from 'zod';
import type { IDisposable } from '../../platform/lifecycle';
import type { NotificationPayload, NotificationType, Protocol } from '../../platform/webview/protocol';
import { markOf, PANEL_MARK } from '../../platform/webview/pageMark';
import { pageStateSchema, type PageProtocol } from '../../platform/webview/protocol';
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

/** The page's endpoint: notify/request/handle of RpcEndpoint, plus starting and state. */
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
   * The saved state if it matches `schema` (it survives hiding the panel and restarting VS Code): the page's own,
   * or the copy the host gave with the page when that is newer (a restored panel whose own state the workbench
   * saved too early, or a panel opened anew in place of one that never loaded).
   */
  getState<S extends z.ZodTypeAny>(schema: S): z.output<S> | undefined {
    const parsed = schema.safeParse(this.newestState());
    return parsed.success ? parsed.data : undefined;
  }

  /**
   * Saves the state for VS Code to restore, marked with this page's id and the time, and sends it to the host
   * at once (with what else changed in the same task): the host keeps it even when the window reloads before the
   * workbench saves the page's own state (platform/webview/pageStates.ts).
   */
  setState<S extends z.ZodTypeAny>(schema: S, state: z.input<S>): void {
    // Validated on the way in too: the host's serializer reads exactly this after a restart.
    const parsed: unknown = schema.parse(state);
    const mark = { id: this.pageId(), at: Math.max(Date.now(), (this.savedAt ?? 0) + 1) };
    this.savedAt = mark.at;
    const saved = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? { ...parsed, [PANEL_MARK]: mark } : parsed;
    this.vscode.setState(saved);
    const queued = this.unsent !== undefined;
    this.unsent = { ...mark, state: saved };
    if (!queued) queueMicrotask(() => this.sendState());
  }

  private savedAt: number | undefined;
  private unsent: { id: string; at: number; state: unknown } | undefined;
  private id: string | undefined;

  private sendState(): void {
    const state = this.unsent;
    this.unsent = undefined;
    // Every page protocol has the shared notifications (withPageNotifications); the cast only names this one.
    if (state) (this as unknown as RpcEndpoint<never, PageProtocol['toHost']>).notify('pageState', state);
  }

  private pageId(): string {
    return (this.id ??= markOf(this.newestState())?.id ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`);
  }

  /** The page's own state, or the host's copy (data-kd-state) when that is newer. */
  private newestState(): unknown {
    const own = this.vscode.getState();
    const given = (this.target as Partial<Window>).document?.body?.dataset.kdState;
    if (!given) return own;
    let copy: unknown;
    try {
      copy = JSON.parse(given);
    } catch {
      return own;
    }
    const kept = pageStateSchema.safeParse(copy);
    return kept.success && kept.data.at > (markOf(own)?.at ?? 0) ? kept.data.state : own;
  }
}
