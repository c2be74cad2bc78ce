// The pure parts of the local writer: the SSE reader of chat-completions streams (fed the same stream split at
// every position, as a network delivers it) and the citation markers of a written answer.
import assert from 'node:assert/strict';
import { sseData } from '../../../../src/local/answers/chatCompletionsWriter';
import { citedNumbers, dropUnknownMarkers } from '../../../../src/local/answers/answerWriter';

async function read(pieces: string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const data of sseData(
    (async function* () {
      for (const p of pieces) yield new TextEncoder().encode(p);
    })(),
  ))
    out.push(data);
  return out;
}

describe('Local writer: reading the chat-completions stream', () => {
  const STREAM =
    ': keep-alive comment\r\n\r\ndata: {"choices":[{"delta":{"content":"日本語"}}]}\r\n\r\n' +
    'event: message\ndata: {"a":\ndata: 1}\nid: 7\n\ndata:[DONE]\n\n';
  const EVENTS = ['{"choices":[{"delta":{"content":"日本語"}}]}', '{"a":\n1}', '[DONE]'];

  it('finds the same events wherever the bytes are split (CRLF, multi-line data, a character cut in two)', async () => {
    const bytes = new TextEncoder().encode(STREAM);
    for (let i = 0; i <= bytes.length; i++) {
      const out: string[] = [];
      const body = (async function* () {
        yield bytes.slice(0, i);
        yield bytes.slice(i);
      })();
      for await (const data of sseData(body)) out.push(data);
      assert.deepEqual(out, EVENTS, `split at byte ${i}`);
    }
  });

  it('an event without its closing blank line at the end of the stream still counts', async () => {
    assert.deepEqual(await read(['data: {"x":1}']), ['{"x":1}']);
  });
});

describe('Local writer: citation markers', () => {
  it('reads [1], [1, 3] and [2][1] in order of first use', () => {
    assert.deepEqual(citedNumbers('A [1]. B [1, 3]. C [2][1].'), [1, 3, 2]);
  });

  it('drops the markers of sources that were not sent, keeping the others', () => {
    assert.equal(dropUnknownMarkers('A [7]. B [2, 9]. C [1].', 2), 'A. B [2]. C [1].');
  });
});
