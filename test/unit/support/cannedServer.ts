// A real HTTP server on 127.0.0.1 that answers with canned shapes the local service does not produce (other
// deployments' paging, 404/405 for missing routes). Not a mock of the client: the client under test sends real
// requests over the loopback and reads real responses. Each request is recorded.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface CannedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  json?: unknown;
}

export interface CannedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
}

export interface CannedServer {
  url: string;
  requests: CannedRequest[];
  close(): Promise<void>;
}

/** Every server started and not yet closed: a test that starts several closes them all (closeCannedServers). */
const open = new Set<CannedServer>();

/** Closes every canned server still open (afterEach), so none keeps the test process alive. */
export async function closeCannedServers(): Promise<void> {
  await Promise.all([...open].map((s) => s.close()));
}

export async function startCannedServer(answer: (req: CannedRequest) => CannedResponse | Promise<CannedResponse>): Promise<CannedServer> {
  const requests: CannedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json };
      requests.push(recorded);
      void Promise.resolve(answer(recorded)).then(
        (r) => {
          const text = r.body === undefined ? '' : typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
          res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers }).end(text);
        },
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const canned: CannedServer = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    async close() {
      open.delete(canned);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  open.add(canned);
  return canned;
}
