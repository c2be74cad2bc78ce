// jsonChunks gives exactly JSON.stringify's text, in bounded pieces (the answers of the local service are
// streamed with it, so a client that never reads holds one piece per connection, not the whole answer).
import assert from 'node:assert/strict';
import { jsonChunks } from '../../../../src/local/http/jsonStream';

function collect(value: unknown, chunkChars: number): string[] {
  const it = jsonChunks(value, chunkChars);
  const pieces: string[] = [];
  for (let r = it.next(); ; r = it.next()) {
    pieces.push(r.value);
    if (r.done) return pieces;
  }
}

describe('Local service: JSON answers in pieces', () => {
  it('gives the text of JSON.stringify for every kind of value', () => {
    const date = new Date(Date.UTC(2026, 10, 27));
    const values: unknown[] = [
      null,
      0,
      -1.5e-7,
      NaN,
      Infinity,
      true,
      'plain',
      '"quoted"\n\\ \u0001 \u2028 é 😀',
      [],
      {},
      [1, undefined, () => 1, Symbol('s'), null, 'x'],
      { a: undefined, b: () => 1, c: Symbol('s'), d: 1, 'key "quoted"': [{ e: [] }], f: date },
      { toJSON: () => ({ replaced: true }) },
      {
        result: {
          pages: [
            { pageNo: 1, text: 'x'.repeat(10_000) },
            { pageNo: 2, text: '経費'.repeat(3000) },
          ],
        },
      },
      new Array(500).fill(0).map((_, i) => ({ id: `n${i}`, tags: ['a', 'b'], size: i * 1.5 })),
    ];
    for (const [i, value] of values.entries()) {
      for (const size of [1, 7, 64, 4096])
        assert.equal(collect(value, size).join(''), JSON.stringify(value), `value ${i}, pieces of ${size}`);
    }
  });

  it('keeps every piece near the chunk size, long strings included, and never splits a surrogate pair', () => {
    const text = '😀'.repeat(50_000) + 'a' + '\u0000'.repeat(1000);
    const pieces = collect({ result: { pages: [{ pageNo: 1, text }] } }, 1000);
    assert.ok(pieces.length > 100, `${pieces.length} pieces`);
    // A slice of `chunkChars` characters can grow sixfold when escaped (\u0000), plus the keys around it.
    for (const piece of pieces) assert.ok(piece.length <= 6 * 1000 + 64, `a piece of ${piece.length} characters`);
    for (const piece of pieces) assert.doesNotMatch(piece, /\\ud[89ab]/i, 'a lone half of a surrogate pair');
    assert.equal(pieces.join(''), JSON.stringify({ result: { pages: [{ pageNo: 1, text }] } }));
  });

  it('throws as JSON.stringify does on a cycle or a BigInt', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    assert.throws(() => collect(cycle, 64), TypeError);
    assert.throws(() => collect({ n: 1n }, 64), TypeError);
  });
});
