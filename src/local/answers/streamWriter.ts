// The generative-answer stream of the local service (docs/api.md#answer-stream):
// `application/x-ndjson`, one object per line, each the full sync shape with the cumulative answer so far.
// Line n carries the first n sentences, written as soon as the sentences are chosen (or, with a writer, the text
// written so far, a line per text received); the last line is the
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
  let lines = 0;
  let committed = false;
  const finish = async (): Promise<Record<string, unknown>> => {
    // The thread turn is durable before the client can see the final line (and use its threadId).
    committed = true;
    await commit();
    return answerBody(plan);
  };
  const emit = async (body: () => Record<string, unknown> | Promise<Record<string, unknown>>): Promise<boolean> => {
    if (lines > 0 && delayMs > 0 && !(await pause(delayMs, signal))) return false;
    if (signal.aborted) return false;
    const line = JSON.stringify(await body()) + '\n';
    if (signal.aborted || !(await write(res, line))) return false;
    lines++;
    return true;
  };
  let closedEarly = false;
  for await (const body of steps(plan, signal)) {
    if (!(await emit(body))) {
      closedEarly = true;
      break;
    }
  }
  if (!closedEarly && !(await emit(finish))) closedEarly = true;
  if (!committed) await commit().catch(() => undefined); // the question was asked, even if the answer was cut
  if (closedEarly) res.destroy();
  else res.end();
  return { lines, closedEarly };
}

/** The lines before the last: one per chosen sentence, or one per text a writer sent (writtenAnswer.ts). */
async function* steps(plan: AnswerPlan, signal: AbortSignal): AsyncGenerator<() => Record<string, unknown>> {
  if (plan.write) {
    for await (const _ of plan.write(signal, true)) yield () => answerBody(plan);
    return;
  }
  for (let i = 1; i <= plan.chosen.length; i++) yield () => answerBody(plan, i);
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
