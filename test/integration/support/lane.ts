// Which VS Code the suite runs in (test/host/lanes.mjs): the driver hands the lane to the extension host as KD_LANE.
// A test that needs an API the floor lacks calls requiresLane first: in the other lane it is skipped (mocha's
// pending), and the reason is printed, so it is never silently absent.
import type { Context } from 'mocha';

export type Lane = 'floor' | 'current';

export function currentLane(): Lane {
  return process.env.KD_LANE === 'current' ? 'current' : 'floor';
}

/** Skips the running test (or suite, from a before hook) outside `lane`, saying why. */
export function requiresLane(ctx: Context, lane: Lane, reason: string): void {
  if (currentLane() === lane) return;
  const title = ctx.currentTest?.fullTitle() ?? ctx.test?.parent?.fullTitle() ?? ctx.test?.fullTitle() ?? '';
  console.log(`  skipped in the ${currentLane()} lane: ${title}: ${reason}`);
  ctx.skip();
}
