// A writer over any OpenAI-compatible chat endpoint (Ollama, LM Studio, a llama.cpp server …):
// POST {baseUrl}/chat/completions with `stream: true`, read as server-sent events (`data: {json}` lines, a blank
// line between events, `data: [DONE]` at the end). The API key, if any, goes only to that URL: redirects are not
// followed, so a redirect cannot carry it elsewhere.
import type * as Undici from 'undici';
import { writerMessages, type AnswerWriter, type WriterRequest } from './answerWriter';

export interface ChatEndpoint {
  /** e.g. http://127.0.0.1:11434/v1 */
  baseUrl: string;
  model: string;
  apiKey?: string;
}

/** Loaded on the first written answer: a service without a writer never loads it (dist/undici.js, see esbuild.mjs). */
function undici(): typeof Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  return require('undici') as typeof Undici;
}

export class WriterHttpError extends Error {}

export class ChatCompletionsWriter implements AnswerWriter {
  readonly model: string;

  constructor(private readonly endpoint: ChatEndpoint) {
    this.model = endpoint.model;
  }

  async *write(request: WriterRequest): AsyncGenerator<string> {
    const { baseUrl, model, apiKey } = this.endpoint;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const res = await undici().request(`${baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model, stream: true, temperature: 0.2, messages: writerMessages(request) }),
      signal: request.signal,
    });
    try {
      if (res.statusCode !== 200) {
        const text = (await res.body.text().catch(() => '')).slice(0, 300);
        throw new WriterHttpError(`HTTP ${res.statusCode}${errorMessage(text) ? `: ${errorMessage(text)}` : ''}`);
      }
      let finished = false;
      for await (const data of sseData(res.body)) {
        if (data === '[DONE]') return;
        const chunk = parseChunk(data);
        const choice = chunk.choices?.[0];
        const delta = choice?.delta?.content;
        if (typeof delta === 'string' && delta) yield delta;
        if (choice?.finish_reason) finished = true;
      }
      // A connection that closed cleanly but early would otherwise pass for a complete answer.
      if (!finished) throw new WriterHttpError('the stream ended before the answer was complete');
    } finally {
      // Leaving early (abort, timeout, an error): stop reading, which closes the upstream request.
      if (!res.body.destroyed) res.body.destroy();
    }
  }
}

interface Chunk {
  choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }>;
}

function parseChunk(data: string): Chunk {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new WriterHttpError(`a malformed event: ${data.slice(0, 80)}`);
  }
  if (!parsed || typeof parsed !== 'object') throw new WriterHttpError(`a malformed event: ${data.slice(0, 80)}`);
  const error = (parsed as { error?: unknown }).error;
  if (error) throw new WriterHttpError(`the endpoint reported an error: ${errorMessage(JSON.stringify({ error })) || 'unknown'}`);
  return parsed as Chunk;
}

/** The `data` of each server-sent event (multi-line data joined with \n); comments and other fields skipped. */
export async function* sseData(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const lineOf = function* (line: string): Generator<string> {
    if (line === '') {
      if (data.length) yield data.join('\n');
      data = [];
    } else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  };
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A lone \r at the end of a chunk may be the first half of \r\n: wait for more.
      if (buffer[nl] === '\r' && nl === buffer.length - 1) break;
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
      yield* lineOf(line);
    }
  }
  buffer += decoder.decode();
  for (const line of buffer.split(/\r\n|\r|\n/)) yield* lineOf(line);
  yield* lineOf('');
}

function errorMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string') return message.slice(0, 200);
  } catch {
    // not JSON: the text itself
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}
