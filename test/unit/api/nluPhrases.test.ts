import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:http';
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
    assert.deepEqual(res, { success: true }, 'the public answer');
    const again = await client().nlu.infer('Ask the Zephyr Desk team about ナレッジ箱 in 東京.');
    assert.deepEqual(tags(again), ['PRODUCT:Zephyr Desk', 'PRODUCT:ナレッジ箱', 'LOCATION:東京']);
    // The older single-object shape is still accepted, and answered exactly as the service answers (docs/api.md).
    const body = { text, entities: [span(text, 'Zephyr Desk', 'PRODUCT'), span(text, 'ナレッジ箱', 'PRODUCT')] };
    assert.deepEqual(await raw('train', body), { status: 200, json: { success: true } });
    assert.deepEqual(await raw('train', body), { status: 200, json: { success: true } }, 'posted again');
  });

  it('sends the public shape: a JSON array of {text, entities: [{start, end, tag: {name}, token}]}', async () => {
    const seen: unknown[] = [];
    let answer = '{"success": true}';
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ url: req.url, body: JSON.parse(body) });
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const remote = new ApiClient({ baseUrl: url, apiKey: 'k', nluApiKey: 'n' });
      const text = 'I am traveling from Munich to Paris by Air France business class';
      const res = await remote.nlu.addPhrase(text, [
        span(text, 'Munich', 'DEPARTURE'),
        { ...span(text, 'Paris', 'ARRIVAL'), token: 'Paris' },
      ]);
      assert.deepEqual(res, { success: true });
      // Exactly the request example of the public documentation (test/fixtures/public-examples).
      assert.deepEqual(seen, [
        {
          url: '/api/add_phrase/train',
          body: [
            {
              text,
              entities: [
                { start: 20, end: 26, tag: { name: 'DEPARTURE' }, token: 'Munich' },
                { start: 30, end: 35, tag: { name: 'ARRIVAL' }, token: 'Paris' },
              ],
            },
          ],
        },
      ]);
      // An older deployment's answer (no `success` field) is still a success for the client.
      answer = '{"result": "success", "data_type": "train", "id": "p1", "learned": 1}';
      assert.deepEqual(await remote.nlu.addPhrase(text, [span(text, 'Munich', 'DEPARTURE')]), {
        result: 'success',
        data_type: 'train',
        id: 'p1',
        learned: 1,
      });
      // A 2xx saying success: false is a failure the caller sees.
      answer = '{"success": false}';
      await assert.rejects(remote.nlu.addPhrase(text, [span(text, 'Munich', 'DEPARTURE')]), /success/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('accepts the public array shape on the local service: every phrase checked before any is stored', async () => {
    const text = 'Osprey Air flies from Munich.';
    const ok = await raw('train', [
      { text, entities: [{ start: 0, end: 10, tag: { name: 'AIRLINE' }, token: 'Osprey Air' }] },
      { text: 'Heron Rail runs late.', entities: [{ start: 0, end: 10, tag: { name: 'RAILWAY' }, token: 'Heron Rail' }] },
    ]);
    assert.deepEqual(ok, { status: 200, json: { success: true } });
    assert.deepEqual(tags(await client().nlu.infer('Osprey Air and Heron Rail')), ['AIRLINE:Osprey Air', 'RAILWAY:Heron Rail']);
    const cases: Array<[unknown, RegExp]> = [
      [[], /The phrase array is empty/],
      [[{ text: '' }], /'\[0\]\.text' is empty/],
      [
        [
          { text, entities: [{ start: 0, end: 10, tag: { name: 'X' } }] },
          { text, entities: [{ start: 3, end: 1, tag: { name: 'X' } }] },
        ],
        /\[1\]\.entities\[0\]: start \(3\) must be less than end \(1\)/,
      ],
      [
        [{ text, entities: [{ startIndex: 0, endIndex: 3, tag: { name: 'X' } }] }],
        /\[0\]\.entities\[0\]\.start must be a non-negative integer/,
      ],
      [[{ text, entities: [{ start: 0, end: 99, tag: { name: 'X' } }] }], /\[0\]\.entities\[0\]\.end \(99\) is beyond 'text'/],
      [[{ text, entities: [{ start: 0, end: 6, tag: {} }] }], /\[0\]\.entities\[0\]\.tag is empty/],
      [[{ text, entities: [{ start: 0, end: 6, tag: { name: 'X' }, token: 'Heron' }] }], /token "Heron" is not the text/],
      [[{ text: 'Swift Co', entities: [{ start: 0, end: 8, tag: { name: 'NEVER' } }] }, 'not a phrase'], /'\[1\]\.text' is empty/],
    ];
    for (const [body, message] of cases) {
      const res = await raw('train', body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(res.json.code, 7003);
      assert.match(String(res.json.message), message);
    }
    assert.deepEqual(tags(await client().nlu.infer('Swift Co')), [], 'nothing of a rejected array was learned');
  });

  it('stores a test phrase for evaluation without learning it', async () => {
    const text = 'Blue Heron Labs ships on Friday.';
    const res = await client().nlu.addPhrase(text, [span(text, 'Blue Heron Labs', 'ORGANIZATION')], 'test');
    assert.deepEqual(res, { success: true });
    const old = await raw('test', { text, entities: [span(text, 'Blue Heron Labs', 'ORGANIZATION')] });
    assert.deepEqual(old, { status: 200, json: { success: true } }, 'the older shape, answered as the service does');
    assert.deepEqual(tags(await client().nlu.infer('Blue Heron Labs ships on Friday.')), ['DATE:Friday']);
  });

  it('treats any data_type other than test as train', async () => {
    const text = 'Meet Kestrel at noon.';
    const res = await raw('validation', { text, entities: [span(text, 'Kestrel', 'CODENAME')] });
    assert.deepEqual(res, { status: 200, json: { success: true } });
    assert.deepEqual(tags(await client().nlu.infer('Kestrel is late')), ['CODENAME:Kestrel']);
    await raw('TEST', { text: 'Merlin', entities: [{ startIndex: 0, endIndex: 6, tag: 'CODENAME' }] });
    assert.deepEqual(tags(await client().nlu.infer('Merlin is late')), ['CODENAME:Merlin'], 'test is matched exactly');
  });

  it('accepts a phrase without entities', async () => {
    assert.deepEqual(await raw('test', { text: 'Nothing to see here.' }), { status: 200, json: { success: true } });
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
