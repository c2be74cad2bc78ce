// A connection's state as the connection lists show it (src/platform/connection/connectionStates.ts): a local
// project whose first start outlasts the list's check is "starting", not "error: projects.current was cancelled".
// The start is held back by a gate (a busy machine), then given the real local service's endpoint; the key is
// checked against that real service over HTTP.
import assert from 'node:assert/strict';
import { ApiClient } from '../../../src/api/client';
import type { Connection } from '../../../src/core/connections';
import { checkConnectionState } from '../../../src/platform/connection/connectionStates';
import type { ResolvedEndpoints } from '../../../src/platform/connection/connectionEndpoints';
import { startTestService, type TestService } from '../support/localService';

const BETA: Connection = { id: 'c-beta', name: 'Beta project', target: { kind: 'local', project: 'c-beta' } };
const LOCAL: Connection = { id: 'local', name: 'Local', target: { kind: 'local', project: 'default' } };

describe('Connection states in the lists: a local project still starting', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t.stop());

  /** A window whose Local is active and whose Beta project starts when `release` is called. */
  function windowWithSlowStart() {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const endpoint: ResolvedEndpoints = {
      baseUrl: t.service.url,
      nluUrl: t.service.url,
      localKeys: { apiKey: t.service.apiKey, nluApiKey: t.service.nluApiKey },
    };
    const manager = {
      active: LOCAL,
      refresh: () => Promise.reject(new Error('the active connection is not checked here')),
      endpoints: async () => (await gate, endpoint),
      verifyKey: async (_c: Connection, key: string, signal?: AbortSignal) =>
        void (await new ApiClient({ baseUrl: t.service.url, apiKey: key }).projects.checkKey({ signal, maxRetries: 0 })),
    };
    return { manager, release };
  }
  const noStoredKey = { get: async () => undefined };

  it('is "starting" when the check’s time ends before the service has started, and does not wait for the start', async () => {
    const { manager, release } = windowWithSlowStart();
    const check = new AbortController();
    const state = checkConnectionState(manager as never, noStoredKey as never, BETA, check.signal);
    check.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    // Started just after the time ended: a check that waited for the start would send its key check cut, "error".
    release();
    const status = await state;
    assert.equal(status.state, 'starting', JSON.stringify(status));
    assert.deepEqual(status.connection, { id: BETA.id, name: BETA.name });
  });

  it('is "connected" once the service started within the time, with the project’s own key', async () => {
    const { manager, release } = windowWithSlowStart();
    release();
    const status = await checkConnectionState(manager as never, noStoredKey as never, BETA, new AbortController().signal);
    assert.equal(status.state, 'connected', JSON.stringify(status));
    assert.equal(status.baseUrl, t.service.url);
  });

  it('a remote connection cut by the time is still an error (only a local start is waited out)', async () => {
    const { manager, release } = windowWithSlowStart();
    const check = new AbortController();
    const us: Connection = { id: 'us', name: 'US', target: { kind: 'us' } };
    const state = checkConnectionState(manager as never, noStoredKey as never, us, check.signal);
    check.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    release();
    assert.notEqual((await state).state, 'starting');
  });

  it('the active connection: its check, or "checking…" when that outlasts the list’s time, without waiting for it', async () => {
    const hangs = { ...windowWithSlowStart().manager, refresh: () => new Promise<never>(() => undefined) };
    const check = new AbortController();
    const state = checkConnectionState(hangs as never, noStoredKey as never, LOCAL, check.signal);
    check.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    const status = await state;
    assert.equal(status.state, 'checking', JSON.stringify(status));
    assert.deepEqual(status.connection, { id: LOCAL.id, name: LOCAL.name });

    const answers = { ...hangs, refresh: async () => ({ state: 'connected' as const, region: 'local' as const }) };
    const checked = await checkConnectionState(answers as never, noStoredKey as never, LOCAL, new AbortController().signal);
    assert.equal(checked.state, 'connected');
  });
});
