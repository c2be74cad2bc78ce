// A local project's own key, stored for its connection on first use (src/platform/connection/localKeyAdoption.ts, the
// ConnectionManager's local-key steps): the real local service's keys, a Map-backed globalState and key store.
import assert from 'node:assert/strict';
import type { Connection } from '../../../src/core/connections';
import type { ResolvedEndpoints } from '../../../src/platform/connection/connectionEndpoints';
import { LocalKeyAdoption } from '../../../src/platform/connection/localKeyAdoption';
import { startTestService, type TestService } from '../support/localService';

const BETA: Connection = { id: 'c-beta', name: 'Beta project', target: { kind: 'local', project: 'c-beta' } };
const US: Connection = { id: 'us', name: 'US', target: { kind: 'us' } };

describe('Local key adoption: a local project’s own key, stored on first use', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t.stop());

  function window() {
    const state = new Map<string, unknown>();
    const keys = new Map<string, string>();
    let stores = 0;
    const endpoint = { url: t.service.url, apiKey: t.service.apiKey, nluApiKey: t.service.nluApiKey };
    const adoption = new LocalKeyAdoption(
      { host: () => ({ ensureStarted: async () => endpoint }) } as never,
      {
        get: async (kind: string, owner: string) => keys.get(`${kind}.${owner}`),
        store: async (kind: string, owner: string, value: string) => void (stores++, keys.set(`${kind}.${owner}`, value)),
        delete: async (kind: string, owner: string) => void keys.delete(`${kind}.${owner}`),
      } as never,
      { get: <T>(k: string) => state.get(k) as T | undefined, update: async (k: string, v: unknown) => void state.set(k, v) } as never,
      { info: () => undefined },
      async (c): Promise<ResolvedEndpoints> =>
        c.target.kind === 'local'
          ? { baseUrl: endpoint.url, nluUrl: endpoint.url, localKeys: { apiKey: endpoint.apiKey, nluApiKey: endpoint.nluApiKey } }
          : { baseUrl: 'https://us.example', nluUrl: 'https://us.example' },
    );
    return { adoption, keys, stores: () => stores };
  }

  it('endpointsInUse stores the project’s own key once, for two uses at the same time; the key answers the service', async () => {
    const w = window();
    const [a, b] = await Promise.all([w.adoption.endpointsInUse(BETA), w.adoption.endpointsInUse(BETA)]);
    assert.equal(a.baseUrl, t.service.url);
    assert.deepEqual(a, b);
    assert.equal(w.keys.get('apiKey.c-beta'), t.service.apiKey);
    assert.equal(w.keys.get('nluApiKey.c-beta'), t.service.nluApiKey);
    assert.equal(w.stores(), 2, 'one store of each key');
    await t.client({ apiKey: w.keys.get('apiKey.c-beta') }).projects.checkKey({ maxRetries: 0 });
    // A remote connection's endpoints come back as they are, no key stored for it.
    assert.equal((await w.adoption.endpointsInUse(US)).baseUrl, 'https://us.example');
    assert.equal(w.keys.has('apiKey.us'), false);
  });

  it('after Clear API Key the key is not stored again on use, until Connect stores it', async () => {
    const w = window();
    await w.adoption.endpointsInUse(BETA);
    await w.adoption.clear(BETA);
    assert.equal(w.keys.has('apiKey.c-beta'), false);
    await w.adoption.endpointsInUse(BETA);
    assert.equal(w.keys.has('apiKey.c-beta'), false, 'cleared by the person: not adopted again');
    await w.adoption.use(BETA);
    assert.equal(w.keys.get('apiKey.c-beta'), t.service.apiKey);
  });
});
