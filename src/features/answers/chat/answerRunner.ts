// Runs one streamed answer and says how it ended: done, stopped by the user, or failed (with the
// part of the answer that arrived). No vscode here; the client is passed in.
import type { AnswerChunk, GenerativeAnswerRequest, StreamOptions } from '../../../api/resources/answers';
import type { GenerativeAnswer } from '../../../api/schemas/answers';

export interface AnswerStreamer {
  stream(request: GenerativeAnswerRequest, options?: StreamOptions): AsyncIterable<AnswerChunk>;
}

export type AnswerOutcome =
  | { status: 'done'; answer: string; result: GenerativeAnswer; deltas: number }
  | { status: 'stopped'; answer: string; deltas: number }
  | { status: 'error'; answer: string; error: unknown; deltas: number; broken: boolean };

export interface RunOptions {
  signal: AbortSignal;
  onRaw?: (chunk: Uint8Array) => void;
  /** Text to append, or (replaced) the whole answer so far. */
  onDelta(text: string, replaced: boolean): void;
}

/** An error from the stream reader carries the answer so far (AnswerStreamError); read it by shape, not class. */
function partialOf(error: unknown): string | undefined {
  const partial = (error as { partialAnswer?: unknown } | undefined)?.partialAnswer;
  return typeof partial === 'string' ? partial : undefined;
}

export async function runAnswer(streamer: AnswerStreamer, request: GenerativeAnswerRequest, options: RunOptions): Promise<AnswerOutcome> {
  let answer = '';
  let deltas = 0;
  try {
    for await (const chunk of streamer.stream(request, { signal: options.signal, onRaw: options.onRaw })) {
      if (options.signal.aborted) break;
      if (chunk.type === 'delta') {
        deltas++;
        answer = chunk.answer;
        options.onDelta(chunk.replaced ? chunk.answer : chunk.delta, chunk.replaced);
      } else {
        if (chunk.result.answer !== answer) {
          // The validated final answer differs from what was streamed (e.g. Draft.js rendered anew).
          deltas++;
          answer = chunk.result.answer;
          options.onDelta(answer, true);
        }
        return { status: 'done', answer, result: chunk.result, deltas };
      }
    }
    // Left the loop early: only a Stop does that.
    return { status: 'stopped', answer, deltas };
  } catch (error) {
    const partial = partialOf(error);
    if (partial !== undefined && partial.length > answer.length && partial.startsWith(answer)) {
      options.onDelta(partial.slice(answer.length), false);
      answer = partial;
      deltas++;
    }
    if (options.signal.aborted) return { status: 'stopped', answer, deltas };
    return { status: 'error', answer, error, deltas, broken: partial !== undefined };
  }
}
