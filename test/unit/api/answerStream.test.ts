import assert from 'node:assert/strict';
import { AnswerStreamError, readAnswerStream, type AnswerStreamEvent } from '../../../src/api/stream/answerStream';
import { isAbortError } from '../../../src/api/errors';

const encoder = new TextEncoder();

async function* body(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? encoder.encode(part) : part;
}

/** Reads the whole stream: the final answer and fields, how many objects came, whether the answer was ever re-rendered. */
async function collectAnswerStream(
  source: AsyncIterable<Uint8Array>,
  options?: Parameters<typeof readAnswerStream>[1],
): Promise<{ answer: string; merged: Record<string, unknown>; events: number; replaced: boolean }> {
  let last: AnswerStreamEvent | undefined;
  let events = 0;
  let replaced = false;
  for await (const event of readAnswerStream(source, options)) {
    last = event;
    events++;
    replaced ||= event.replaced;
  }
  // readAnswerStream throws on an empty stream, so `last` is set here.
  return { answer: last!.answer, merged: last!.merged, events, replaced };
}

/** Reads until the stream ends or fails; returns what arrived and the error, if any. */
async function drain(
  source: AsyncIterable<Uint8Array>,
  options?: Parameters<typeof readAnswerStream>[1],
): Promise<{ events: AnswerStreamEvent[]; error?: unknown }> {
  const events: AnswerStreamEvent[] = [];
  try {
    for await (const event of readAnswerStream(source, options)) events.push(event);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

function asStreamError(error: unknown): AnswerStreamError {
  assert.ok(error instanceof AnswerStreamError, `expected an AnswerStreamError, got ${String(error)}`);
  return error;
}

/** A body under test control: records whether it was cancelled; `stall` makes next() hang. */
function controlledBody(parts: string[], stall: boolean) {
  const state = { returned: false, nextCalls: 0 };
  const iterable: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        const index = state.nextCalls++;
        if (index < parts.length) return Promise.resolve({ done: false, value: encoder.encode(parts[index]) });
        return stall ? new Promise<never>(() => undefined) : Promise.resolve({ done: true, value: undefined });
      },
      return: () => {
        state.returned = true;
        return Promise.resolve({ done: true, value: undefined });
      },
    }),
  };
  return { iterable, state };
}

describe('readAnswerStream', () => {
  it('yields a delta per object for a cumulative answer, and merges the other fields', async () => {
    const { events } = await drain(
      body('{"answer":"Hel","threadId":null}\n{"answer":"Hello","clues":[1]}\n{"answer":"Hello there","threadId":"t1"}\n'),
    );
    assert.deepEqual(
      events.map((event) => [event.answer, event.delta, event.replaced]),
      [
        ['Hel', 'Hel', false],
        ['Hello', 'lo', false],
        ['Hello there', ' there', false],
      ],
    );
    assert.deepEqual(events[0]!.merged, { answer: 'Hel', threadId: null });
    assert.deepEqual(events[2]!.merged, { answer: 'Hello there', threadId: 't1', clues: [1] });
    assert.deepEqual(events[1]!.object, { answer: 'Hello', clues: [1] });
  });

  it('appends answers that do not extend the answer so far (delta style)', async () => {
    const { events } = await drain(body('{"answer":"One"}{"answer":", two"}{"answer":""}{"answer":", three"}'));
    assert.deepEqual(
      events.map((event) => event.delta),
      ['One', ', two', '', ', three'],
    );
    assert.equal(events.at(-1)!.answer, 'One, two, three');
    assert.ok(events.every((event) => !event.replaced));
    assert.equal(events.map((event) => event.delta).join(''), events.at(-1)!.answer);
  });

  it('keeps a field that a later object lacks or sends as null, and takes the latest value otherwise', async () => {
    const { events } = await drain(
      body(
        '{"answer":"a","clues":["c1"],"intent":"first","citations":[{"index":1}]}\n',
        '{"answer":"ab","intent":null}\n',
        '{"clues":[],"fuQuestion":"next?","threadId":"t"}\n',
      ),
    );
    assert.deepEqual(events.at(-1)!.merged, {
      answer: 'ab',
      clues: [],
      intent: 'first',
      citations: [{ index: 1 }],
      fuQuestion: 'next?',
      threadId: 't',
    });
    assert.equal(events.at(-1)!.delta, '', 'an object without answer yields an empty delta');
  });

  it('hands out merged copies, so a held event does not change later', async () => {
    const { events } = await drain(body('{"answer":"a","intent":"x"}\n{"answer":"ab","intent":"y"}\n'));
    assert.equal(events[0]!.merged.intent, 'x');
    assert.equal(events[1]!.merged.intent, 'y');
  });

  it('converts a Draft.js answer (object or JSON string) to Markdown and flags a re-render as replaced', async () => {
    const draft = (text: string, bold: number) => ({
      blocks: [{ text, type: 'unstyled', inlineStyleRanges: [{ offset: 0, length: bold, style: 'BOLD' }], entityRanges: [] }],
      entityMap: {},
    });
    const { events } = await drain(
      body(
        `${JSON.stringify({ answer: draft('Warn', 4) })}\n`,
        `${JSON.stringify({ answer: JSON.stringify(draft('Warning now', 7)) })}\n`,
        `${JSON.stringify({ answer: draft('Warning now please', 7) })}\n`,
      ),
    );
    assert.deepEqual(
      events.map((event) => [event.answer, event.delta, event.replaced]),
      [
        ['**Warn**', '**Warn**', false],
        ['**Warning** now', '', true],
        ['**Warning** now please', ' please', false],
      ],
    );
    assert.deepEqual(events[0]!.object.answer, draft('Warn', 4), 'the object is kept as received');
  });

  it('appends a separate Draft.js document as a new paragraph', async () => {
    const doc = (text: string) => ({ blocks: [{ text, type: 'unstyled' }], entityMap: {} });
    const result = await collectAnswerStream(
      body(`${JSON.stringify({ answer: doc('First part.') })}\n${JSON.stringify({ answer: doc('Second part.') })}\n`),
    );
    assert.equal(result.answer, 'First part.\n\nSecond part.');
    assert.equal(result.replaced, false);
  });

  it('keeps a Markdown answer that merely starts with `{` as text', async () => {
    const answer = '{"not":"draft"} is JSON, and {so is this';
    const result = await collectAnswerStream(body(JSON.stringify({ answer })));
    assert.equal(result.answer, answer);
  });

  it('reads SSE data lines whose object continues on a further data line, and CRLF line ends', async () => {
    const result = await collectAnswerStream(
      body('event: message\r\ndata: {"answer":\r\ndata: "multi-line",\r\ndata:  "threadId": "m1"}\r\n\r\ndata: [DONE]\r\n'),
    );
    assert.equal(result.answer, 'multi-line');
    assert.equal(result.merged.threadId, 'm1');
  });

  it('reads a stream that is one compact JSON array of objects', async () => {
    const result = await collectAnswerStream(body('[{"answer":"x"},', '{"answer":"xy","intent":"i"}', ']'));
    assert.deepEqual(result, { answer: 'xy', merged: { answer: 'xy', intent: 'i' }, events: 2, replaced: false });
  });

  it('decodes a character split across chunks, and strips a BOM', async () => {
    const bytes = encoder.encode('\ufeff{"answer":"日本😀"}');
    const result = await collectAnswerStream(body(bytes.slice(0, 16), bytes.slice(16, 19), bytes.slice(19)));
    assert.equal(result.answer, '日本😀');
  });

  it('calls onRaw with every raw chunk, in order, and survives an onRaw that throws', async () => {
    const parts = [encoder.encode('{"answer":'), encoder.encode('"a"}\n'), encoder.encode(': keep-alive\n')];
    const seen: Uint8Array[] = [];
    const result = await collectAnswerStream(body(...parts), { onRaw: (chunk) => seen.push(chunk) });
    assert.deepEqual(seen, parts);
    const again = await collectAnswerStream(body(...parts), {
      onRaw: () => {
        throw new Error('log failed');
      },
    });
    assert.equal(again.answer, result.answer);
  });

  describe('failures', () => {
    it('fails with the partial answer when the stream ends inside an object', async () => {
      const { events, error } = await drain(body('{"answer":"Par","intent":"x"}\n{"answer":"Partial", "clu'));
      const streamError = asStreamError(error);
      assert.match(streamError.message, /ended in the middle of a response/);
      assert.equal(streamError.partialAnswer, 'Par');
      assert.deepEqual(streamError.merged, { answer: 'Par', intent: 'x' });
      assert.equal(events.length, 1, 'the complete object was still delivered');
    });

    it('fails when the stream ends inside a string, and inside an escape', async () => {
      for (const cut of ['{"answer":"ab"}{"answer":"abc', '{"answer":"ab"}{"answer":"ab\\']) {
        const error = asStreamError((await drain(body(cut))).error);
        assert.match(error.message, /middle of a response/);
        assert.equal(error.partialAnswer, 'ab');
      }
    });

    it('fails when the stream ends inside a multi-byte character of an object', async () => {
      const bytes = encoder.encode('{"answer":"返品"}\n{"answer":"返品は"}');
      const cut = bytes.length - 4; // inside は (3 bytes) followed by `"}`
      const error = asStreamError((await drain(body(bytes.slice(0, cut)))).error);
      assert.match(error.message, /middle of a response/);
      assert.equal(error.partialAnswer, '返品');
    });

    it('ignores an incomplete character after the last complete object', async () => {
      const bytes = encoder.encode('{"answer":"ok"}\n返');
      const result = await collectAnswerStream(body(bytes.slice(0, bytes.length - 1)));
      assert.equal(result.answer, 'ok');
    });

    it('fails with the cause and the partial answer when the body throws (network drop)', async () => {
      const drop = new Error('socket hang up');
      async function* dropping(): AsyncGenerator<Uint8Array> {
        yield encoder.encode('{"answer":"Half","threadId":"t"}\n{"answer":"Half an');
        throw drop;
      }
      const { events, error } = await drain(dropping());
      const streamError = asStreamError(error);
      assert.equal(streamError.cause, drop);
      assert.match(streamError.message, /interrupted: socket hang up/);
      assert.equal(streamError.partialAnswer, 'Half');
      assert.equal(streamError.merged.threadId, 't');
      assert.equal(events.length, 1);
    });

    it('fails on an object that is not valid JSON, keeping the answer so far', async () => {
      const error = asStreamError((await drain(body('{"answer":"ok"}\n{"answer": nope}\n{"answer":"okay"}\n'))).error);
      assert.match(error.message, /not valid JSON/);
      assert.ok(error.cause instanceof SyntaxError);
      assert.equal(error.partialAnswer, 'ok');
    });

    it('fails on an answer of an unexpected type', async () => {
      const error = asStreamError((await drain(body('{"answer":"ok"}{"answer":42}'))).error);
      assert.match(error.message, /answer that is a number/);
      assert.equal(error.partialAnswer, 'ok');
    });

    it('fails with the service message when an object reports an error', async () => {
      for (const report of ['{"errors":"quota exceeded"}', '{"type":"APIError","code":7001,"message":"quota exceeded"}']) {
        const error = asStreamError((await drain(body('{"answer":"so far"}\n', report))).error);
        assert.match(error.message, /service reported an error.*quota exceeded/);
        assert.equal(error.partialAnswer, 'so far');
      }
      const fine = await collectAnswerStream(body('{"answer":"fine","errors":null}{"answer":"fine!","errors":""}'));
      assert.equal(fine.answer, 'fine!');
    });

    it('fails with "empty stream" when no object arrives', async () => {
      for (const parts of [[], [''], [': keep-alive\n\n', 'event: done\ndata: [DONE]\n\n', '  \n[]\n']]) {
        const error = asStreamError((await drain(body(...parts))).error);
        assert.match(error.message, /empty stream/i);
        assert.equal(error.partialAnswer, '');
      }
    });
  });

  describe('cancellation', () => {
    it('throws an AbortError at once when the signal is already aborted, without reading', async () => {
      const controller = new AbortController();
      controller.abort();
      const { iterable, state } = controlledBody(['{"answer":"a"}'], false);
      const { events, error } = await drain(iterable, { signal: controller.signal });
      assert.equal((error as Error).name, 'AbortError');
      assert.ok(isAbortError(error));
      assert.equal(events.length, 0);
      assert.equal(state.nextCalls, 0);
    });

    it('stops a stalled body when the signal aborts, keeping the partial answer, and cancels the body', async () => {
      const controller = new AbortController();
      const { iterable, state } = controlledBody(['{"answer":"Waiting"}\n{"answer":"Wait'], true);
      const events: AnswerStreamEvent[] = [];
      const reading = (async () => {
        for await (const event of readAnswerStream(iterable, { signal: controller.signal })) {
          events.push(event);
          setTimeout(() => controller.abort(new Error('user pressed Stop')), 10);
        }
      })();
      const error = asStreamError(
        await reading.then(
          () => undefined,
          (caught: unknown) => caught,
        ),
      );
      assert.equal(error.name, 'AbortError');
      assert.equal(error.partialAnswer, 'Waiting');
      assert.equal((error.cause as Error).message, 'user pressed Stop');
      assert.equal(events.length, 1);
      assert.equal(state.returned, true, 'the body was released');
    });

    it('stops between objects when the signal aborts while the caller handles an event', async () => {
      const controller = new AbortController();
      const seen: string[] = [];
      const error = await (async () => {
        for await (const event of readAnswerStream(body('{"answer":"a"}{"answer":"ab"}{"answer":"abc"}'), {
          signal: controller.signal,
        })) {
          seen.push(event.answer);
          controller.abort();
        }
      })().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      assert.deepEqual(seen, ['a']);
      assert.equal(asStreamError(error).name, 'AbortError');
      assert.equal(asStreamError(error).partialAnswer, 'a');
    });

    it('cancels the body when the caller breaks out of the loop', async () => {
      const { iterable, state } = controlledBody(['{"answer":"a"}', '{"answer":"ab"}', '{"answer":"abc"}'], false);
      for await (const event of readAnswerStream(iterable)) {
        assert.equal(event.answer, 'a');
        break;
      }
      assert.equal(state.returned, true);
      assert.equal(state.nextCalls, 1);
    });
  });

  it('reads a 2,000-object cumulative answer sent in 2,000 network chunks', async () => {
    const words = Array.from({ length: 2000 }, (_, index) => `w${index} `);
    let text = '';
    const lines = words.map((word) => {
      text += word;
      return `${JSON.stringify({ answer: text })}\n`;
    });
    const bytes = encoder.encode(lines.join(''));
    const size = Math.ceil(bytes.length / 2000);
    const parts = Array.from({ length: Math.ceil(bytes.length / size) }, (_, index) => bytes.slice(index * size, (index + 1) * size));
    let deltas = '';
    let count = 0;
    for await (const event of readAnswerStream(body(...parts))) {
      deltas += event.delta;
      count++;
    }
    assert.equal(count, 2000);
    assert.equal(deltas, text);
  });
});
