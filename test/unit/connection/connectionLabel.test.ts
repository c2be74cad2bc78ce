// Which connection a title names (src/platform/connection/connectionLabel.ts): panels and the upload prompts add
// " — <name>" once the user has a connection of their own, with the real connection store (a plain Memento).
import assert from 'node:assert/strict';
import { ConnectionStore } from '../../../src/core/connectionStore';
import { activeConnectionLabel, titleWithName } from '../../../src/platform/connection/connectionLabel';

const memento = () => {
  const values = new Map<string, unknown>();
  return { get: <T>(k: string) => values.get(k) as T | undefined, update: async (k: string, v: unknown) => void values.set(k, v) };
};

describe('Connection label: titles name the connection once there is more than the default ones', () => {
  it('no name with only US, JA, Custom and Local; the active one’s name after a local project is added, and after a switch', async () => {
    const store = new ConnectionStore(memento(), { delete: async () => undefined });
    await store.load('local').saved;
    const title = 'Upload files to the top level';
    assert.equal(activeConnectionLabel(store), undefined);
    assert.equal(titleWithName(title, activeConnectionLabel(store)), title, 'as before connections');
    const beta = await store.addLocalProject('Beta project');
    assert.equal(titleWithName(title, activeConnectionLabel(store)), `${title} — Local`);
    await store.setActive(beta.id);
    assert.equal(titleWithName(title, activeConnectionLabel(store)), `${title} — Beta project`);
    await store.setActive('local');
    await store.remove(beta.id);
    assert.equal(activeConnectionLabel(store), undefined, 'back to the defaults only');
  });
});
