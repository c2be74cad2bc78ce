import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { ApiClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import { startLocalService, type LocalService } from '../../../src/local/service';

const tags = (res: { entities: Array<{ tag: string; token: string }> }): string[] => res.entities.map((e) => `${e.tag}:${e.token}`);
const span = (text: string, token: string, tag: string) => ({
  startIndex: text.indexOf(token),
  endIndex: text.indexOf(token) + token.length,
  tag,
});

describe('Entity recognition: add_phrase, learning and persistence (local service)', () => {
  let dir: string;
  let service: LocalService;
  const client = (): ApiClient => new ApiClient({ baseUrl: service.url, apiKey: service.apiKey, nluApiKey: service.nluApiKey });
  const raw = async (dataType: string, body: unknown) => {
    const res = await request(`${service.url}/api/add_phrase/${dataType}`, {
      method: 'POST',
      headers: { 'API-KEY': service.nluApiKey, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
  };

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kd-nlu-'));
    service = await startLocalService({ dataDir: dir }); // fsync on, as in real use
  });
  after(async () => {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('learns a train phrase: its token is recognised afterwards in another sentence, with a new tag', async () => {
    assert.deepEqual(tags(await client().nlu.infer('Ask the Zephyr Desk team about ナレッジ箱.')), []);
    const text = 'We launched Zephyr Desk and ナレッジ箱 last spring.';
    const res = await client().nlu.addPhrase(
      text,
      [span(text, 'Zephyr Desk', 'PRODUCT'), { ...span(text, 'ナレッジ箱', 'PRODUCT'), token: 'ナレッジ箱' }],
      'train',
    );
    assert.deepEqual({ ...(res as object), id: undefined }, { result: 'success', data_type: 'train', id: undefined, learned: 2 });
    assert.match((res as { id: string }).id, /^[\w-]{22}$/);
    const again = await client().nlu.infer('Ask the Zephyr Desk team about ナレッジ箱 in 東京.');
    assert.deepEqual(tags(again), ['PRODUCT:Zephyr Desk', 'PRODUCT:ナレッジ箱', 'LOCATION:東京']);
    // The same phrase again: stored once (same id), nothing new learned.
    const repeat = (await client().nlu.addPhrase(
      text,
      [span(text, 'Zephyr Desk', 'PRODUCT'), span(text, 'ナレッジ箱', 'PRODUCT')],
      'train',
    )) as { id: string; learned: number };
    assert.equal(repeat.id, (res as { id: string }).id);
    assert.equal(repeat.learned, 0);
  });

  it('stores a test phrase for evaluation without learning it', async () => {
    const text = 'Blue Heron Labs ships on Friday.';
    const res = await client().nlu.addPhrase(text, [span(text, 'Blue Heron Labs', 'ORGANIZATION')], 'test');
    assert.deepEqual({ ...(res as object), id: undefined }, { result: 'success', data_type: 'test', id: undefined, learned: 0 });
    assert.deepEqual(tags(await client().nlu.infer('Blue Heron Labs ships on Friday.')), ['DATE:Friday']);
  });

  it('treats any data_type other than test as train', async () => {
    const text = 'Meet Kestrel at noon.';
    const res = await raw('validation', { text, entities: [span(text, 'Kestrel', 'CODENAME')] });
    assert.equal(res.status, 200);
    assert.equal(res.json.data_type, 'train');
    assert.equal(res.json.learned, 1);
    assert.deepEqual(tags(await client().nlu.infer('Kestrel is late')), ['CODENAME:Kestrel']);
    assert.equal(
      (await raw('TEST', { text: 'Osprey', entities: [{ startIndex: 0, endIndex: 6, tag: 'CODENAME' }] })).json.data_type,
      'train',
      'test is matched exactly',
    );
  });

  it('accepts a phrase without entities', async () => {
    const res = await raw('test', { text: 'Nothing to see here.' });
    assert.equal(res.status, 200);
    assert.equal(res.json.learned, 0);
  });

  it('rejects invalid phrases with 400/7003 and a message naming the problem', async () => {
    const text = 'Teach Falcon here.';
    const cases: Array<[unknown, RegExp]> = [
      [{ text: '', entities: [] }, /'text' is empty\.$/],
      [{ entities: [] }, /'text' is empty\.$/],
      [{ text, entities: {} }, /'entities' must be an array/],
      [{ text, entities: ['Falcon'] }, /entities\[0\] must be an object/],
      [{ text, entities: [{ startIndex: -1, endIndex: 3, tag: 'X' }] }, /entities\[0\]\.startIndex must be a non-negative integer/],
      [{ text, entities: [{ startIndex: 1.5, endIndex: 3, tag: 'X' }] }, /entities\[0\]\.startIndex must be a non-negative integer/],
      [{ text, entities: [{ startIndex: 6, endIndex: '12', tag: 'X' }] }, /entities\[0\]\.endIndex must be a non-negative integer/],
      [{ text, entities: [{ startIndex: 12, endIndex: 6, tag: 'X' }] }, /startIndex \(12\) must be less than endIndex \(6\)/],
      [
        { text, entities: [{ startIndex: 6, endIndex: 99, tag: 'X' }] },
        /entities\[0\]\.endIndex \(99\) is beyond 'text' \(18 characters\)/,
      ],
      [{ text, entities: [{ startIndex: 6, endIndex: 12, tag: ' ' }] }, /entities\[0\]\.tag is empty/],
      [{ text, entities: [{ startIndex: 6, endIndex: 12 }] }, /entities\[0\]\.tag is empty/],
      [{ text, entities: [{ startIndex: 6, endIndex: 12, tag: 'T'.repeat(65) }] }, /longer than 64 characters/],
      [
        { text, entities: [{ startIndex: 6, endIndex: 12, tag: 'BIRD', token: 'Hawk' }] },
        /entities\[0\]\.token "Hawk" is not the text at 6–12 \("Falcon"\)/,
      ],
      [{ text, entities: [{ startIndex: 5, endIndex: 6, tag: 'BIRD' }] }, /entities\[0\] covers only whitespace/],
      [
        {
          text,
          entities: [
            { startIndex: 6, endIndex: 12, tag: 'A' },
            { startIndex: 8, endIndex: 17, tag: 'B' },
          ],
        },
        /entities\[1\] overlaps entities\[0\]/,
      ],
      [
        { text: `${'x'.repeat(1995)} Falcon`, entities: [{ startIndex: 1996, endIndex: 2002, tag: 'BIRD' }] },
        /endIndex \(2002\) is beyond the first 2000 characters of 'text' \(the rest is ignored\)/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await raw('train', body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(res.json.type, 'APIError');
      assert.equal(res.json.code, 7003);
      assert.match(String(res.json.message), /^Requested parameters are not valid\. /);
      assert.match(String(res.json.message), message);
    }
    const invalidJson = await raw('train', '{"text": ');
    assert.deepEqual(invalidJson, {
      status: 403,
      json: { type: 'APIError', code: 7002, message: 'Cannot decode the requested JSON body.' },
    });
    await assert.rejects(client().nlu.addPhrase('', [], 'train'), (e: unknown) => e instanceof ApiError && e.code === 7003);
    assert.deepEqual(tags(await client().nlu.infer('Falcon flies')), [], 'nothing of the rejected phrases was learned');
  });

  it('keeps taught phrases (train and test) across a restart, learning only train', async () => {
    const text = 'Pelican Works opened an office in Nagano.';
    await client().nlu.addPhrase(text, [span(text, 'Pelican Works', 'ORGANIZATION')], 'train');
    await client().nlu.addPhrase('Falcon Freight moved.', [{ startIndex: 0, endIndex: 14, tag: 'ORGANIZATION' }], 'test');
    await service.close();
    service = await startLocalService({ dataDir: dir });
    const res = await client().nlu.infer('Zephyr Desk by Pelican Works, Kestrel and Falcon Freight in 長野.');
    assert.deepEqual(tags(res), ['PRODUCT:Zephyr Desk', 'ORGANIZATION:Pelican Works', 'CODENAME:Kestrel', 'LOCATION:長野']);
  });
});
