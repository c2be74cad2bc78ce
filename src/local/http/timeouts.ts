// Timeouts of the local service's HTTP server (docs/local-service.md#timeouts-and-slow-readers). There is no
// limit on a request's total time: an upload of hundreds of MB, a long synchronous import or a slow answer
// stream are all legitimate. What is limited is a connection that makes no progress.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { LocalLogger } from '../logger';

export interface HttpTimeouts {
  /** The request line and headers must arrive within this time (Node checks it every few seconds). */
  headersMs: number;
  /** A kept-alive connection waiting for its next request is closed after this time. */
  keepAliveMs: number;
  /**
   * Idle and write timeout: a connection whose request body stops arriving, whose answer stops being read (data
   * queued for the socket and none of it taken), or that sends nothing at all is closed after this much time
   * without progress. A request whose body has arrived and whose handler is still working, or an answer stream
   * pausing between lines, is not idle.
   */
  idleMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 60_000, keepAliveMs: 5_000, idleMs: 60_000 };

/** Requests being answered, by connection. */
export type ActiveRequests = WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>;

/** Options for createServer: Node checks headersTimeout on this period (30 s by default, too long for a short limit). */
export function timeoutServerOptions(timeouts: HttpTimeouts): { connectionsCheckingInterval: number } {
  return { connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(timeouts.headersMs / 2))) };
}

/** Applies `timeouts` to `server`; `active` is kept by the request listener (trackRequest). */
export function applyTimeouts(server: Server, timeouts: HttpTimeouts, active: ActiveRequests, logger: LocalLogger): void {
  // Uploads of hundreds of MB on a slow disk must not be cut by a limit on the whole request: progress is what counts.
  server.requestTimeout = 0;
  server.headersTimeout = timeouts.headersMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  server.timeout = timeouts.idleMs;
  // Node's socket timer fires only after `idleMs` without reads, and without writes that complete.
  server.on('timeout', (socket: Socket) => {
    const entry = active.get(socket);
    const what = !entry
      ? 'no request'
      : socket.writableLength > 0
        ? `the answer to ${entry.req.method} ${entry.req.url?.split('?')[0]} not being read`
        : !entry.req.complete
          ? `the body of ${entry.req.method} ${entry.req.url?.split('?')[0]} not arriving`
          : undefined;
    if (!what) return;
    logger.debug(`closed a connection after ${timeouts.idleMs} ms without progress: ${what}`);
    socket.destroy();
  });
}

export function trackRequest(active: ActiveRequests, req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  active.set(socket, { req, res });
  const forget = (): void => {
    if (active.get(socket)?.res === res) active.delete(socket);
  };
  res.once('finish', forget);
  res.once('close', forget);
}
