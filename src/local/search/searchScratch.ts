// The retrieval index's per-search work arrays (retrievalIndex.ts), kept apart from the index itself.

/**
 * A search's work arrays, by slot, kept between searches (which are synchronous). Allocating them per search
 * (~0.5 MB at 10,000 passages, outside the JS heap) made the service run a full garbage collection every
 * few dozen searches — the spikes of the HTTP p95.
 */
export class Scratch {
  ok = new Uint8Array(0);
  bm25 = new Float64Array(0);
  matched = new Uint16Array(0);
  /** The user's words each passage already holds or stands in for (Bm25Index.score). */
  covered = new Uint32Array(0);
  text = new Float64Array(0);
  title = new Float64Array(0);
  fused = new Float64Array(0);
  positive = new Uint32Array(0);
  private capacity = 0;

  /** Views of exactly `slots` entries, zeroed. */
  reset(slots: number): {
    ok: Uint8Array;
    bm25: Float64Array;
    matched: Uint16Array;
    covered: Uint32Array;
    text: Float64Array;
    title: Float64Array;
    fused: Float64Array;
    positive: Uint32Array;
  } {
    if (slots > this.capacity) {
      this.capacity = Math.max(slots, Math.ceil(this.capacity * 1.5));
      const n = this.capacity;
      [this.ok, this.bm25, this.matched, this.covered, this.text, this.title, this.fused, this.positive] = [
        new Uint8Array(n),
        new Float64Array(n),
        new Uint16Array(n),
        new Uint32Array(n),
        new Float64Array(n),
        new Float64Array(n),
        new Float64Array(n),
        new Uint32Array(n),
      ];
    } else {
      for (const a of [this.ok, this.bm25, this.matched, this.covered, this.text, this.title]) a.fill(0, 0, slots);
    }
    return {
      ok: this.ok.subarray(0, slots),
      bm25: this.bm25.subarray(0, slots),
      matched: this.matched.subarray(0, slots),
      covered: this.covered.subarray(0, slots),
      text: this.text.subarray(0, slots),
      title: this.title.subarray(0, slots),
      fused: this.fused.subarray(0, slots),
      positive: this.positive,
    };
  }
}
