import assert from 'node:assert/strict';
import { SettingKeys, USER_ONLY_SETTINGS } from '../../../src/core/settingKeys';
import { settingsSetIn, stripJsonc } from '../../../src/core/settingsFile';
import { readManifest } from '../support/manifest';

interface Manifest {
  activationEvents: string[];
  capabilities: {
    untrustedWorkspaces: { supported: unknown; restrictedConfigurations: string[]; description: string };
    virtualWorkspaces: { supported: unknown; description: string };
  };
  contributes: { configuration: { properties: Record<string, { scope?: string }> } };
}
const manifest = readManifest() as Manifest;
const properties = manifest.contributes.configuration.properties;

describe('Setting scopes and workspace trust (package.json)', () => {
  it('gives every setting an explicit scope, and application or machine scope exactly to the user-only settings', () => {
    const ids = USER_ONLY_SETTINGS.map((k) => `knowledgeDesk.${k}`);
    for (const [id, schema] of Object.entries(properties)) {
      assert.ok(schema.scope, `${id} has no scope`);
      const userOnly = schema.scope === 'application' || schema.scope === 'machine';
      assert.equal(userOnly, ids.includes(id), `${id}: scope ${schema.scope}`);
    }
    for (const id of ids) assert.ok(properties[id], `${id} is not contributed`);
    for (const key of [
      'region',
      'custom.baseUrl',
      'custom.nluUrl',
      'upload.blobStoragePath',
      'logRawStream',
      'webview.allowRemoteImages',
    ]) {
      assert.equal(properties[`knowledgeDesk.${key}`].scope, 'application', key);
    }
  });

  it('knows every contributed setting by key', () => {
    const known = new Set(Object.values(SettingKeys).map((k) => `knowledgeDesk.${k}`));
    assert.deepEqual(
      Object.keys(properties).filter((id) => !known.has(id)),
      [],
    );
  });

  it('is limited in untrusted workspaces, restricting every user-only setting, and says why it needs local files', () => {
    const { untrustedWorkspaces, virtualWorkspaces } = manifest.capabilities;
    assert.equal(untrustedWorkspaces.supported, 'limited');
    assert.ok(untrustedWorkspaces.description.length > 40);
    for (const key of USER_ONLY_SETTINGS) assert.ok(untrustedWorkspaces.restrictedConfigurations.includes(`knowledgeDesk.${key}`), key);
    for (const id of untrustedWorkspaces.restrictedConfigurations) assert.ok(properties[id], `${id} is not a contributed setting`);
    assert.equal(virtualWorkspaces.supported, false);
    assert.match(virtualWorkspaces.description, /local service/);
  });

  it('activates without a per-view or per-command event (implicit since VS Code 1.74) and restores each panel type', () => {
    assert.deepEqual(
      manifest.activationEvents.filter((e) => !e.startsWith('onWebviewPanel:')),
      ['onStartupFinished'],
    );
  });
});

describe('Settings files (JSON with comments)', () => {
  const ids = ['knowledgeDesk.region', 'knowledgeDesk.custom.baseUrl', 'knowledgeDesk.logRawStream'];

  it('finds the settings a .vscode/settings.json sets, with comments and trailing commas', () => {
    const text = `// a comment with "quotes" and knowledgeDesk.logRawStream
    {
      /* block
         "knowledgeDesk.logRawStream": true, */
      "knowledgeDesk.region": "custom", // trailing comment
      "knowledgeDesk.custom.baseUrl": "http://127.0.0.1:9/a//b",
      "editor.tabSize": 2,
    }`;
    assert.deepEqual(settingsSetIn(text, ids), ['knowledgeDesk.region', 'knowledgeDesk.custom.baseUrl']);
  });

  it('reads a .code-workspace file under "settings" only', () => {
    const text = '{ "folders": [{ "path": "." }], "knowledgeDesk.region": "us", "settings": { "knowledgeDesk.logRawStream": true, }, }';
    assert.deepEqual(settingsSetIn(text, ids, 'workspace'), ['knowledgeDesk.logRawStream']);
  });

  it('keeps strings intact, escaped quotes and comment markers included', () => {
    assert.equal(
      JSON.parse(stripJsonc('{"a": "x\\" // not a comment /* nor this */", "b": [1, 2,],}')).a,
      'x" // not a comment /* nor this */',
    );
  });

  it('finds nothing in a broken, empty or non-object file instead of failing', () => {
    for (const text of ['', '{', '[1, 2]', 'null', '"knowledgeDesk.region"', '{"knowledgeDesk.region": }', '/* unterminated'])
      assert.deepEqual(settingsSetIn(text, ids), [], JSON.stringify(text));
    assert.deepEqual(settingsSetIn('{"settings": null}', ids, 'workspace'), []);
    assert.deepEqual(settingsSetIn('{"settings": ["knowledgeDesk.region"]}', ids, 'workspace'), []);
  });
});
