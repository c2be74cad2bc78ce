// Small helpers for benchmarks: timing, percentiles and a side-by-side table. Figures, not assertions.

/**
 * Smoke mode (`npm run bench -- --smoke`, run by `npm test`): every bench once at tiny sizes, nothing judged,
 * so a bench that breaks fails the suite instead of rotting unseen.
 */
export const SMOKE = process.env.KD_BENCH_SMOKE === '1';

/** A size from the environment (for one-off runs), else the full size, or the tiny one in smoke mode. */
export function sized(envName: string, full: number, smoke: number): number {
  const value = process.env[envName];
  return value !== undefined ? Number(value) : SMOKE ? smoke : full;
}

export async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn(i);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function table(title: string, header: string[], rows: Array<Array<string | number>>): void {
  const cells = [header, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => String(r[i]).length)));
  console.log(`\n${title}`);
  for (const [k, r] of cells.entries()) {
    console.log('  ' + r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  '));
    if (k === 0) console.log('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

export function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(3);
}

/** A seeded PRNG (mulberry32): synthetic corpora are the same in every run. */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Minimal client surface waitForSeededSamples needs (the benches pass an ApiClient). */
interface NodeSearcher {
  kbNodes: {
    search(req: { parentFolderIds: Array<string | null>; limit: number }): Promise<{ nodes: Array<{ id: string; nodeType: string }> }>;
  };
}

/** Waits until the seven seeded sample documents (samples/knowledge-base) are processed. */
export async function waitForSeededSamples(client: NodeSearcher, count = 7): Promise<void> {
  for (let done = false; !done;) {
    await new Promise((r) => setTimeout(r, 300));
    const { nodes } = await client.kbNodes.search({ parentFolderIds: [null], limit: 100 });
    const folders = nodes.filter((n) => n.nodeType === 'folder').map((n) => n.id);
    const files = [...nodes, ...(await client.kbNodes.search({ parentFolderIds: folders, limit: 100 })).nodes].filter(
      (n) => n.nodeType === 'file',
    );
    done = files.length === count && files.every((f) => (f as { processState?: string }).processState === 'completed');
  }
}
