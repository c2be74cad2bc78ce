// The baseline: textbook BM25 (k1 1.2, b 0.75) over the pages exactly as the service extracted them, one
// page one document. Its tokenizer is deliberately plain and independent of src/local (NFKC, lower case,
// Intl.Segmenter words for every script), so the baseline stays put while the service's retrieval changes.

export interface PageRef {
  document: string;
  pageNo: number;
}

const segmenter = new Intl.Segmenter('ja', { granularity: 'word' });

export function plainTokens(text: string): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(text.normalize('NFKC').toLowerCase())) if (s.isWordLike) out.push(s.segment);
  return out;
}

export class PlainBm25 {
  private readonly pages: PageRef[] = [];
  private readonly lengths: number[] = [];
  private readonly postings = new Map<string, Map<number, number>>();
  private totalLength = 0;

  add(page: PageRef, text: string): void {
    const id = this.pages.length;
    const tokens = plainTokens(text);
    this.pages.push(page);
    this.lengths.push(tokens.length);
    this.totalLength += tokens.length;
    for (const t of tokens) {
      let p = this.postings.get(t);
      if (!p) this.postings.set(t, (p = new Map()));
      p.set(id, (p.get(id) ?? 0) + 1);
    }
  }

  /** The best `k` pages for `query`, best first (pages with no query term are left out). */
  search(query: string, k: number): PageRef[] {
    const n = this.pages.length;
    const avg = this.totalLength / Math.max(1, n);
    const scores = new Map<number, number>();
    for (const term of new Set(plainTokens(query))) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = Math.log(1 + (n - p.size + 0.5) / (p.size + 0.5));
      for (const [id, tf] of p)
        scores.set(id, (scores.get(id) ?? 0) + (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * this.lengths[id]) / avg)));
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([id]) => this.pages[id]);
  }
}
