// A Test Explorer run profile per connection (issue 28, "In VS Code"): a second local service added as a Custom
// connection gets its own profile; a run on it answers from that project while the active connection stays Local;
// a connection without a key errors each test with the next step; rename and remove follow the list.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { FinishedRun } from '../../src/features/knowledgeTests/testRunHandler';
import type { KnowledgeTestsSessionView } from '../../src/testApiFeatures';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import { getApi, resetWorkbench, useService, waitFor } from './support/host';
import { startSecondProject, type SecondProject } from './support/secondProject';

describe('Knowledge tests in the Test Explorer: a run profile per connection (real host, two local services)', function () {
  this.timeout(240_000);
  let api: KnowledgeDeskTestApi;
  let second: SecondProject;
  let secondUrl: string;
  let secondKey: string;
  let secondClient: ApiClient;
  const cleanup: Array<() => Promise<unknown>> = [];

  before(async () => {
    api = await getApi();
    await useService(api);
    second = await startSecondProject(api, 'kd-tests-second-');
    secondUrl = second.url;
    secondKey = second.apiKey;
    secondClient = second.client;
  });

  after(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
    const store = api.connection.store;
    for (const c of [...store.connections]) if (c.name.startsWith('Second tests')) await store.remove(c.id);
    await second.dispose();
    await resetWorkbench(api);
  });

  const nextRun = (session: KnowledgeTestsSessionView): Promise<FinishedRun> =>
    new Promise((resolve) => {
      const sub = session.onDidFinishRun((run) => (sub.dispose(), resolve(run)));
    });
  const run = async (profile: vscode.TestRunProfile, session: KnowledgeTestsSessionView, item: vscode.TestItem): Promise<FinishedRun> => {
    const finished = nextRun(session);
    await profile.runHandler(new vscode.TestRunRequest([item]), new vscode.CancellationTokenSource().token);
    return finished;
  };

  it('a profile per connection: runs go to its project, the active connection stays; no key errors; rename and remove follow', async () => {
    const tag = `kp${Date.now().toString(36)}`;
    // A Q&A only the second project has: its test passes there and fails on Local.
    const question = `Where is the ${tag} archive room?`;
    const { id } = await secondClient.faq.register({ question, answer: '<p>In the basement.</p>', status: 'on', hashtags: [tag] });
    await waitFor(
      async () => (await secondClient.faq.search({ query: question, autoRegisterCandidates: false })).result[0]?.id === id,
      'the Q&A to be found in the second project',
      60_000,
    );
    const name = `profiles-${tag}.kdtest.yaml`;
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, name);
    const yaml = `tests:\n  - name: Only the second project knows\n    question: ${question}\n    mode: qna\n    assert:\n      - matchesQna: ${question}\n`;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(yaml));
    cleanup.push(() => Promise.resolve(vscode.workspace.fs.delete(uri)));
    const session = api.knowledgeTests.session();
    const file = await waitFor(() => session.tree.fileItems().find((i) => i.id.endsWith(name)), `${name} in the Test Explorer`);

    const store = api.connection.store;
    const activeBefore = api.connection.active.id;
    const local = store.byName('Local')!;
    assert.ok(session.connectionProfiles.get(local.id)?.label.endsWith(': Local'), 'the existing connections have theirs');
    const added = await store.add(`Second tests ${tag}`, { kind: 'custom', baseUrl: secondUrl, nluUrl: secondUrl });
    await api.secrets.store('apiKey', added.id, secondKey);
    const profile = await waitFor(() => session.connectionProfiles.get(added.id), 'the new connection’s profile');
    assert.ok(profile.label.endsWith(`: Second tests ${tag}`), profile.label);
    assert.equal(profile.isDefault, false, 'the active connection’s profile stays the default');

    const onSecond = await run(profile, session, file);
    assert.deepEqual(
      onSecond.tests.map((t) => t.status),
      ['passed'],
      onSecond.tests.map((t) => t.output + t.messages.map((m) => m.message).join('\n')).join('\n'),
    );
    assert.equal(onSecond.profile, profile.label, 'the run is named after its profile');
    assert.equal(api.connection.active.id, activeBefore, 'the active connection did not change');
    const onActive = await run(session.profiles[0], session, file);
    assert.deepEqual(
      onActive.tests.map((t) => t.status),
      ['failed'],
      'the active connection (Local) does not have the Q&A',
    );

    // No key: every test errors, naming the connection and the next step; nothing throws.
    const keyless = await store.add(`Second tests keyless ${tag}`, { kind: 'custom', baseUrl: secondUrl, nluUrl: secondUrl });
    const noKey = await run(await waitFor(() => session.connectionProfiles.get(keyless.id), 'the keyless profile'), session, file);
    assert.deepEqual(
      noKey.tests.map((t) => t.status),
      ['errored'],
    );
    const message = noKey.tests[0].messages[0].message;
    assert.ok(message.includes(keyless.name), message);
    assert.match(message, /Knowledge Desk: (Switch Connection|接続を切り替え)/);

    // Rename relabels; remove disposes.
    await store.rename(added.id, `Second tests renamed ${tag}`);
    assert.ok(profile.label.endsWith(`: Second tests renamed ${tag}`), profile.label);
    const renamed = await run(profile, session, file);
    assert.equal(renamed.profile, profile.label);
    assert.deepEqual(
      renamed.tests.map((t) => t.status),
      ['passed'],
      'a renamed connection’s profile still runs against it',
    );
    await store.remove(added.id);
    await store.remove(keyless.id);
    assert.equal(session.connectionProfiles.get(added.id), undefined);
    assert.equal(session.connectionProfiles.get(keyless.id), undefined);
    assert.ok(session.connectionProfiles.get(local.id), 'the other profiles stay');
  });
});
