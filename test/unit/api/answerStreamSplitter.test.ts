import assert from 'node:assert/strict';
import { JsonObjectSplitter } from '../../../src/api/stream/jsonObjectSplitter';

describe('JsonObjectSplitter', () => {
  it('returns objects as they complete and exposes the open one', () => {
    const splitter = new JsonObjectSplitter();
    assert.deepEqual(splitter.push('{"a":1}{"b":'), ['{"a":1}']);
    assert.equal(splitter.inObject, true);
    assert.equal(splitter.partialText, '{"b":');
    assert.deepEqual(splitter.push('"}{"'), []);
    assert.equal(splitter.partialText, '{"b":"}{"');
    assert.deepEqual(splitter.push('\n}'), ['{"b":"}{"\n}']);
    assert.equal(splitter.inObject, false);
    assert.equal(splitter.partialText, '');
  });

  it('tracks escapes, so an escaped quote or backslash does not end a string', () => {
    const splitter = new JsonObjectSplitter();
    const text = '{"a":"\\"}","b":"\\\\"}';
    const found = [...text].flatMap((ch) => splitter.push(ch));
    assert.deepEqual(found, [text]);
    assert.deepEqual(JSON.parse(found[0]!), { a: '"}', b: '\\' });
  });

  it('ignores SSE framing, [DONE] and array punctuation between objects', () => {
    const splitter = new JsonObjectSplitter();
    const found = splitter.push(
      ': comment {"no":1}\nevent: x {"no":2}\nid: 7\nretry: 10\ndata: {"yes":1}\n\ndata:{"yes":2}\ndata: [DONE]\n[{"yes":3},\n{"yes":4}]',
    );
    assert.deepEqual(found, ['{"yes":1}', '{"yes":2}', '{"yes":3}', '{"yes":4}']);
    assert.equal(splitter.inObject, false);
  });

  it('takes time linear in the input, even when fed one character at a time', () => {
    // Compared with itself at two sizes (CPU time, best of three), not with a wall-clock limit: 8 times the
    // input costs about 8 times the work if linear, 64 times if quadratic. The absolute figure is in `npm run bench`.
    const cpuMsFor = (size: number): number => {
      let best = Infinity;
      for (let run = 0; run < 3; run++) {
        const splitter = new JsonObjectSplitter();
        const text = `{"answer":"${'x'.repeat(size)}"}`;
        const before = process.cpuUsage();
        let found: string[] = [];
        for (const ch of text) found = found.concat(splitter.push(ch));
        const used = process.cpuUsage(before);
        assert.equal(found.length, 1);
        assert.equal(found[0]!.length, text.length);
        best = Math.min(best, (used.user + used.system) / 1000);
      }
      return best;
    };
    cpuMsFor(20_000); // warm-up: let the JIT settle before measuring
    const small = cpuMsFor(50_000);
    const large = cpuMsFor(400_000);
    const ratio = large / Math.max(small, 1);
    assert.ok(ratio < 24, `8× the input took ${ratio.toFixed(1)}× the CPU time (${small.toFixed(0)} → ${large.toFixed(0)} ms): not linear`);
  });
});
