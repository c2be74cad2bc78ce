import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { ApiClient, type ClientConfig } from '../../../src/api/client';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../../../src/local/service';

export interface TestService {
  service: LocalService;
  dir: string;
  client(overrides?: Partial<ClientConfig>): ApiClient;
  /** Calls a local admin route. */
  admin<T = unknown>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** A real local service on 127.0.0.1 in a fresh temp folder; stop() closes it and removes the folder. */
export async function startTestService(options: Partial<LocalServiceOptions> = {}): Promise<TestService> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kd-unit-'));
  // Test hooks on (fault, echo and whoami routes, the stream-delay header): the tests of the client need them.
  const service = await startLocalService({ dataDir: dir, testHooks: true, ...options });
  return {
    service,
    dir,
    client: (overrides = {}) =>
      new ApiClient({
        baseUrl: service.url,
        apiKey: service.apiKey,
        nluApiKey: service.nluApiKey,
        retry: { baseDelayMs: 20, maxDelayMs: 80 },
        ...overrides,
      }),
    async admin<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
      const res = await request(`${service.url}${route}`, {
        method,
        headers: { 'API-KEY': service.apiKey, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${route}: ${res.statusCode} ${text}`);
      return JSON.parse(text) as T;
    },
    async stop() {
      await service.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
