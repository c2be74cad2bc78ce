// Several local projects (issue 27): where each keeps its data, and two of them as two real local services
// under one global storage folder, each with its own key and its own knowledge base.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiClient } from '../../../src/api/client';
import { AuthenticationError } from '../../../src/api/errors';
import { ConnectionStore } from '../../../src/core/connectionStore';
import { DEFAULT_PROJECT, readConnections } from '../../../src/core/connections';
import { startLocalService, type LocalService } from '../../../src/local/service';
import { localProjectDir } from '../../../src/platform/connection/process/localProjectDir';

const memory = () => {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: (key: string, value: unknown) => (values.set(key, value), Promise.resolve()),
  };
};
const noKeys = { delete: () => Promise.resolve() };

describe('Local projects', () => {
  let storage: string;
  const running: LocalService[] = [];

  beforeEach(async () => {
    storage = await mkdtemp(path.join(tmpdir(), 'kd-projects-'));
  });
  afterEach(async () => {
    for (const s of running.splice(0)) await s.close();
    await rm(storage, { recursive: true, force: true });
  });

  async function start(project: string): Promise<LocalService> {
    const service = await startLocalService({ dataDir: localProjectDir(storage, project), fsync: false });
    running.push(service);
    return service;
  }

  it('names a new project’s folder after the connection id, never the name typed; the default project keeps local-service', async () => {
    const store = new ConnectionStore(memory(), noKeys);
    store.load('local');
    const added = await store.addLocalProject('../../Documents');
    assert.match(added.id, /^c-[\w-]+$/);
    assert.deepEqual(added.target, { kind: 'local', project: added.id });
    assert.equal(localProjectDir(storage, (added.target as { project: string }).project), path.join(storage, 'local-projects', added.id));
    // The Local connection (migrated from the Local region) goes where the local service always kept its data.
    assert.deepEqual(store.get('local')?.target, { kind: 'local', project: DEFAULT_PROJECT });
    assert.equal(localProjectDir(storage, DEFAULT_PROJECT), path.join(storage, 'local-service'));
  });

  it('refuses a project id that is not a plain folder name, in a hand-edited list and at the last guard', () => {
    for (const project of ['../elsewhere', 'a/b', '', '.', 'x'.repeat(65)]) {
      assert.throws(() => localProjectDir(storage, project), /not a local project id/, project);
      const read = readConnections({ version: 1, connections: [{ id: 'c-1', name: 'Hand', target: { kind: 'local', project } }] });
      assert.equal(
        read.connections.find((c) => c.id === 'c-1'),
        undefined,
        `${JSON.stringify(project)} is dropped`,
      );
      assert.match(read.problem ?? '', /project/);
    }
  });

  it('runs two projects as two services with their own keys and knowledge bases; a project keeps its key across restarts', async () => {
    const first = await start(DEFAULT_PROJECT);
    const second = await start('c-second');
    assert.notEqual(first.apiKey, second.apiKey);
    assert.notEqual(first.nluApiKey, second.nluApiKey);
    // Each key is in its own folder's keys.json.
    const keysOf = async (project: string) => JSON.parse(await readFile(path.join(localProjectDir(storage, project), 'keys.json'), 'utf8'));
    assert.equal((await keysOf('c-second')).apiKey, second.apiKey);
    assert.equal((await keysOf(DEFAULT_PROJECT)).apiKey, first.apiKey);

    const clientOf = (s: LocalService, apiKey = s.apiKey) => new ApiClient({ baseUrl: s.url, apiKey, retry: { maxRetries: 0 } });
    await clientOf(second).folders.create({ name: 'Only in the second project' });
    const rootNames = async (s: LocalService) => (await clientOf(s).kbNodes.listAll()).map((n) => n.name);
    assert.deepEqual(await rootNames(second), ['Only in the second project']);
    assert.deepEqual(await rootNames(first), []);
    // One project's key opens nothing in the other.
    await assert.rejects(clientOf(first, second.apiKey).projects.checkKey({ maxRetries: 0 }), AuthenticationError);

    await second.close();
    running.splice(running.indexOf(second), 1);
    const again = await start('c-second');
    assert.equal(again.apiKey, second.apiKey, 'the same key after a restart (the connection stored it)');
    assert.deepEqual(await rootNames(again), ['Only in the second project']);
  });
});
