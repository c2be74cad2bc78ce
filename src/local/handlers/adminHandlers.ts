import { z } from 'zod';
import type { Handlers } from '../http/context';
import type { FaultInjector } from '../http/faults';
import { echoHandler, type EchoStats } from './echoHandler';
import { prefixed } from '../../core/records';

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

export interface ServiceInfo {
  name: string;
  version: string;
  startedAt: number;
  counts: () => Record<string, number>;
}

/** GET /_local/info: served always (the extension checks that a service another window started answers). */
export function adminHandlers(info: ServiceInfo): Handlers {
  return {
    'admin.info': async () => ({ name: info.name, version: info.version, startedAt: info.startedAt, counts: info.counts() }),
  };
}

/**
 * The test routes (LocalServiceOptions.testHooks): fault injection, the identity a request carried, echo,
 * holding document processing.
 * Their counts go into /_local/info through `counts`.
 */
export function testHandlers(deps: { faults: FaultInjector; processing: { hold(held: boolean): void } }): {
  handlers: Handlers;
  counts: () => Record<string, number>;
} {
  const { faults, processing } = deps;
  const echo: EchoStats = { closedEarly: 0 };
  return {
    handlers: {
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
