// The local service options only the test build passes (Container, behind `globalThis.__KD_TEST__`). No `vscode`
// here: unit-tested.

/**
 * The local service options only tests use (LocalServiceOptions.testHooks, jobStepDelayMs): the fault, echo,
 * whoami and stream-delay routes and the stream-delay header, and job steps slowed down by KD_LOCAL_JOB_STEP_DELAY_MS
 * (test/host/runIntegration.mjs sets it so the Jobs view's polling sees every state).
 */
export function localServiceTestOptions(env: NodeJS.ProcessEnv = process.env): { testHooks: true; jobStepDelayMs: number } {
  return { testHooks: true, jobStepDelayMs: envStepDelayMs(env) };
}

/**
 * KD_LOCAL_JOB_STEP_DELAY_MS as a pause in ms (at most a minute; anything but a positive number is 0). Jobs on a
 * few documents finish in milliseconds, too fast for a UI polling every 2 s to show "queued" and "running" or to
 * cancel one; read only here, so a user's environment never slows the service down.
 */
export function envStepDelayMs(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.KD_LOCAL_JOB_STEP_DELAY_MS ?? 0);
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 60_000) : 0;
}
