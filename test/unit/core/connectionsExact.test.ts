// The stored connection list is read at every activation without zod (exactConnection); the zod schema stays the
// rule. Each case here must get the same answer from both: taken as it is, or left to the schema.
import assert from 'node:assert/strict';
import { connectionSchemas, exactConnection, readConnections, serialize, type Connection } from '../../../src/core/connections';

const valid: unknown[] = [
  { id: 'local', name: 'Local', target: { kind: 'local', project: 'default' } },
  { id: 'us', name: 'US', target: { kind: 'us' } },
  { id: 'custom', name: 'Custom', target: { kind: 'custom' } },
  { id: 'c-1', name: 'Staging', target: { kind: 'custom', baseUrl: 'https://x.example', nluUrl: 'https://n.example' } },
  { id: 'c-2', name: 'Mine', target: { kind: 'ja' }, identity: { userEmail: 'a@b.c', ownUserId: 'u1' } },
  { id: 'c-3', name: 'Empty identity', target: { kind: 'us' }, identity: {} },
  { id: 'c-4', name: 'x'.repeat(80), target: { kind: 'custom', baseUrl: undefined } },
];
const refused: unknown[] = [
  null,
  [],
  'local',
  { id: 'bad id', name: 'A', target: { kind: 'us' } },
  { id: 'x'.repeat(65), name: 'A', target: { kind: 'us' } },
  { id: 'a', name: '', target: { kind: 'us' } },
  { id: 'a', name: '   ', target: { kind: 'us' } },
  { id: 'a', name: 'x'.repeat(81), target: { kind: 'us' } },
  { id: 'a', name: 'A', target: { kind: 'eu' } },
  { id: 'a', name: 'A', target: { kind: 'us', baseUrl: 'https://x' } },
  { id: 'a', name: 'A', target: { kind: 'local' } },
  { id: 'a', name: 'A', target: { kind: 'local', project: '../up' } },
  { id: 'a', name: 'A', target: { kind: 'custom', baseUrl: 3 } },
  { id: 'a', name: 'A', target: { kind: 'us' }, extra: true },
  { id: 'a', name: 'A', target: { kind: 'us' }, identity: { userEmail: 1 } },
  { id: 'a', name: 'A', target: { kind: 'us' }, identity: { other: 'x' } },
  { id: 'a', name: 'A', target: { kind: 'us' }, identity: null },
  { id: 'a', name: 'A', target: null },
  { name: 'A', target: { kind: 'us' } },
];
// The schema takes these, but not as they are (it trims the name): they are left to it.
const changedBySchema: unknown[] = [{ id: 'a', name: '  Padded  ', target: { kind: 'us' } }];

describe('Reading the stored connections without zod', () => {
  it('takes exactly the connections the schema takes unchanged, as the schema returns them', () => {
    const schema = connectionSchemas().connection;
    for (const raw of valid) {
      const parsed = schema.safeParse(raw);
      assert.ok(parsed.success, JSON.stringify(raw));
      assert.deepEqual(JSON.parse(JSON.stringify(exactConnection(raw))), JSON.parse(JSON.stringify(parsed.data)), JSON.stringify(raw));
    }
    for (const raw of refused) {
      assert.equal(schema.safeParse(raw).success, false, JSON.stringify(raw));
      assert.equal(exactConnection(raw), undefined, JSON.stringify(raw));
    }
    for (const raw of changedBySchema) {
      assert.ok(schema.safeParse(raw).success);
      assert.equal(exactConnection(raw), undefined, JSON.stringify(raw));
    }
  });

  it('a list with one entry the schema must look at reads as the schema reads it', () => {
    const stored = { version: 1, connections: [valid[0], changedBySchema[0], refused[3]] };
    const read = readConnections(stored);
    assert.deepEqual(
      read.connections.map((c) => c.name),
      ['Local', 'Padded', 'US', 'JA', 'Custom'],
    );
    assert.match(read.problem ?? '', /1 of 3 entries dropped/);
  });

  it('a list as Knowledge Desk writes it reads back the same, and serialize() still refuses what the schema refuses', () => {
    const list = valid as Connection[];
    const written = JSON.parse(JSON.stringify(serialize(list)));
    assert.deepEqual(readConnections(written), { connections: written.connections, fresh: false });
    assert.throws(() => serialize([refused[3] as Connection]));
    assert.equal(serialize([changedBySchema[0] as Connection]).connections[0]?.name, 'Padded');
  });
});
