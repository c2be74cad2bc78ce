// The wire format shared by every webview feature. Imported by host AND page bundles: no `vscode`,
// no DOM here. Each feature declares its messages once (src/features/<feature>/.../protocol.ts) with
// zod schemas; both sides validate what they receive against them.
import { z } from 'zod';

/** A request: its parameters and its result. */
export interface RequestDef<P extends z.ZodTypeAny = z.ZodTypeAny, R extends z.ZodTypeAny = z.ZodTypeAny> {
  params: P;
  result: R;
}

/** What one side receives: notifications (no answer) and requests (answered with a response). */
export interface Direction {
  notifications: Record<string, z.ZodTypeAny>;
  requests: Record<string, RequestDef>;
}

/** A webview feature's messages: `toHost` is what the page sends, `toPage` what the host sends. */
export interface Protocol {
  name: string;
  toHost: Direction;
  toPage: Direction;
}

export function defineProtocol<P extends Protocol>(protocol: P): P {
  return protocol;
}

export function request<P extends z.ZodTypeAny, R extends z.ZodTypeAny>(params: P, result: R): RequestDef<P, R> {
  return { params, result };
}

export const emptySchema = z.object({}).strict();

/**
 * The connection a panel works on (issue 27): its id, and its name to say so once it is removed. The host names it,
 * the page keeps it in its state, and a restart reopens the panel there.
 */
export const panelConnectionSchema = z.object({ id: z.string().min(1).max(64), name: z.string().max(80) });
export type PanelConnection = z.infer<typeof panelConnectionSchema>;

/**
 * A page's requests in the test build: `snapshot` answers what the page shows, `drive` works its controls as a
 * person would and answers what it shows after.
 */
export function snapshotAndDrive<S extends z.ZodTypeAny, D extends z.ZodTypeAny>(
  snapshot: S,
  drive: D,
): { snapshot: RequestDef<typeof emptySchema, S>; drive: RequestDef<D, S> } {
  return { snapshot: request(emptySchema, snapshot), drive: request(drive, snapshot) };
}

/** The longest problem message a page sends (longer ones are cut by the page, refused by the host). */
export const PAGE_PROBLEM_MAX_CHARS = 2_000;

/** csp: a violation (a bug); blocked: an inline handler in untrusted HTML the CSP refused while it was sanitized; error: uncaught. */
export const pageProblemSchema = z.object({ kind: z.enum(['csp', 'blocked', 'error']), message: z.string().max(PAGE_PROBLEM_MAX_CHARS) });
export type PageProblem = z.infer<typeof pageProblemSchema>;

/**
 * What a page saved with setState, sent to the host at once (Messenger.setState): which page (an id it keeps in its
 * state), when (the page's clock, to tell the newer of two copies) and the state (checked by the page's own schema
 * when it is restored).
 */
export const pageStateSchema = z.object({ id: z.string().min(1).max(100), at: z.number(), state: z.unknown() });
export type PageState = z.infer<typeof pageStateSchema>;

/** Notifications every page sends and `WebviewPanelHost` handles (the page's side is `bootPage` and `Messenger`). */
export const pageNotifications = { pageProblem: pageProblemSchema, pageState: pageStateSchema };
export type PageNotifications = typeof pageNotifications;

/** A feature's page-to-host notifications plus the shared ones: use it in every webview protocol's `toHost`. */
export function withPageNotifications<N extends Record<string, z.ZodTypeAny>>(notifications: N): N & PageNotifications {
  return { ...notifications, ...pageNotifications };
}

/** A protocol of a page hosted by `WebviewPanelHost`: its page sends the shared notifications. */
export interface PageProtocol extends Protocol {
  toHost: { notifications: PageNotifications & Record<string, z.ZodTypeAny>; requests: Record<string, RequestDef> };
}

export const wireErrorSchema = z.object({ message: z.string(), code: z.string().optional(), data: z.unknown().optional() });
export type WireError = z.infer<typeof wireErrorSchema>;

/** Every message on the wire. `ready` is sent by the page once its listeners are in place. */
export const envelopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ready') }),
  z.object({ kind: z.literal('notify'), type: z.string().min(1), payload: z.unknown() }),
  z.object({ kind: z.literal('request'), id: z.number().int().nonnegative(), type: z.string().min(1), params: z.unknown() }),
  z.object({
    kind: z.literal('response'),
    id: z.number().int().nonnegative(),
    ok: z.boolean(),
    result: z.unknown().optional(),
    error: wireErrorSchema.optional(),
  }),
]);
export type Envelope = z.infer<typeof envelopeSchema>;

export type NotificationType<D extends Direction> = keyof D['notifications'] & string;
export type RequestType<D extends Direction> = keyof D['requests'] & string;
export type NotificationPayload<D extends Direction, K extends NotificationType<D>> = z.output<D['notifications'][K]>;
export type NotificationInput<D extends Direction, K extends NotificationType<D>> = z.input<D['notifications'][K]>;
export type RequestParams<D extends Direction, K extends RequestType<D>> = z.output<D['requests'][K]['params']>;
export type RequestParamsInput<D extends Direction, K extends RequestType<D>> = z.input<D['requests'][K]['params']>;
export type RequestResult<D extends Direction, K extends RequestType<D>> = z.output<D['requests'][K]['result']>;
export type RequestResultInput<D extends Direction, K extends RequestType<D>> = z.input<D['requests'][K]['result']>;

/** A received message after validation against the receiving direction. */
export type Incoming =
  | { kind: 'ready' }
  | { kind: 'notify'; type: string; payload: unknown }
  | { kind: 'request'; id: number; type: string; params: unknown }
  | { kind: 'response'; id: number; ok: boolean; result?: unknown; error?: WireError };

export type ParseOutcome = { ok: true; message: Incoming } | { ok: false; problem: string; requestId?: number };

/**
 * Validates a raw message against what `direction` may receive. Responses are checked here only for
 * their envelope: their result is validated by whoever sent the request (it knows the schema).
 */
export function parseIncoming(raw: unknown, direction: Direction): ParseOutcome {
  const envelope = envelopeSchema.safeParse(raw);
  if (!envelope.success) return { ok: false, problem: `not a message: ${describeZodError(envelope.error)}` };
  const m = envelope.data;
  if (m.kind === 'ready' || m.kind === 'response') return { ok: true, message: m };
  if (m.kind === 'notify') {
    const schema = own(direction.notifications, m.type);
    if (!schema) return { ok: false, problem: `unknown notification "${m.type}"` };
    const payload = schema.safeParse(m.payload);
    if (!payload.success) return { ok: false, problem: `invalid "${m.type}": ${describeZodError(payload.error)}` };
    return { ok: true, message: { kind: 'notify', type: m.type, payload: payload.data } };
  }
  const def = own(direction.requests, m.type);
  if (!def) return { ok: false, problem: `unknown request "${m.type}"`, requestId: m.id };
  const params = def.params.safeParse(m.params);
  if (!params.success) return { ok: false, problem: `invalid "${m.type}" request: ${describeZodError(params.error)}`, requestId: m.id };
  return { ok: true, message: { kind: 'request', id: m.id, type: m.type, params: params.data } };
}

function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** "question: Required; hashtags.3: Expected string" — short enough for a log line. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}
