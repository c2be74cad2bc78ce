import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { keysMatch } from '../store/keys';
import type { LocalLogger } from '../logger';
import { InvalidJsonError, type MultipartOptions } from './body';
import { createContext, Reply, type Handler } from './context';
import { baseErrorBody, HttpError, NLU_INVALID_JSON, NLU_INVALID_KEY, NluError, nluErrorBody } from './errors';
import type { FaultInjector } from './faults';
import { writeJson } from './jsonStream';
import { Router } from './router';
import {
  applyTimeouts,
  DEFAULT_HTTP_TIMEOUTS,
  timeoutServerOptions,
  trackRequest,
  type ActiveRequests,
  type HttpTimeouts,
} from './timeouts';
import { ROUTES, type RouteDef } from './routes';

export interface HttpDeps {
  handlers: ReadonlyMap<string, Handler>;
  keys: { apiKey: string; nluApiKey: string };
  /** Fault injection (LocalServiceOptions.testHooks, test build only). */
  faults?: FaultInjector;
  /** The test routes (testKit.ts), served besides ROUTES; without them they are 404. */
  testRoutes?: readonly RouteDef[];
  maxJsonBytes: number;
  multipart: MultipartOptions;
  logger: LocalLogger;
  /**
   * Requests being handled right now, and requests received per operation since the start (diagnostics in
   * /_local/info: tests wait for in-flight work to end, and count what a client sent after it was cancelled).
   */
  traffic?: { inFlight: number; received: Map<string, number> };
  /** Defaults: DEFAULT_HTTP_TIMEOUTS (tests use short ones). */
  timeouts?: Partial<HttpTimeouts>;
}

const productRouter = new Router(ROUTES);

export function createHttpServer(deps: HttpDeps): Server {
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...deps.timeouts };
  const active: ActiveRequests = new WeakMap();
  const router = deps.testRoutes ? new Router([...ROUTES, ...deps.testRoutes]) : productRouter;
  const server = createServer(timeoutServerOptions(timeouts), (req, res) => {
    trackRequest(active, req, res);
    if (deps.traffic) deps.traffic.inFlight++;
    handle(req, res, deps, router)
      .catch((error) => {
        deps.logger.error(`unhandled error for ${req.method} ${req.url}: ${(error as Error)?.stack ?? error}`);
        if (!res.headersSent) send(res, 500, { errors: 'Internal error in the local service.', code: 500 });
        else res.destroy();
      })
      .finally(() => {
        if (deps.traffic) deps.traffic.inFlight--;
      });
  });
  applyTimeouts(server, timeouts, active, deps.logger);
  return server;
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: HttpDeps, router: Router): Promise<void> {
  const started = Date.now();
  res.on('finish', () => deps.logger.debug(`${req.method} ${req.url?.split('?')[0]} ${res.statusCode} ${Date.now() - started} ms`));
  const url = requestUrl(req.url);
  const match = router.match(req.method ?? 'GET', url.pathname);
  if (match.kind === 'badPath') return fail(req, res, 'base', new HttpError(400, 'The request path is not valid.'));
  if (match.kind === 'notFound') return fail(req, res, 'base', new HttpError(404, `No operation at ${url.pathname}.`));
  if (match.kind === 'wrongMethod') {
    const headers = { allow: match.allow.join(', ') };
    const error =
      match.api === 'nlu'
        ? new NluError(405, undefined, 'Wrong HTTP Method')
        : new HttpError(405, `${req.method} is not allowed here; use ${match.allow.join(' or ')}.`, { headers });
    return fail(req, res, match.api, error, headers);
  }
  const { route, params } = match;
  deps.traffic?.received.set(route.op, (deps.traffic.received.get(route.op) ?? 0) + 1);

  if (!authorized(req, route, deps.keys)) {
    const error = route.api === 'nlu' ? NLU_INVALID_KEY() : new HttpError(401, 'The API-KEY header is missing or invalid.');
    return fail(req, res, route.api, error);
  }

  // Faults never hit the switches themselves, so a test can always turn them off again.
  const fault = !deps.faults || route.op === 'admin.faults' || route.op === 'admin.info' ? 'none' : deps.faults.next(url.pathname);
  if (fault === 'drop') return void req.socket.destroy();
  if (fault === '429') {
    const retryAfter = String(deps.faults?.retryAfterSeconds ?? 1);
    return fail(req, res, route.api, new HttpError(429, 'Rate limited (injected fault).', { headers: { 'retry-after': retryAfter } }), {
      'retry-after': retryAfter,
    });
  }
  if (fault === '500') return fail(req, res, route.api, new HttpError(500, 'Internal server error (injected fault).'));

  const handler = deps.handlers.get(route.op);
  if (!handler) {
    return fail(
      req,
      res,
      route.api,
      new HttpError(501, `${route.op} (${route.method} ${route.path}) is not implemented by the local service yet.`),
    );
  }
  const ctx = createContext(req, res, route, params, url, { maxJsonBytes: deps.maxJsonBytes, multipartDefaults: deps.multipart });
  let result: unknown;
  try {
    result = await handler(ctx);
  } catch (error) {
    if (error instanceof HttpError || error instanceof NluError || error instanceof InvalidJsonError)
      return fail(req, res, route.api, error);
    throw error;
  }
  if (fault === 'dropAfter') return void req.socket.destroy();
  if (result instanceof Reply) {
    if (result.handled) return;
    res.writeHead(result.status, { ...(result.contentType ? { 'content-type': result.contentType } : {}), ...result.headers });
    res.end(result.body);
    return;
  }
  // Streamed with backpressure: a client that never reads a large answer holds one piece of it, not all of it.
  if (result === undefined) send(res, 200, result);
  else await writeJson(res, 200, result);
}

/**
 * The request target as a URL. An origin-form target is always a path: `new URL('//webapi/…', base)` would read
 * `webapi` as a host and route the rest, so the path is appended to the base instead (RFC 9112 §3.2.1).
 */
export function requestUrl(target: string | undefined): URL {
  const base = 'http://127.0.0.1';
  if (!target || target.startsWith('/')) return new URL(base + (target ?? '/'));
  return new URL(target, base);
}

function authorized(req: IncomingMessage, route: RouteDef, keys: HttpDeps['keys']): boolean {
  const header = req.headers['api-key'];
  let given = Array.isArray(header) ? header[0] : header;
  // The service also declares bearer authentication; the local service accepts its key that way (docs/api.md#authentication).
  if (!given && route.api !== 'nlu') {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ')) given = auth.slice('Bearer '.length).trim();
  }
  return keysMatch(route.api === 'nlu' ? keys.nluApiKey : keys.apiKey, given);
}

function fail(req: IncomingMessage, res: ServerResponse, api: RouteDef['api'], error: Error, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.destroy();
  // A rejected upload may still be streaming in: close rather than read hundreds of MB to reuse the socket.
  if (!req.readableEnded && (req.headers['content-length'] || req.headers['transfer-encoding'])) {
    res.shouldKeepAlive = false;
  }
  if (error instanceof InvalidJsonError) {
    error = api === 'nlu' ? NLU_INVALID_JSON() : new HttpError(400, error.message);
  }
  if (error instanceof NluError) return send(res, error.status, nluErrorBody(error), headers);
  const http = error as HttpError;
  const status = http.status ?? 500;
  if (api === 'nlu') return send(res, status, nluErrorBody(new NluError(status, undefined, http.message)), headers);
  send(res, status, baseErrorBody(http), { ...http.options?.headers, ...headers });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
