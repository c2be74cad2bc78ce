// Promote between connections (issue 27) in the real host: the active Local connection and a second local project
// added as a connection. Copy Q&As and a folder of documents, preview, apply; a second run finds them the same
// (nothing copied twice). The target picker shows each connection's state; a copy cancelled part way and copied
// again leaves every Q&A in the target once; Open as Diff shows both projects as CSV and follows an apply.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { PromoteResult } from '../../src/features/promote/promoteFlow';
import { faqStatus } from '../../src/api/values';
import { CommandIds } from '../../src/platform/commandIds';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import {
  getApi,
  notificationSelector,
  pressInWorkbench,
  resetWorkbench,
  runCommand,
  screenshot,
  steps,
  useService,
  waitFor,
  workbenchShows,
} from './support/host';
import { startSecondProject, type SecondProject } from './support/secondProject';

const japanese = (): boolean => vscode.env.language.startsWith('ja');

describe('Promote between connections (real host, two local projects)', function () {
  this.timeout(240_000);
  let api: KnowledgeDeskTestApi;
  let local: ApiClient;
  let second: SecondProject;
  let secondClient: ApiClient;
  let connectionName: string;
  const noKeyName = `Second promote no key ${Date.now().toString(36)}`;
  const projectName = `Second promote project ${Date.now().toString(36)}`;

  before(async () => {
    api = await getApi();
    local = await useService(api);
    second = await startSecondProject(api, 'kd-promote-second-');
    secondClient = second.client;
    connectionName = `Second promote ${Date.now().toString(36)}`;
    const added = await api.connection.store.add(connectionName, { kind: 'custom', baseUrl: second.url, nluUrl: second.url });
    await api.secrets.store('apiKey', added.id, second.apiKey);
  });

  after(async () => {
    const store = api.connection.store;
    // The local project's own data folder goes with it (its process is stopped first).
    if (store.byName(projectName))
      await runCommand(api, CommandIds.removeConnection, [projectName, 'Remove and Delete Its Data']).catch(() => undefined);
    for (const c of [...store.connections]) if (c.name.startsWith('Second promote')) await store.remove(c.id);
    await second.dispose();
    await resetWorkbench(api);
  });

  it('copies picked Q&As with hashtags, status and folder; a second run finds them the same, with no duplicate', async () => {
    const tag = `pr${Date.now().toString(36)}`;
    const q = (n: number) => `Promote ${tag} question ${n}?`;
    const one = await local.faq.register({ question: q(1), answer: 'One', status: 'off', hashtags: [tag], folder: `F ${tag}` });
    const two = await local.faq.register({ question: q(2), answer: 'Two', status: 'on', hashtags: [tag] });
    await secondClient.faq.register({ question: q(2), answer: 'Old two', status: 'on', hashtags: [] });
    const rows = (ids: string[]) => ids.map((id) => ({ kind: 'qa', item: { id, question: id === one.id ? q(1) : q(2) } }));
    const seen: string[] = [];
    const result = (await runCommand(
      api,
      CommandIds.promote.copyQnas,
      [
        connectionName,
        (p: { items?: readonly { label: string; detail?: string; picked?: boolean }[]; options: unknown }) => {
          seen.push((p.options as { title: string }).title, ...p.items!.map((i) => `${i.label}|${i.detail ?? ''}|${i.picked ?? ''}`));
          return p.items!.filter((i) => i.picked).map((i) => i.label);
        },
      ],
      undefined,
      rows([one.id, two.id]),
    )) as PromoteResult;
    assert.ok(seen[0].includes(connectionName), seen[0]);
    assert.ok(seen.includes(`${q(1)}||true`), seen.join('\n'));
    // The changed one lists its fields (in the display language: the import dry run's words) and is picked.
    const changed = seen.find((s) => s.startsWith(`${q(2)}|`));
    assert.ok(changed && changed !== `${q(2)}||true` && changed.endsWith('|true'), seen.join('\n'));
    if (!japanese()) assert.ok(changed.startsWith(`${q(2)}|answer changed; hashtags`), changed);
    assert.deepEqual(
      [...result.outcomes.values()].map((o) => o.status),
      ['done', 'done'],
    );
    const copied = (await secondClient.faq.list({ limit: 100 })).results.filter((r) => r.question.includes(tag));
    assert.equal(copied.length, 2);
    const detail = await secondClient.faq.get(copied.find((r) => r.question === q(1))!.id);
    assert.deepEqual([faqStatus(detail), detail.folder, detail.hashtags], ['off', `F ${tag}`, [tag]]);

    // Again: the same, nothing to pick, nothing sent.
    const again = await runCommand(api, CommandIds.promote.copyQnas, [connectionName], undefined, rows([one.id, two.id]));
    assert.equal(again, undefined, 'no preview when both are the same');
    assert.equal((await secondClient.faq.list({ limit: 100 })).results.filter((r) => r.question.includes(tag)).length, 2, 'no duplicate');
  });

  it('copies a folder of documents to the same place, creating the folder; a second run is the same', async () => {
    const tag = `pd${Date.now().toString(36)}`;
    const folder = await local.folders.create({ name: `Promote ${tag}` });
    await local.kbNodes.upload({
      file: { data: 'Alpha text.' },
      fileName: 'alpha.txt',
      targetFolderId: folder.id,
      hashtags: [tag],
      isOverwrite: true,
    });
    await local.kbNodes.upload({ file: { data: 'Beta text.' }, fileName: 'beta.txt', targetFolderId: folder.id, isOverwrite: true });
    const row = { kind: 'node', node: await local.kbNodes.get(folder.id), parentKey: 'root' };
    const result = (await runCommand(
      api,
      CommandIds.promote.copyDocuments,
      [
        connectionName,
        (p: { items?: readonly { label: string; picked?: boolean }[] }) => p.items!.filter((i) => i.picked).map((i) => i.label),
      ],
      row,
      [row],
    )) as PromoteResult;
    assert.deepEqual([...result.outcomes.keys()].sort(), [`Promote ${tag}/alpha.txt`, `Promote ${tag}/beta.txt`]);
    const there = (await secondClient.kbNodes.listAll({ parentFolderIds: [null] })).find((n) => n.name === `Promote ${tag}`);
    assert.ok(there, 'the folder was created in the target');
    const files = await secondClient.kbNodes.listAll({ parentFolderIds: [there.id] });
    assert.deepEqual(files.map((f) => f.name).sort(), ['alpha.txt', 'beta.txt']);
    const again = await runCommand(api, CommandIds.promote.copyDocuments, [connectionName], row, [row]);
    assert.equal(again, undefined, 'the same after the copy');
  });

  it('the target picker shows where each connection goes and its state, as Switch Connection does', async () => {
    await api.connection.store.add(noKeyName, { kind: 'custom', baseUrl: second.url, nluUrl: second.url });
    await api.connection.store.addLocalProject(projectName);
    type Item = { label: string; description?: string; detail?: string };
    const seen: Item[][] = [];
    const look = (p: { items?: readonly Item[] }) => (seen.push([...p.items!]), undefined);
    assert.equal(await runCommand(api, CommandIds.promote.copyQnas, [look]), undefined, 'nothing picked, nothing done');
    await runCommand(api, CommandIds.switchConnection, [look]);
    const [targets, all] = seen;
    const item = (list: Item[], name: string) => list.find((i) => i.label.replace(/^\$\(check\) /, '') === name)!;
    assert.equal(item(targets, 'Local'), undefined, 'the active connection is not a target');
    assert.equal(targets[0].detail, vscode.l10n.t('connected'), 'a connection that answers comes first, not one without a key');
    assert.deepEqual(
      [item(targets, connectionName).description, item(targets, connectionName).detail],
      [second.url, vscode.l10n.t('connected')],
    );
    assert.equal(item(targets, noKeyName).detail, vscode.l10n.t('no key'), 'a connection without a key says so before it is picked');
    const us = item(targets, 'US');
    assert.notEqual(us.description, us.label, 'US is described by where it goes, not by its name again');
    // A local project of its own is told apart from the default Local by its data folder, in both pickers.
    const project = api.connection.store.byName(projectName)!;
    const projectText = vscode.l10n.t('Local project · folder {0}', project.id);
    assert.equal(item(targets, projectName).description, projectText);
    assert.equal(item(all, projectName).description, projectText);
    assert.equal(item(all, 'Local').description, vscode.l10n.t('Embedded local service on this machine (offline)'));
    // Its state is checked too (a new project's first start may outlast the picker's wait on a busy machine).
    assert.ok(item(targets, projectName).detail, 'the local project has a state');
  });

  it('copies to a local project that was never the active connection: its own key is stored on first use', async () => {
    const store = api.connection.store;
    const project = store.byName(projectName) ?? (await store.addLocalProject(projectName));
    assert.notEqual(store.active.id, project.id);
    const question = `Promote to a new project ${Date.now().toString(36)}?`;
    const one = await local.faq.register({ question, answer: 'Yes.', status: 'on' });
    const pickAll = (p: { items?: readonly { label: string }[] }) => p.items!.map((i) => i.label);
    const result = (await runCommand(api, CommandIds.promote.copyQnas, [projectName, pickAll], undefined, [
      { kind: 'qa', item: { id: one.id, question } },
    ])) as PromoteResult;
    assert.deepEqual(
      [...result.outcomes.values()].map((o) => o.status),
      ['done'],
    );
    const key = await api.secrets.get('apiKey', project.id);
    assert.ok(key, 'the project’s own key was stored');
    const target = api.connection.createClient(await api.connection.endpoints(project), key);
    assert.deepEqual(
      (await target.faq.list({ limit: 100 })).results.map((r) => r.question),
      [question],
    );
    assert.notEqual(store.active.id, project.id, 'still not the active connection');
  });

  it('a copy cancelled part way, then copied again, leaves every Q&A in the target exactly once', async function () {
    this.timeout(300_000);
    // Once more when the driver could not press Cancel (1 of 3 full CI runs here; its cause is not yet found). Each
    // try uses questions of its own, and a try that could not press Cancel resumes the target before it fails.
    this.retries(1);
    // An earlier test's summary (or a local project's start) left on screen can cover the progress's Cancel button.
    await resetWorkbench(api);
    const tag = `pc${Date.now().toString(36)}`;
    const N = 300;
    const q = (n: number) => `Cancelled promote ${tag} question ${String(n).padStart(3, '0')}?`;
    const ids: string[] = [];
    for (let at = 0; at < N; at += 20)
      ids.push(
        ...(
          await Promise.all(
            Array.from({ length: Math.min(20, N - at) }, (_, i) =>
              local.faq.register({ question: q(at + i), answer: `Answer ${at + i}`, status: 'on', hashtags: [tag] }),
            ),
          )
        ).map((r) => r.id),
      );
    const rows = ids.map((id, i) => ({ kind: 'qa', item: { id, question: q(i) } }));
    const arrived = async () => (await secondClient.faq.filter({ hashtags: [tag], limit: 1 })).total_count ?? 0;
    const pid = (JSON.parse(fs.readFileSync(path.join(second.dataDir, 'lock.json'), 'utf8')) as { pid: number }).pid;
    let stopped = false;
    let stopping: Promise<void> | undefined;
    // VS Code's own button: English under the test host's stub language pack, Japanese under a real one.
    const cancel = ':text-matches("^(Cancel|キャンセル)$")';
    const progress = vscode.l10n.t('Copying {0} to {1}', vscode.l10n.t('Q&As'), connectionName);
    try {
      const result = (await runCommand(
        api,
        CommandIds.promote.copyQnas,
        [
          connectionName,
          (p: { items?: readonly { label: string; picked?: boolean }[] }) => {
            // Once the first Q&As are in the target, the target stops answering (SIGSTOP of the test's own
            // service), so Cancel lands part way whatever the machine's speed; then Cancel is pressed.
            stopping = (async () => {
              while ((await arrived()) < 10);
              process.kill(pid, 'SIGSTOP');
              stopped = true;
              try {
                await pressInWorkbench(await notificationSelector(`:has-text("${progress}") .monaco-button${cancel}`));
              } catch (error) {
                // Not pressed: the target goes on, so the copy ends and the test fails with this reason, not a timeout.
                process.kill(pid, 'SIGCONT');
                stopped = false;
                throw error;
              }
            })();
            stopping.catch(() => undefined);
            return p.items!.filter((i) => i.picked).map((i) => i.label);
          },
        ],
        undefined,
        rows,
      )) as PromoteResult;
      await stopping;
      const statuses = [...result.outcomes.values()].map((o) => o.status);
      const done = statuses.filter((s) => s === 'done').length;
      // At least 10 had reached the target when it stopped, though not every answer had reached this window.
      assert.ok(done > 0 && done < N, `Cancel landed part way: ${done} of ${N} done`);
      assert.deepEqual(new Set(statuses), new Set(['done', 'cancelled']), 'nothing failed');
    } finally {
      if (stopped) process.kill(pid, 'SIGCONT');
    }
    // What reached the service before Cancel is handled before it answers again.
    await waitFor(async () => (await secondClient.faq.list({ limit: 1 })).results !== undefined, 'the target to answer again');
    await resetWorkbench(api);

    // Copied again: the preview offers only what is missing; afterwards every question is there once.
    const missing = N - (await arrived());
    const offered: string[] = [];
    const again = (await runCommand(
      api,
      CommandIds.promote.copyQnas,
      [
        connectionName,
        (p: { items?: readonly { label: string; picked?: boolean; kind?: number }[] }) => {
          offered.push(...p.items!.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator).map((i) => i.label));
          return p.items!.filter((i) => i.picked).map((i) => i.label);
        },
      ],
      undefined,
      rows,
    )) as PromoteResult;
    assert.equal(offered.length, missing, 'only the missing Q&As are offered');
    assert.ok([...again.outcomes.values()].every((o) => o.status === 'done'));
    const questions: string[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = (await secondClient.faq.filter({ hashtags: [tag], limit: 100, offset })).results;
      questions.push(...page.map((r) => r.question));
      if (page.length < 100) break;
    }
    assert.deepEqual(
      questions.sort(),
      Array.from({ length: N }, (_, i) => q(i)),
      'every Q&A exactly once',
    );
  });

  it('Open as Diff shows both projects’ Q&As as CSV, the header on both sides, and the target as it is after applying', async function () {
    this.timeout(240_000);
    // It hung past 240 s in 2 of 4 full current-lane runs, always straight after the cancel test, and never alone; the
    // step it waited on is not known yet. Its steps are now named and bounded, so a hang fails with the step's name
    // (in the log), and it is tried once more from a clean workbench with questions of its own.
    this.retries(1);
    await resetWorkbench(api);
    const step = steps('Open as Diff');
    const tag = `pf${Date.now().toString(36)}`;
    const q = (n: number) => `Diffed promote ${tag} question ${n}?`;
    const ids = await step('register two Q&As in Local', async () => [
      (await local.faq.register({ question: q(1), answer: 'One', status: 'on', hashtags: [tag] })).id,
      (await local.faq.register({ question: q(2), answer: 'Two', status: 'off', hashtags: [tag] })).id,
    ]);
    const rows = ids.map((id, i) => ({ kind: 'qa', item: { id, question: q(i + 1) } }));
    const header = 'question,answer';
    const diffDocs = async () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      assert.ok(input instanceof vscode.TabInputTextDiff, 'the diff editor is open');
      return [await vscode.workspace.openTextDocument(input.original), await vscode.workspace.openTextDocument(input.modified)];
    };
    const lines = (doc: vscode.TextDocument) =>
      doc
        .getText()
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)
        .filter(Boolean);

    // The person's way first, for the screenshots: the real preview, its Open as Diff button pressed in the page.
    const real = runCommand(
      api,
      CommandIds.promote.compareQnas,
      // The target is scripted; from there on the window's own quick pick answers (the real user input).
      [() => (api.setUserInput(undefined), connectionName)],
      undefined,
      rows,
    );
    real.catch(() => undefined);
    assert.ok(await step('the preview is shown', workbenchShows('.quick-input-widget .monaco-list-row', 30_000)), 'the preview is shown');
    // Compare says what differs and what Enter would do (Copy asks what to copy, below).
    const comparing = vscode.l10n.t('Differences: pick any to copy to {0} and press Enter, or Escape to copy nothing', connectionName);
    assert.ok(
      await step('its placeholder', workbenchShows(`.quick-input-widget input[placeholder="${comparing}"]`)),
      'the compare placeholder',
    );
    await step('screenshot of the preview', screenshot(`promote-preview${japanese() ? '-ja' : ''}`));
    await step('press Open as Diff', pressInWorkbench('.quick-input-widget .action-label.codicon-diff'));
    await step(
      'the diff editor opens',
      waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff, 'the diff editor'),
    );
    assert.ok(
      await step('the preview is shown again', workbenchShows('.quick-input-widget .monaco-list-row', 30_000)),
      'the preview is shown again',
    );
    await step('close the preview', vscode.commands.executeCommand('workbench.action.closeQuickOpen'));
    assert.equal(await step('the compare ends', real), undefined, 'closing the preview applies nothing');
    await step('screenshot of the diff', screenshot(`promote-diff${japanese() ? '-ja' : ''}`));
    await step('reset the workbench', resetWorkbench(api));

    // Scripted: Open as Diff, then copy both; the open diff's target side then shows them.
    let before: vscode.TextDocument[] = [];
    const result = (await step(
      'copy with Open as Diff (scripted)',
      runCommand(
        api,
        CommandIds.promote.copyQnas,
        [
          connectionName,
          { button: 'Open as Diff' },
          async (p: { items?: readonly { label: string; picked?: boolean }[]; options: unknown }) => {
            assert.equal(
              (p.options as { placeHolder?: string }).placeHolder,
              vscode.l10n.t('Pick what to copy to {0}, then press Enter', connectionName),
            );
            before = await diffDocs();
            return p.items!.filter((i) => i.picked).map((i) => i.label);
          },
        ],
        undefined,
        rows,
      ),
      120_000,
    )) as PromoteResult;
    const [target, source] = before;
    for (const doc of before) assert.ok(!doc.getText().startsWith('\uFEFF'), 'no byte order mark before the header');
    assert.ok(lines(source)[0].startsWith(header), `the source side has the header: ${source.getText()}`);
    assert.deepEqual(lines(target).length, 1, `an empty target shows the header alone: ${target.getText()}`);
    assert.ok(lines(target)[0].startsWith(header), `the target side has the header: ${target.getText()}`);
    assert.deepEqual(
      lines(source)
        .slice(1)
        .map((l) => l.split(',')[0]),
      [q(1), q(2)],
    );
    assert.deepEqual(
      [...result.outcomes.values()].map((o) => o.status),
      ['done', 'done'],
    );
    await waitFor(
      () => lines(target).length === 3,
      'the diff’s target side to show the copied Q&As',
      30_000,
      () => target.getText(),
    );
    assert.deepEqual(lines(target), lines(source), 'after applying, both sides are the same');
  });
});
