import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { decodeOwnUserId } from '../../core/ownUserId';
import { readJsonBody, readMultipart, type MultipartBody, type MultipartOptions } from './body';
import { parseOrBadRequest } from './errors';
import type { RouteDef } from './routes';

export interface Identity {
  agentEmail?: string;
  userEmail?: string;
  ownUserId?: string;
}

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly route: RouteDef;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly identity: Identity;
  /** Aborted when the client closes the connection before the response is complete. */
  readonly signal: AbortSignal;
  /** The JSON body (undefined when empty); read once. */
  body(): Promise<unknown>;
  /** The JSON body validated by `schema`; a mismatch is a 400 naming the field. */
  parse<S extends z.ZodTypeAny>(schema: S): Promise<z.output<S>>;
  multipart(options?: Partial<MultipartOptions>): Promise<MultipartBody>;
}

/** A non-JSON or non-200 answer; a handler returning anything else is answered 200 with it as JSON. */
export class Reply {
  private constructor(
    readonly status: number,
    readonly body: string | Buffer | undefined,
    readonly contentType: string | undefined,
    readonly headers: Record<string, string> = {},
    /** The handler wrote the response itself (streams). */
    readonly handled = false,
  ) {}

  static json(value: unknown, status = 200): Reply {
    return new Reply(status, JSON.stringify(value), 'application/json; charset=utf-8');
  }
  static text(text: string | Buffer, contentType: string, headers: Record<string, string> = {}): Reply {
    return new Reply(200, text, contentType, headers);
  }
  static empty(status = 204): Reply {
    return new Reply(status, undefined, undefined);
  }
  static handled(): Reply {
    return new Reply(0, undefined, undefined, {}, true);
  }
}

export type Handler = (ctx: RequestContext) => Promise<unknown>;

/** Handlers by operation: only names of the operation table or the test routes (routes.ts). */
export type Handlers = Partial<Record<RouteDef['op'], Handler>>;

export interface ContextDeps {
  maxJsonBytes: number;
  multipartDefaults: MultipartOptions;
}

export function createContext(
  req: IncomingMessage,
  res: ServerResponse,
  route: RouteDef,
  params: Record<string, string>,
  url: URL,
  deps: ContextDeps,
): RequestContext {
  // Made when a handler first asks for it (a few do): most requests never need an AbortController and a listener.
  let controller: AbortController | undefined;
  const signal = (): AbortSignal => {
    if (!controller) {
      const made = (controller = new AbortController());
      const closed = () => !res.writableFinished && made.abort(new Error('client closed the connection'));
      if (res.closed) closed();
      else res.on('close', closed);
    }
    return controller.signal;
  };
  let bodyPromise: Promise<unknown> | undefined;
  const body = (): Promise<unknown> => (bodyPromise ??= readJsonBody(req, deps.maxJsonBytes));
  return {
    req,
    res,
    route,
    params,
    query: url.searchParams,
    identity: readIdentity(req),
    get signal() {
      return signal();
    },
    body,
    async parse(schema) {
      return parseOrBadRequest(schema, (await body()) ?? {});
    },
    multipart: (options) => readMultipart(req, { ...deps.multipartDefaults, ...options }),
  };
}

function readIdentity(req: IncomingMessage): Identity {
  const one = (name: string): string | undefined => {
    const v = req.headers[name];
    const s = (Array.isArray(v) ? v[0] : v)?.trim();
    return s ? s : undefined;
  };
  const own = one('own-user-id');
  return { agentEmail: one('agent-email'), userEmail: one('user-email'), ownUserId: own ? decodeOwnUserId(own) : undefined };
}
