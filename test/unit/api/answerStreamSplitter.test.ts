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

  it('pushLines finds the same objects as push, whole NDJSON lines parsed at once and anything else scanned', () => {
    // Whole object lines (LF and CRLF), empty lines, two objects on one line, an object over lines, SSE, an array.
    const text =
      '{"a":1}\r\n\n{"b":"}{"}{"c":2}\n{"d":\n3}\n{"e":{"f":[1,"\\"}"]}}\ndata: {"g":4}\n: x {"no":1}\n[{"h":5},\n{"i":6}]\n{"j":7}';
    const expected = new JsonObjectSplitter().push(text).map((t) => JSON.parse(t) as unknown);
    assert.equal(expected.length, 9);
    const parsed = (found: Array<string | Record<string, unknown>>): unknown[] =>
      found.map((f) => (typeof f === 'string' ? (JSON.parse(f) as unknown) : f));
    for (const size of [1, 2, 5, 11, text.length]) {
      const splitter = new JsonObjectSplitter();
      const found: unknown[] = [];
      for (let at = 0; at < text.length; at += size) found.push(...parsed(splitter.pushLines(text.slice(at, at + size))));
      assert.deepEqual(found, expected, `pieces of ${size}`);
      assert.equal(splitter.inObject, false);
    }
    // A whole line that is one object comes back parsed; a line that is not valid JSON comes back as text, to be reported.
    const splitter = new JsonObjectSplitter();
    assert.deepEqual(splitter.pushLines('{"a":1}\n{"b":}\n'), [{ a: 1 }, '{"b":}']);
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
