// The generative-answer stream of the local service (docs/api.md#answer-stream):
// `application/x-ndjson`, one object per line, each the full sync shape with the cumulative answer so far.
// Line n carries the first n sentences, written as soon as the sentences are chosen; the last line is the
// complete answer (citations, clues, threadId, fuQuestion …). When the client closes the connection the
// writing stops and the stop is counted (`answers.closedEarly` in /_local/info).
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestContext } from '../http/context';
import { drained } from '../http/jsonStream';
import { answerBody, type AnswerPlan } from './answerBody';

export interface StreamOutcome {
  lines: number;
  closedEarly: boolean;
}

export async function writeAnswerStream(
  ctx: RequestContext,
  plan: AnswerPlan,
  commit: () => Promise<void>,
  delayMs: number,
): Promise<StreamOutcome> {
  const { res, signal } = ctx;
  res.writeHead(200, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  const bodies: Array<() => Record<string, unknown>> = plan.chosen.map((_, i) => () => answerBody(plan, i + 1));
  let lines = 0;
  let committed = false;
  const finish = async (): Promise<Record<string, unknown>> => {
    // The thread turn is durable before the client can see the final line (and use its threadId).
    committed = true;
    await commit();
    return answerBody(plan);
  };
  for (const body of [...bodies, finish]) {
    if (lines > 0 && delayMs > 0 && !(await pause(delayMs, signal))) break;
    if (signal.aborted) break;
    const line = JSON.stringify(await body()) + '\n';
    if (signal.aborted || !(await write(res, line))) break;
    lines++;
  }
  if (!committed) await commit().catch(() => undefined); // the question was asked, even if the answer was cut
  const closedEarly = lines < bodies.length + 1;
  if (closedEarly) res.destroy();
  else res.end();
  return { lines, closedEarly };
}

async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Writes a line; waits for the socket to drain when its buffer is full. False when the connection closed. */
function write(res: ServerResponse, line: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  return res.write(line) ? Promise.resolve(true) : drained(res);
}
