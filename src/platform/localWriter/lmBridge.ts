// The language model the user picked, served to the local service's process as an OpenAI-compatible chat endpoint
// (docs/local-service.md#writer). The service runs in its own process and cannot call vscode.lm; it calls this
// loopback server instead, with a key made for this window and sent to the child over IPC only. A request that
// cannot be served (no lm API in this VS Code, no model, the model refused) is an HTTP error, and the service
// answers extractively with a note saying so.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { Log } from '../logger';

export interface ModelChoice {
  vendor?: string;
  family?: string;
  id?: string;
}

const MAX_BODY = 4 * 1024 * 1024;

export class LmBridge {
  readonly key = randomBytes(24).toString('hex');
  private server: Server | undefined;
  private listening: Promise<string> | undefined;

  constructor(
    private readonly model: () => ModelChoice | undefined,
    private readonly log: Log,
  ) {}

  /** The base URL (…/v1); starts the server on first call. */
  url(): Promise<string> {
    return (this.listening ??= new Promise<string>((resolve, reject) => {
      const server = createServer((req, res) => void this.handle(req, res));
      this.server = server;
      server.once('error', reject);
      // Loopback only, like the service: the prompt holds the knowledge base's passages.
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`));
    }));
  }

  dispose(): void {
    this.server?.close();
    this.server?.closeAllConnections();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fail = (status: number, message: string): void => {
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message } }));
    };
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return fail(404, 'not found');
    if (req.headers.authorization !== `Bearer ${this.key}`) return fail(401, 'unauthorized');
    const cancel = new vscode.CancellationTokenSource();
    res.on('close', () => cancel.cancel());
    try {
      const body = JSON.parse(await readBody(req)) as { messages?: Array<{ role?: string; content?: string }> };
      const lm = (vscode as { lm?: typeof vscode.lm }).lm;
      if (!lm?.selectChatModels) return fail(503, 'this VS Code has no language model API');
      const choice = this.model();
      const [model] = await lm.selectChatModels(choice && Object.keys(choice).length ? choice : undefined);
      if (!model) return fail(503, choice?.id ? `the language model ${choice.id} is not available` : 'no language model is available');
      // The lm API has no system role: the instructions go first, as the user's.
      const messages = (body.messages ?? []).map((m) => vscode.LanguageModelChatMessage.User(String(m.content ?? '')));
      const response = await model.sendRequest(
        messages,
        { justification: vscode.l10n.t('Write local answers from your knowledge base') },
        cancel.token,
      );
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for await (const text of response.text) if (text) res.write(`data: ${JSON.stringify(chunk(model.id, { content: text }, null))}\n\n`);
      res.write(`data: ${JSON.stringify(chunk(model.id, {}, 'stop'))}\n\n`);
      res.end('data: [DONE]\n\n');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!cancel.token.isCancellationRequested) this.log.warn(`local answers: the language model failed: ${message}`);
      // Mid-stream, a closed connection without [DONE] is the failure the service recognises.
      if (res.headersSent) res.destroy();
      else fail(502, message);
    } finally {
      cancel.dispose();
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => {
      size += b.length;
      if (size > MAX_BODY) req.destroy(new Error('request too large'));
      else parts.push(b);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function chunk(model: string, delta: Record<string, unknown>, finish: string | null): Record<string, unknown> {
  return { object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finish }] };
}
