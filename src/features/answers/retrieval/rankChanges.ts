// How the results of A and B differ: B's ranks against A's (↑ moved up, ↓ moved down, new), and A's
// results that B no longer returns (dropped). Pure; used by the page, tested in Node.
import type { Mark, ResultItem } from './protocol';

/** A result is the same passage when it is the same page of the same document (the nth of that page, if it repeats). */
function keys(items: readonly Pick<ResultItem, 'kbId' | 'pageNo'>[]): string[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const base = `${item.kbId}#${item.pageNo}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return `${base}#${n}`;
  });
}

export function compareRankings(
  a: readonly Pick<ResultItem, 'kbId' | 'pageNo'>[],
  b: readonly Pick<ResultItem, 'kbId' | 'pageNo'>[],
): { A: Mark[]; B: Mark[] } {
  const ka = keys(a);
  const kb = keys(b);
  const rankA = new Map(ka.map((k, i) => [k, i]));
  const inB = new Set(kb);
  const B = kb.map((k, i): Mark => {
    const was = rankA.get(k);
    if (was === undefined) return { kind: 'new' };
    if (was === i) return { kind: 'same' };
    return was > i ? { kind: 'up', by: was - i } : { kind: 'down', by: i - was };
  });
  const A = ka.map((k): Mark => (inB.has(k) ? { kind: 'same' } : { kind: 'dropped' }));
  return { A, B };
}

/** "↑2", "↓1", "new", "only A", "": the mark as tests and the host log read it (the page shows it translated, resultsList.ts). */
export function markLabel(mark: Mark): string {
  switch (mark.kind) {
    case 'up':
      return `↑${mark.by}`;
    case 'down':
      return `↓${mark.by}`;
    case 'new':
      return 'new';
    case 'dropped':
      return 'only A';
    case 'same':
      return '';
  }
}
