import assert from 'node:assert/strict';
import { request } from 'undici';
import type { ApiClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import { NLU_MAX_CHARS } from '../../../src/api/resources/nlu';
import type { Entity } from '../../../src/api/schemas/nlu';
import { startTestService, type TestService } from '../support/localService';

const EN =
  'Dr. Jane Smith of Acme Widgets, Inc. flies from London to Tokyo on November 21, 2026. ' +
  'Write to jane.smith@example.com, call +1 (415) 555-0123, see https://acme.example.com/trip — budget $1,200.';
const JA =
  '株式会社ナレッジの田中さんは2026年11月21日に大阪府へ出張します。連絡先はtanaka@example.jp、03-1234-5678、' +
  '詳細はhttps://example.jp/tripをご覧ください。予算は1.5万円です。';

function check(text: string, res: { inputText: string; entities: Entity[] }): Array<[string, string]> {
  assert.equal(res.inputText, text.slice(0, res.inputText.length));
  for (const e of res.entities) assert.equal(res.inputText.slice(e.startIndex, e.endIndex), e.token, `offsets of ${e.tag} ${e.token}`);
  return res.entities.map((e) => [e.tag, e.token]);
}

describe('Entity recognition: infer through the client (local service)', () => {
  let t: TestService;
  let client: ApiClient;
  before(async () => {
    t = await startTestService({ fsync: false });
    client = t.client();
  });
  after(() => t.stop());

  const raw = (path: string, init: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; key?: string; body?: string | Buffer } = {}) =>
    request(`${t.service.url}${path}`, {
      method: init.method ?? 'POST',
      headers: { 'API-KEY': init.key ?? t.service.nluApiKey, 'content-type': 'application/json' },
      body: init.body,
    }).then(async (res) => ({
      status: res.statusCode,
      json: (await res.body.json().catch(() => undefined)) as Record<string, unknown> | undefined,
    }));

  it('recognises every built-in tag in English', async () => {
    const res = await client.nlu.infer(EN);
    assert.equal(res.inputText, EN);
    assert.deepEqual(check(EN, res), [
      ['PERSON', 'Jane Smith'],
      ['ORGANIZATION', 'Acme Widgets, Inc.'],
      ['LOCATION', 'London'],
      ['LOCATION', 'Tokyo'],
      ['DATE', 'November 21, 2026'],
      ['EMAIL', 'jane.smith@example.com'],
      ['PHONE', '+1 (415) 555-0123'],
      ['URL', 'https://acme.example.com/trip'],
      ['MONEY', '$1,200'],
    ]);
  });

  it('recognises every built-in tag in Japanese', async () => {
    const res = await client.nlu.infer(JA);
    assert.deepEqual(check(JA, res), [
      ['ORGANIZATION', '株式会社ナレッジ'],
      ['PERSON', '田中'],
      ['DATE', '2026年11月21日'],
      ['LOCATION', '大阪府'],
      ['EMAIL', 'tanaka@example.jp'],
      ['PHONE', '03-1234-5678'],
      ['URL', 'https://example.jp/trip'],
      ['MONEY', '1.5万円'],
    ]);
  });

  it('gives UTF-16 offsets: emoji and surrogate pairs before an entity count two each', async () => {
    const text = '😀👨‍👩‍👧 𠮷野家で ¥12,000、明日 Tokyo 🎉 ops@example.com';
    const res = await client.nlu.infer(text);
    assert.deepEqual(check(text, res), [
      ['MONEY', '¥12,000'],
      ['DATE', '明日'],
      ['LOCATION', 'Tokyo'],
      ['EMAIL', 'ops@example.com'],
    ]);
    const money = res.entities[0];
    assert.equal(money.startIndex, text.indexOf('¥'));
    assert.equal(money.startIndex, 17, '😀 2 + 👨‍👩‍👧 8 + space + 𠮷 2 + 野家で 3 + space');
  });

  it('considers only the first 2,000 characters: inputText is those, an entity crossing the cut is not returned', async () => {
    assert.equal(NLU_MAX_CHARS, 2000);
    const filler = 'Lorem ipsum dolor sit amet. '.repeat(80).slice(0, 1994);
    const text = `${filler} jane@example.com then Tokyo far beyond the limit`;
    assert.equal(text.indexOf('jane'), 1995);
    const res = await client.nlu.infer(text);
    assert.equal(res.inputText.length, 2000);
    assert.equal(res.inputText, text.slice(0, 2000));
    assert.deepEqual(res.entities, [], 'neither the crossing e-mail address nor a piece of it, nor Tokyo after the cut');

    const exactly = `${'x'.repeat(1985)} ops@example.co`;
    assert.equal(exactly.length, 2000);
    assert.deepEqual(check(exactly, await client.nlu.infer(exactly + 'm')), [], 'ops@example.com crosses the cut by one character');
    assert.deepEqual(check(exactly, await client.nlu.infer(exactly + ' and more')), [['EMAIL', 'ops@example.co']]);
  });

  it('answers a 2,001-character text with its first 2,000 characters', async () => {
    const text = `${'あ'.repeat(1992)}東京都2026年X`;
    assert.equal(text.length, 2001);
    const res = await client.nlu.infer(text);
    assert.equal(res.inputText, text.slice(0, 2000));
    assert.deepEqual(check(text, res), [
      ['LOCATION', '東京都'],
      ['DATE', '2026年'],
    ]);
  });

  it('rejects empty or missing text with 400/7003 and the documented message', async () => {
    for (const body of ['{"text":""}', '{"text":"  \\n "}', '{}', '{"text":42}', '[]', '']) {
      const res = await raw('/api/inference', { body });
      assert.equal(res.status, 400, body);
      assert.deepEqual(res.json, { type: 'APIError', code: 7003, message: "Requested parameters are not valid. 'text' is empty." }, body);
    }
    await assert.rejects(
      client.nlu.infer(''),
      (e: unknown) => e instanceof ApiError && e.status === 400 && e.code === 7003 && /'text' is empty/.test(e.message),
    );
  });

  it('answers undecodable JSON with 403/7002, a wrong key with 403/7001 and a wrong method with 405', async () => {
    for (const body of ['{"text": "unterminated', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])]) {
      const res = await raw('/api/inference', { body });
      assert.equal(res.status, 403);
      assert.deepEqual(res.json, { type: 'APIError', code: 7002, message: 'Cannot decode the requested JSON body.' });
    }
    const wrongKey = await raw('/api/inference', { key: t.service.apiKey, body: '{"text":"Tokyo"}' });
    assert.deepEqual(wrongKey, { status: 403, json: { type: 'APIError', code: 7001, message: 'API-KEY is not valid.' } });
    await assert.rejects(
      t.client({ nluApiKey: 'kd_nlu_wrong' }).nlu.infer('Tokyo'),
      (e: unknown) => e instanceof ApiError && e.status === 403 && e.code === 7001,
    );
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await raw('/api/inference', { method, body: method === 'GET' ? undefined : '{"text":"Tokyo"}' });
      assert.equal(res.status, 405, method);
      assert.equal(res.json?.type, 'APIError');
    }
    assert.equal((await raw('/api/add_phrase/train', { method: 'GET' })).status, 405);
  });
});
