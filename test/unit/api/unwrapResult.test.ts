import assert from 'node:assert/strict';
import { z } from 'zod';
import { unwrapResult } from '../../../src/api/schemas/common';
import { ApiValidationError } from '../../../src/api/errors';
import { parseResponse } from '../../../src/api/validate';

// unwrapResult is its own zod type (not z.preprocess, see common.ts): it must read what z.preprocess read.
describe('unwrapResult', () => {
  const counts = unwrapResult(z.object({ total: z.number().int(), ready: z.number().int() }).passthrough());

  it('reads a body wrapped in { result } and the same body bare alike, extra fields kept', () => {
    const body = { total: 3, ready: 2, extra: 'x' };
    assert.deepEqual(counts.parse({ result: body }), body);
    assert.deepEqual(counts.parse(body), body);
  });

  it('reads a null result as the body itself, as z.preprocess did', () => {
    const loose = unwrapResult(z.object({ result: z.null() }));
    assert.deepEqual(loose.parse({ result: null }), { result: null });
  });

  it('names the failing field inside the wrapper, and the whole body when it is not an object', () => {
    assert.throws(
      () => parseResponse('faq.embeddingStatus', counts, { result: { total: 'many', ready: 1 } }),
      (e: unknown) => e instanceof ApiValidationError && /total/.test(e.message) && /should be number/.test(e.message),
    );
    assert.equal(counts.safeParse(undefined).success, false);
    assert.equal(counts.safeParse('text').success, false);
  });

  it('keeps the path of an enclosing schema and works in async parsing and with transforms inside', async () => {
    const nested = z.object({ items: z.array(unwrapResult(z.object({ n: z.number().transform((n) => n * 2) }))) });
    const failed = nested.safeParse({ items: [{ result: { n: 1 } }, { result: { n: 'x' } }] });
    assert.equal(failed.success, false);
    assert.deepEqual(failed.error?.issues[0].path, ['items', 1, 'n']);
    assert.deepEqual(await nested.parseAsync({ items: [{ result: { n: 1 } }, { n: 2 }] }), { items: [{ n: 2 }, { n: 4 }] });
    assert.deepEqual(unwrapResult(z.number()).optional().parse(undefined), undefined);
  });
});
