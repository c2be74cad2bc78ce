// Tolerant reader of the generative-answer stream (`mode: "stream"`). Its wire format is not public;
// docs/api.md#answer-stream says how to read it: split JSON objects however they
// arrive, treat each `answer` as cumulative when it extends the answer so far and as a delta
// otherwise, and keep every other field from the latest object that had it.

import { draftPlainText, draftToMarkdown, isDraftRaw } from '../../core/draftjs';
import { readErrorBody, reportedError } from '../errorBody';
import { KnowledgeDeskError } from '../errors';
import { linkSignals } from '../signals';
import { JsonObjectSplitter } from './jsonObjectSplitter';
import { isRecord } from '../../core/records';

export interface AnswerStreamEvent {
  /** The whole answer so far, as Markdown text. */
  answer: string;
  /** Text appended since the previous event ('' if the answer did not grow, or was replaced). */
  delta: string;
  /** The answer is not an extension of the previous one: re-render `answer` instead of appending. */
  replaced: boolean;
  /** The object as received. */
  object: Record<string, unknown>;
  /** Every field from the latest object that had it (null never erases a value); `answer` is the Markdown answer. */
  merged: Record<string, unknown>;
}

export interface AnswerStreamOptions {
  /** Receives every raw chunk before decoding (the "log raw stream" setting). */
  onRaw?: (chunk: Uint8Array) => void;
  signal?: AbortSignal;
}

interface PartialState {
  partialAnswer: string;
  merged: Record<string, unknown>;
}

/** The stream failed; whatever answer had arrived is kept so the UI can still show it. */
export class AnswerStreamError extends KnowledgeDeskError {
  override readonly name: string = 'AnswerStreamError';
  readonly partialAnswer: string;
  readonly merged: Record<string, unknown>;

  constructor(message: string, state: PartialState, options?: { cause?: unknown }) {
    super(message, options);
    this.partialAnswer = state.partialAnswer;
    this.merged = state.merged;
  }
}

/** The caller aborted. Named `AbortError` so the usual cancellation checks stay silent. */
export class AnswerStreamAbortError extends AnswerStreamError {
  override readonly name: string = 'AbortError';
}

export async function* readAnswerStream(
  body: AsyncIterable<Uint8Array>,
  options: AnswerStreamOptions = {},
): AsyncGenerator<AnswerStreamEvent, void, undefined> {
  const { onRaw, signal } = options;
  const accumulator = new AnswerAccumulator();
  const splitter = new JsonObjectSplitter();
  // One decoder for the whole stream, so a character split across chunks decodes whole.
  const decoder = new TextDecoder('utf-8');
  const checkAbort = (): void => {
    if (signal?.aborted) {
      throw new AnswerStreamAbortError('The answer stream was cancelled', accumulator.state(), { cause: signal.reason });
    }
  };

  checkAbort();
  const iterator = body[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let step: IteratorResult<Uint8Array>;
      try {
        step = await nextOrAbort(iterator, signal);
      } catch (error) {
        checkAbort();
        finished = true; // a body that threw has nothing left to cancel
        throw new AnswerStreamError(`The answer stream was interrupted: ${messageOf(error)}`, accumulator.state(), {
          cause: error,
        });
      }
      if (step.done) break;
      const chunk = step.value;
      if (onRaw) {
        try {
          onRaw(chunk);
        } catch {
          // Diagnostics must never break the answer.
        }
      }
      for (const found of splitter.pushLines(decoder.decode(chunk, { stream: true }))) {
        yield accumulator.add(typeof found === 'string' ? parseObject(found, accumulator) : found);
        checkAbort();
      }
    }
    finished = true;
    for (const found of splitter.pushLines(decoder.decode())) {
      yield accumulator.add(typeof found === 'string' ? parseObject(found, accumulator) : found);
    }

    if (splitter.inObject) {
      throw new AnswerStreamError(
        `The answer stream ended in the middle of a response (${splitter.partialText.length} characters of an unfinished object)`,
        accumulator.state(),
      );
    }
    if (accumulator.count === 0) {
      throw new AnswerStreamError('Empty stream: the service sent no answer object', accumulator.state());
    }
  } finally {
    // Breaking out of the loop, an error or an abort ends the request too.
    if (!finished) cancel(iterator);
  }
}

/** Answer text of one object: Markdown, with the plain text alongside when it came as Draft.js. */
interface AnswerPiece {
  markdown: string;
  draftPlain?: string;
}

/**
 * One event. `merged` is built when read (most events' is never read: the client keeps only the last), from a
 * snapshot of the fields that later objects never change: the accumulator copies its fields before changing them.
 */
class Event implements AnswerStreamEvent {
  private mergedCopy: Record<string, unknown> | undefined;

  constructor(
    readonly answer: string,
    readonly delta: string,
    readonly replaced: boolean,
    readonly object: Record<string, unknown>,
    private readonly fields: Readonly<Record<string, unknown>>,
  ) {}

  get merged(): Record<string, unknown> {
    return (this.mergedCopy ??= { ...this.fields, answer: this.answer });
  }
}

class AnswerAccumulator {
  answer = '';
  count = 0;
  /** Every field but `answer` from the latest object that had it; replaced, never changed, once an event holds it. */
  private fields: Record<string, unknown> = {};
  /** Plain text of the Draft.js document(s) the answer was rendered from; undefined otherwise. */
  private draftPlain: string | undefined;

  state(): PartialState {
    return { partialAnswer: this.answer, merged: { ...this.fields, answer: this.answer } };
  }

  add(object: Record<string, unknown>): AnswerStreamEvent {
    const serviceError = object.type === 'APIError' ? (readErrorBody(object).message ?? 'APIError') : reportedError(object);
    if (serviceError !== undefined) {
      throw new AnswerStreamError(`The service reported an error in the answer stream: ${serviceError}`, this.state());
    }
    const piece = this.pieceOf(object.answer);

    this.count++;
    let copied = false;
    for (const key in object) {
      const value = object[key];
      // A stream repeats most fields unchanged in every object: only a change costs a copy.
      if (key === 'answer' || this.fields[key] === value || ((value === null || value === undefined) && key in this.fields)) continue;
      if (!copied) {
        this.fields = { ...this.fields };
        copied = true;
      }
      this.fields[key] = value;
    }

    let delta = '';
    let replaced = false;
    if (piece) {
      if (startsWith(piece.markdown, this.answer)) {
        delta = piece.markdown.slice(this.answer.length);
        this.answer = piece.markdown;
        this.draftPlain = piece.draftPlain;
      } else if (piece.draftPlain !== undefined && this.draftPlain !== undefined && startsWith(piece.draftPlain, this.draftPlain)) {
        // A growing Draft.js document whose Markdown changed before its end (a bold range that
        // grew, a list that got renumbered): same answer, rendered anew.
        replaced = true;
        this.answer = piece.markdown;
        this.draftPlain = piece.draftPlain;
      } else {
        // Separate Draft.js documents are separate blocks; plain strings are appended as they are.
        delta = piece.draftPlain !== undefined && this.answer !== '' ? `\n\n${piece.markdown}` : piece.markdown;
        this.answer += delta;
        this.draftPlain =
          piece.draftPlain !== undefined && this.draftPlain !== undefined ? `${this.draftPlain}\n${piece.draftPlain}` : undefined;
      }
    }
    return new Event(this.answer, delta, replaced, object, this.fields);
  }

  private pieceOf(value: unknown): AnswerPiece | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') {
      const draft = /^\s*\{/.test(value) ? parseDraftString(value) : undefined;
      return draft ? { markdown: draftToMarkdown(draft), draftPlain: draftPlainText(draft) } : { markdown: value };
    }
    if (isDraftRaw(value)) return { markdown: draftToMarkdown(value), draftPlain: draftPlainText(value) };
    const kind = Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object without blocks' : `a ${typeof value}`;
    throw new AnswerStreamError(`The answer stream sent an answer that is ${kind}`, this.state());
  }
}

/**
 * `text.startsWith(prefix)`, fast: V8's startsWith compares character by character, while `===` on a slice compares
 * memory (20× faster on a cumulative stream, where every object repeats the whole answer so far). Length first: a
 * prefix that is a chain of appended deltas is flattened by the comparison, which must not happen on every event.
 */
function startsWith(text: string, prefix: string): boolean {
  return text.length >= prefix.length && text.slice(0, prefix.length) === prefix;
}

function parseDraftString(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return isDraftRaw(value) ? value : undefined;
  } catch {
    return undefined; // Markdown that merely starts with `{`.
  }
}

function parseObject(text: string, accumulator: AnswerAccumulator): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value)) return value;
  } catch (error) {
    throw new AnswerStreamError(`The answer stream sent an object that is not valid JSON: ${messageOf(error)}`, accumulator.state(), {
      cause: error,
    });
  }
  throw new AnswerStreamError('The answer stream sent something that is not an object', accumulator.state());
}

/** The next chunk, or a rejection as soon as the signal aborts (a stalled body must not hold up a Stop). */
function nextOrAbort<T>(iterator: AsyncIterator<T>, signal: AbortSignal | undefined): Promise<IteratorResult<T>> {
  if (!signal) return iterator.next();
  return new Promise<IteratorResult<T>>((resolve, reject) => {
    const unlink = linkSignals(signal, (reason) => reject(reason));
    iterator.next().then(
      (step) => {
        unlink();
        resolve(step);
      },
      (error: unknown) => {
        unlink();
        reject(error);
      },
    );
  });
}

/** Releases the body without waiting: a `return()` queued behind a stalled `next()` could hang. */
function cancel(iterator: AsyncIterator<unknown>): void {
  try {
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  } catch {
    // Already closed or broken; nothing to release.
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
