// A protocol-exact fake of an OpenAI-compatible chat-completions endpoint (POST /v1/chat/completions with
// stream: true → text/event-stream of `chat.completion.chunk` objects, then `data: [DONE]`), on 127.0.0.1.
// Its answer quotes the first source it was sent and cites it as [1], and [2] when there is a second source,
// so a test can see that the answer came from the passages it was given. `mode` makes it fail the ways a real
// endpoint does.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeMode = 'ok' | 'status500' | 'hang' | 'malformed' | 'drop' | 'redirect';

export interface SeenRequest {
  path: string;
  authorization: string | undefined;
  body: { model?: string; stream?: boolean; messages?: Array<{ role: string; content: string }> };
}

export interface FakeChatEndpoint {
  /** Base URL, e.g. http://127.0.0.1:PORT/v1 */
  readonly url: string;
  mode: FakeMode;
  /** Where `redirect` sends the client. */
  redirectTo: string;
  readonly requests: SeenRequest[];
  /** Resolves when a request's connection closes before its answer ended (the client stopped it). */
  closedEarly(): Promise<void>;
  /** Resolves once `count` requests have arrived. */
  received(count: number): Promise<void>;
  /** The words the fake's answer starts with. */
  readonly opening: string;
  close(): Promise<void>;
}

const OPENING = 'According to the handbook,';

export async function startFakeChatEndpoint(): Promise<FakeChatEndpoint> {
  const requests: SeenRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  let onClosedEarly: (() => void) | undefined;
  let closedEarlyCount = 0;
  const state = { mode: 'ok' as FakeMode, redirectTo: '' };
  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    let body: SeenRequest['body'] = {};
    try {
      body = JSON.parse(raw) as SeenRequest['body'];
    } catch {
      // recorded as empty
    }
    requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
    for (const w of waiting.filter((x) => requests.length >= x.count)) w.resolve();
    let ended = false;
    res.on('close', () => {
      hanging.delete(res);
      if (!ended) {
        closedEarlyCount++;
        onClosedEarly?.();
      }
    });
    const end = (): void => {
      ended = true;
      res.end();
    };
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      return end();
    }
    if (state.mode === 'status500') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.write(JSON.stringify({ error: { message: 'model crashed', type: 'server_error' } }));
      return end();
    }
    if (state.mode === 'redirect') {
      res.writeHead(307, { location: state.redirectTo });
      return end();
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    if (state.mode === 'hang') {
      hanging.add(res);
      return;
    }
    const user = body.messages?.find((m) => m.role === 'user')?.content ?? '';
    const first = /\[1\][^\n]*\n"""\n([^\n]{0,60})/.exec(user)?.[1]?.trim() ?? '';
    const cites2 = user.includes('\n[2] ');
    const text = `${OPENING} "${first}" [1].${cites2 ? '\n\nOther sources add more [2].' : ''}`;
    const pieces = [{ role: 'assistant', content: '' }, ...chunks(text).map((content) => ({ content }))];
    for (const [i, delta] of pieces.entries()) {
      if (state.mode === 'malformed' && i === 1) res.write('data: {"choices": [\n\n');
      if (state.mode === 'drop' && i === 3) {
        ended = true; // cut by the fake, not closed by the client
        // What was written reaches the client first; then the connection breaks.
        await new Promise<void>((resolve) => res.write('', () => resolve()));
        res.destroy();
        return;
      }
      res.write(`data: ${JSON.stringify(chunk(body.model, delta, null))}\n\n`);
    }
    res.write(`data: ${JSON.stringify(chunk(body.model, {}, 'stop'))}\n\n`);
    res.write('data: [DONE]\n\n');
    end();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get mode() {
      return state.mode;
    },
    set mode(m: FakeMode) {
      state.mode = m;
    },
    get redirectTo() {
      return state.redirectTo;
    },
    set redirectTo(u: string) {
      state.redirectTo = u;
    },
    requests,
    opening: OPENING,
    received: (count) => new Promise<void>((resolve) => (requests.length >= count ? resolve() : waiting.push({ count, resolve }))),
    closedEarly: () =>
      new Promise<void>((resolve) => {
        if (closedEarlyCount > 0) return resolve();
        onClosedEarly = resolve;
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Pieces of a few characters, as a model streams tokens (a marker may be cut in two). */
function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 7) out.push(text.slice(i, i + 7));
  return out;
}

function chunk(model: string | undefined, delta: Record<string, unknown>, finish: string | null): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: model ?? 'fake',
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}
