// The local service's test-only parts: fault injection, the echo, whoami, processing and stream-delay routes, the
// X-Local-Stream-Delay-Ms header and the commit sequence header. service.ts and http/routes.ts require() this
// file only behind `globalThis.__KD_TEST__` (src/testBuild.d.ts), so dist/local.js of any build but the test
// build holds none of it, and `testHooks` is ignored there.
import { z } from 'zod';
import { prefixed } from '../core/records';
import { CommitSeqTracker } from './http/commitSeq';
import type { Handlers, RequestContext } from './http/context';
import { FaultInjector, type FaultConfig } from './http/faults';
import type { Method, RouteDef, TestOperationName } from './http/routes';
import { echoHandler, type EchoStats } from './handlers/echoHandler';

const testRoute = (method: Method, path: string, op: TestOperationName): RouteDef => ({ method, path, op, api: 'admin' });

/** Absent (404) unless the service was started with `testHooks` (docs/api.md#local-only-routes). */
export const TEST_ROUTES: readonly RouteDef[] = [
  testRoute('POST', '/_local/faults', 'admin.faults'),
  testRoute('POST', '/_local/processing', 'admin.processing'),
  testRoute('GET', '/_local/whoami', 'admin.whoami'),
  testRoute('POST', '/_local/echo', 'admin.echo'),
  testRoute('POST', '/_local/stream-delay', 'admin.streamDelay'),
];

export const STREAM_DELAY_HEADER = 'x-local-stream-delay-ms';
export const MAX_STREAM_DELAY_MS = 2000;

/**
 * `X-Local-Stream-Delay-Ms` (0–2000) waits between lines, so a Stop or a time-to-first-line measurement has
 * something to act on. Read only when the service was started with `testHooks`, and then only on requests that
 * carry the API-KEY header (the service's own key, already checked); otherwise, or when not an integer in range, 0.
 * Undefined when the request does not carry it.
 */
export function streamDelayHeader(ctx: RequestContext): number | undefined {
  if (!ctx.req.headers['api-key']) return 0;
  const raw = ctx.req.headers[STREAM_DELAY_HEADER];
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (!text) return undefined;
  if (!/^\d{1,4}$/.test(text.trim())) return 0;
  const ms = Number(text.trim());
  return ms <= MAX_STREAM_DELAY_MS ? ms : 0;
}

/** Responses carry the journal sequence number of their request's first commit (LocalServiceOptions.exposeCommitSeq). */
export function commitSeqTracker(): CommitSeqTracker {
  return new CommitSeqTracker();
}

/** Fault injection, configured with `initial` from the start (LocalServiceOptions.faults). */
export function faultInjector(initial: FaultConfig | undefined): FaultInjector {
  const faults = new FaultInjector();
  if (initial) faults.configure(initial);
  return faults;
}

const faultKind = z.enum(['none', '429', '500', 'drop', 'dropAfter']);
const rate = z.number().min(0).max(1).optional();
const faultSchema = z
  .object({
    rate429: rate,
    rate500: rate,
    rateDrop: rate,
    rateDropAfter: rate,
    script: z.array(faultKind).max(10_000).optional(),
    retryAfterSeconds: z.number().min(0).max(3600).optional(),
    pathPrefix: z.string().optional(),
    seed: z.number().int().optional(),
  })
  .strict();

/**
 * The test routes: fault injection, the identity a request carried, echo, holding document processing, and the
 * pause between answer stream lines (`streamDelay`: the request's header, else what /_local/stream-delay set, so
 * the extension's integration tests slow the chat down without touching its client). Their counts go into
 * /_local/info through `counts`.
 */
export function testHandlers(deps: { faults: FaultInjector; processing: { hold(held: boolean): void } }): {
  handlers: Handlers;
  counts: () => Record<string, number>;
  streamDelay: (ctx: RequestContext) => number;
} {
  const { faults, processing } = deps;
  const echo: EchoStats = { closedEarly: 0 };
  let defaultDelayMs = 0;
  return {
    streamDelay: (ctx) => streamDelayHeader(ctx) ?? defaultDelayMs,
    handlers: {
      'admin.streamDelay': async (ctx) => {
        ({ ms: defaultDelayMs } = await ctx.parse(z.object({ ms: z.number().int().min(0).max(MAX_STREAM_DELAY_MS) }).strict()));
        return { result: 'ok', ms: defaultDelayMs };
      },
      'admin.whoami': async (ctx) => ({ identity: ctx.identity }),
      'admin.echo': echoHandler(echo),
      // Documents uploaded while held stay "initializing": a client can see them processing, then finish.
      'admin.processing': async (ctx) => {
        const { hold } = await ctx.parse(z.object({ hold: z.boolean() }).strict());
        processing.hold(hold);
        return { result: 'ok', hold };
      },
      'admin.faults': async (ctx) => {
        faults.configure(await ctx.parse(faultSchema));
        return { result: 'ok', counts: faults.counts };
      },
    },
    counts: () => ({ ...prefixed('faults.', faults.counts), 'echo.closedEarly': echo.closedEarly }),
  };
}
