// One side of a webview conversation: notifications, requests with ids and timeouts, responses.
// Used by the host's WebviewChannel and by the page's Messenger, so it imports neither vscode nor DOM.
import type { IDisposable } from '../lifecycle';
import {
  parseIncoming,
  describeZodError,
  type Direction,
  type Envelope,
  type NotificationInput,
  type NotificationPayload,
  type NotificationType,
  type RequestParams,
  type RequestParamsInput,
  type RequestResult,
  type RequestResultInput,
  type RequestType,
  type WireError,
} from './protocol';

export interface RpcOptions {
  /** What this side may receive (validated). */
  incoming: Direction;
  /** What this side sends (payloads are parsed by their schema before sending: unknown keys dropped). */
  outgoing: Direction;
  post(message: Envelope): void;
  /** An incoming message failed validation; it is dropped (a request also gets an error response). */
  onInvalid?(problem: string, raw: unknown): void;
  /** How an error thrown by a request handler is told to the other side. */
  describeError?(error: unknown): WireError;
  defaultTimeoutMs?: number;
}

/** A request the other side did not answer, answered with an error, or answered with a bad result. */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    message: string,
    readonly code?: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

interface Pending {
  type: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

type Handler = (params: unknown) => unknown;

export class RpcEndpoint<In extends Direction, Out extends Direction> implements IDisposable {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly handlers = new Map<string, Handler>();
  private readyListener: (() => void) | undefined;
  private disposed = false;

  constructor(private readonly options: RpcOptions) {}

  /** Sends a notification (no answer). Throws if the payload does not match its own schema: a bug here. */
  notify<K extends NotificationType<Out>>(type: K, payload: NotificationInput<Out, K>): void {
    const schema = this.options.outgoing.notifications[type];
    const parsed = schema.safeParse(payload);
    if (!parsed.success) throw new RpcError(`outgoing "${type}" does not match the protocol: ${describeZodError(parsed.error)}`);
    this.options.post({ kind: 'notify', type, payload: parsed.data });
  }

  /** Sends a request and resolves with the validated result; rejects on error, bad result or timeout. */
  request<K extends RequestType<Out>>(
    type: K,
    params: RequestParamsInput<Out, K>,
    options: { timeoutMs?: number } = {},
  ): Promise<RequestResult<Out, K>> {
    if (this.disposed) return Promise.reject(new RpcError(`"${type}" sent after the channel was closed`, 'disposed'));
    const def = this.options.outgoing.requests[type];
    const parsed = def.params.safeParse(params);
    if (!parsed.success)
      return Promise.reject(new RpcError(`outgoing "${type}" does not match the protocol: ${describeZodError(parsed.error)}`));
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs ?? 30_000;
    return new Promise<RequestResult<Out, K>>((resolve, reject) => {
      const timer =
        timeoutMs > 0 && Number.isFinite(timeoutMs)
          ? setTimeout(() => this.settle(id, new RpcError(`"${type}" got no answer in ${timeoutMs} ms`, 'timeout')), timeoutMs)
          : undefined;
      // A request waiting for an answer keeps nothing alive by itself (Node: unref; a browser's timer has no unref):
      // an extension host shutting down, or a test run ending with a page's request unanswered, does not wait for it.
      (timer as { unref?: () => void } | undefined)?.unref?.();
      this.pending.set(id, {
        type,
        timer,
        resolve: (value) => {
          const result = def.result.safeParse(value);
          if (result.success) resolve(result.data);
          else
            reject(
              new RpcError(`the answer to "${type}" does not match the protocol: ${describeZodError(result.error)}`, 'invalid-result'),
            );
        },
        reject,
      });
      try {
        this.options.post({ kind: 'request', id, type, params: parsed.data });
      } catch (error) {
        this.settle(id, error instanceof Error ? error : new RpcError(String(error)));
      }
    });
  }

  onNotification<K extends NotificationType<In>>(type: K, listener: (payload: NotificationPayload<In, K>) => void): IDisposable {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    const fn = listener as (payload: unknown) => void;
    set.add(fn);
    return { dispose: () => void set.delete(fn) };
  }

  /** Answers requests of one type; the handler's result is validated before it is sent. */
  handle<K extends RequestType<In>>(
    type: K,
    handler: (params: RequestParams<In, K>) => Promise<RequestResultInput<In, K>> | RequestResultInput<In, K>,
  ): IDisposable {
    if (this.handlers.has(type)) throw new RpcError(`"${type}" already has a handler`);
    this.handlers.set(type, handler as Handler);
    return { dispose: () => void (this.handlers.get(type) === handler && this.handlers.delete(type)) };
  }

  /** Called with every `ready` the other side sends (a page sends one each time it loads). */
  setReadyListener(listener: () => void): void {
    this.readyListener = listener;
  }

  /** Validates and dispatches one raw message; returns false if it was dropped. */
  receive(raw: unknown): boolean {
    if (this.disposed) return false;
    const parsed = parseIncoming(raw, this.options.incoming);
    if (!parsed.ok) {
      this.options.onInvalid?.(parsed.problem, raw);
      if (parsed.requestId !== undefined)
        this.respondError(parsed.requestId, { message: `Invalid message: ${parsed.problem}`, code: 'invalid-message' });
      return false;
    }
    const m = parsed.message;
    switch (m.kind) {
      case 'ready':
        this.readyListener?.();
        return true;
      case 'notify':
        for (const listener of [...(this.listeners.get(m.type) ?? [])]) {
          try {
            listener(m.payload);
          } catch (error) {
            this.options.onInvalid?.(`listener of "${m.type}" threw: ${String(error)}`, raw);
          }
        }
        return true;
      case 'request':
        void this.answer(m.id, m.type, m.params);
        return true;
      case 'response': {
        if (!this.pending.has(m.id)) return true; // answered too late, or meant for an earlier page
        if (m.ok) this.settle(m.id, undefined, m.result);
        else this.settle(m.id, new RpcError(m.error?.message ?? 'request failed', m.error?.code, m.error?.data));
        return true;
      }
    }
  }

  /** Fails every request still waiting (the other side went away). */
  rejectPending(reason: string): void {
    for (const id of [...this.pending.keys()]) this.settle(id, new RpcError(reason, 'gone'));
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  dispose(): void {
    if (this.disposed) return;
    this.rejectPending('the webview was closed');
    this.disposed = true;
    this.listeners.clear();
    this.handlers.clear();
  }

  private async answer(id: number, type: string, params: unknown): Promise<void> {
    const handler = this.handlers.get(type);
    if (!handler) {
      this.respondError(id, { message: `No handler for "${type}"`, code: 'no-handler' });
      return;
    }
    let value: unknown;
    try {
      value = await handler(params);
    } catch (error) {
      this.respondError(id, this.options.describeError?.(error) ?? { message: error instanceof Error ? error.message : String(error) });
      return;
    }
    const result = this.options.incoming.requests[type].result.safeParse(value);
    if (!result.success) {
      this.options.onInvalid?.(`result of "${type}" does not match the protocol: ${describeZodError(result.error)}`, value);
      this.respondError(id, { message: `Internal error answering "${type}"`, code: 'invalid-result' });
      return;
    }
    this.post({ kind: 'response', id, ok: true, result: result.data });
  }

  private respondError(id: number, error: WireError): void {
    this.post({ kind: 'response', id, ok: false, error });
  }

  private post(message: Envelope): void {
    if (this.disposed) return;
    this.options.post(message);
  }

  private settle(id: number, error: Error | undefined, value?: unknown): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (p.timer !== undefined) clearTimeout(p.timer);
    if (error) p.reject(error);
    else p.resolve(value);
  }
}
