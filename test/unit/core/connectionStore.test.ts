// The connection store and the migration from per-region keys, with a plain Memento and key store (the
// real SecretStorage: test/integration/connections.test.ts).
import assert from 'node:assert/strict';
import { ACTIVE_KEY, CONNECTIONS_KEY, type ConnectionError, ConnectionStore } from '../../../src/core/connectionStore';
import { readConnections } from '../../../src/core/connections';

class Memory {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    // A copy, as VS Code's Memento hands out: the store must write to change anything.
    const v = this.values.get(key);
    return v === undefined ? undefined : (structuredClone(v) as T);
  }
  update(key: string, value: unknown): Promise<void> {
    this.values.set(key, structuredClone(value));
    return Promise.resolve();
  }
}

/** Keys by `kind.owner`, as Secrets names them in SecretStorage. */
class Keys {
  readonly values = new Map<string, string>();
  delete(kind: string, owner: string): Promise<void> {
    this.values.delete(`${kind}.${owner}`);
    return Promise.resolve();
  }
}

function fresh(region: 'local' | 'us' | 'ja' | 'custom' = 'local', preferred?: string) {
  const state = new Memory();
  const keys = new Keys();
  const store = new ConnectionStore(state, keys);
  const loaded = store.load(region, preferred);
  return { state, keys, store, loaded };
}

describe('Connection store', () => {
  it('migrates on first start: US, JA, Custom and Local with the regions’ ids (their keys unmoved), active = the region setting', async () => {
    const { state, store, loaded } = fresh('ja');
    await loaded.saved;
    assert.equal(loaded.migrated, true);
    assert.deepEqual(
      store.connections.map((c) => [c.id, c.name, c.target.kind]),
      [
        ['us', 'US', 'us'],
        ['ja', 'JA', 'ja'],
        ['custom', 'Custom', 'custom'],
        ['local', 'Local', 'local'],
      ],
    );
    assert.equal(store.active.name, 'JA');
    assert.equal(state.get(ACTIVE_KEY), 'ja');
    // The next start reads what was stored: no second migration, and the region setting no longer decides.
    const again = new ConnectionStore(state, new Keys());
    const next = again.load('us');
    assert.equal(next.migrated, false);
    assert.equal(again.active.id, 'ja');
  });

  it('adds, renames (unique names, case-insensitive) and switches; the list survives a restart', async () => {
    const { state, store } = fresh();
    const staging = await store.add('  Staging ', { kind: 'custom', baseUrl: 'http://127.0.0.1:9' });
    assert.equal(staging.name, 'Staging');
    assert.match(staging.id, /^c-[\w-]+$/);
    await assert.rejects(store.add('staging', { kind: 'us' }), (e: ConnectionError) => e.reason === 'duplicate');
    await assert.rejects(store.add('   ', { kind: 'us' }), (e: ConnectionError) => e.reason === 'empty');
    await assert.rejects(store.rename('local', 'STAGING'), (e: ConnectionError) => e.reason === 'duplicate');
    await store.rename(staging.id, 'staging (old)');
    await store.setActive(staging.id);
    const events: string[] = [];
    const again = new ConnectionStore(state, new Keys());
    again.onDidChange(() => events.push(again.active.name));
    again.load('local');
    assert.equal(again.active.name, 'staging (old)');
    assert.deepEqual(again.get(staging.id)?.target, { kind: 'custom', baseUrl: 'http://127.0.0.1:9' });
    assert.deepEqual(events, ['staging (old)']);
  });

  it('removes a connection with its keys; removing the active one switches to Local and says which', async () => {
    const { store, keys } = fresh('us');
    keys.values.set('apiKey.us', 'k1').set('nluApiKey.us', 'k2').set('apiKey.ja', 'k3');
    const now = await store.remove('us');
    assert.equal(now?.id, 'local');
    assert.equal(store.active.id, 'local');
    assert.deepEqual([...keys.values.keys()], ['apiKey.ja']);
    assert.equal(await store.remove('ja'), undefined, 'not the active one');
    await store.remove('custom');
    await assert.rejects(store.remove('local'), (e: ConnectionError) => e.reason === 'last');
  });

  it('a list edited into nonsense is reported, keeps its valid entries and gets the defaults back (keys untouched)', async () => {
    const state = new Memory();
    await state.update(CONNECTIONS_KEY, {
      version: 1,
      connections: [
        { id: 'c-1', name: 'Prod', target: { kind: 'us' } },
        { id: 'c-2', name: 'Broken', target: { kind: 'mars' } },
        'nonsense',
      ],
    });
    await state.update(ACTIVE_KEY, 'c-2');
    const store = new ConnectionStore(state, new Keys());
    const loaded = store.load('local');
    await loaded.saved;
    assert.match(loaded.problem ?? '', /2 of 3 entries dropped/);
    assert.deepEqual(
      store.connections.map((c) => c.name),
      ['Prod', 'US', 'JA', 'Custom', 'Local'],
    );
    assert.equal(store.active.id, 'local', 'the active one was dropped: Local');
    // What was written back reads cleanly.
    assert.equal(readConnections(state.get(CONNECTIONS_KEY)).problem, undefined);
    for (const raw of [42, 'x', null, { version: 2 }, { version: 1, connections: 'x' }]) {
      const r = readConnections(raw);
      assert.ok(r.problem, JSON.stringify(raw));
      assert.equal(r.connections.length, 4);
    }
    // Two entries with one name (by hand): the first stays.
    const dup = readConnections({
      version: 1,
      connections: [
        { id: 'a', name: 'X', target: { kind: 'us' } },
        { id: 'b', name: 'x', target: { kind: 'ja' } },
      ],
    });
    assert.deepEqual(
      dup.connections.map((c) => c.id),
      ['a'],
    );
    assert.match(dup.problem ?? '', /repeat/);
  });

  it('a workspace preference picks a connection by name for this window only, and an unknown name creates nothing', async () => {
    const { state, store } = fresh();
    await store.add('Staging', { kind: 'ja' });
    const before = JSON.stringify(state.get(CONNECTIONS_KEY));
    const preferring = new ConnectionStore(state, new Keys());
    assert.equal(preferring.load('local', 'STAGING').unknownPreference, undefined);
    assert.equal(preferring.active.name, 'Staging');
    assert.equal(state.get(ACTIVE_KEY), 'local', 'the preference is not stored');
    const hostile = new ConnectionStore(state, new Keys());
    assert.equal(hostile.load('local', 'https://attacker.example').unknownPreference, 'https://attacker.example');
    assert.equal(hostile.active.id, 'local');
    assert.equal(JSON.stringify(state.get(CONNECTIONS_KEY)), before, 'the list is unchanged');
  });

  it('the deprecated region setting switches to its connection, adding the default back if it was removed', async () => {
    const { store } = fresh();
    await store.remove('us');
    await store.add('us', { kind: 'custom', baseUrl: 'https://x.example' });
    await store.activateRegion('us');
    assert.equal(store.active.id, 'us');
    assert.equal(store.active.name, 'US (us)', 'the user took the name US');
  });
});
