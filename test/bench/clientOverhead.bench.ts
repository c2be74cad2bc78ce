// The API client's overhead (headers, retries bookkeeping, zod validation) against raw
// undici.request to the same local service, same run, same keep-alive dispatcher settings.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { ApiClient } from '../../src/api/client';
import { startLocalService } from '../../src/local/service';
import { percentile, table, timeEach } from './support';

const N = Number(process.env.KD_BENCH_N ?? 3000);

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kd-bench-'));
  const service = await startLocalService({ dataDir: dir });
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const client = new ApiClient({ baseUrl: service.url, apiKey: service.apiKey, dispatcher: new Agent({ keepAliveTimeout: 30_000 }) });
  const url = `${service.url}/webapi/faq/embedding_status`;
  const raw = async (): Promise<unknown> => {
    const res = await request(url, { headers: { 'API-KEY': service.apiKey }, dispatcher: agent });
    return JSON.parse(await res.body.text());
  };
  const viaClient = (): Promise<unknown> => client.faq.embeddingStatus();
  for (let i = 0; i < 300; i++) {
    await raw();
    await viaClient();
  }
  // Interleave rounds so drift (GC, CPU frequency) hits both sides alike.
  const rawTimes: number[] = [];
  const clientTimes: number[] = [];
  for (let round = 0; round < 6; round++) {
    rawTimes.push(...(await timeEach(N / 6, raw)));
    clientTimes.push(...(await timeEach(N / 6, viaClient)));
  }
  const conc = async (fn: () => Promise<unknown>): Promise<number> => {
    const t = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = 0; i < N / 16; i++) await fn();
      }),
    );
    return (N / (performance.now() - t)) * 1000;
  };
  const rawRps = await conc(raw);
  const clientRps = await conc(viaClient);
  const row = (name: string, t: number[], rps: number): Array<string | number> => [
    name,
    percentile(t, 50),
    percentile(t, 95),
    percentile(t, 99),
    rps,
  ];
  table(
    `Client overhead: GET /webapi/faq/embedding_status on the local service, ${N} sequential calls each (ms), then 16 concurrent callers (calls/s)`,
    ['', 'p50', 'p95', 'p99', 'calls/s @16'],
    [row('raw undici.request (baseline)', rawTimes, rawRps), row('ApiClient.faq.embeddingStatus', clientTimes, clientRps)],
  );
  const overhead = percentile(clientTimes, 50) - percentile(rawTimes, 50);
  console.log(
    `  overhead at p50: ${(overhead * 1000).toFixed(0)} µs per call, ${(percentile(clientTimes, 50) / percentile(rawTimes, 50)).toFixed(2)}× raw undici (target: ≤ 1.15×)`,
  );
  await client.config.dispatcher?.close();
  await agent.close();
  await service.close();
  await rm(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
