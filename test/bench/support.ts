// Small helpers for benchmarks: timing, percentiles and a side-by-side table. Figures, not assertions.

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
