import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KbNode } from '../../src/api/schemas/kbNodes';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { QnaElement } from '../../src/features/qna/qnaTreeModel';
import { getApi, notificationSelector, resetWorkbench, runCommand, screenshot, useService, waitFor, workbenchShows } from './support/host';

/** The process that owns the data folder, as its lock file names it (what an MCP server started with --local reads). */
function lockOwner(api: KnowledgeDeskTestApi): { pid: number; url?: string } {
  return JSON.parse(fs.readFileSync(path.join(api.localService.dataDir, 'lock.json'), 'utf8')) as { pid: number; url?: string };
}

const questions = (els: QnaElement[]): string[] => els.flatMap((e) => (e.kind === 'qa' ? [e.item.question] : []));

describe('Local service in its own process (real extension host)', () => {
  let api: KnowledgeDeskTestApi;
  let created: string | undefined;
  let folderId: string | undefined;

  before(async () => {
    api = await getApi();
    await useService(api);
  });

  afterEach(async () => {
    await runCommand(api, 'knowledgeDesk.qna.clearFilter', []);
    if (created) await (await api.connection.getClient()).faq.delete(created).catch(() => undefined);
    if (folderId) await (await api.connection.getClient()).kbNodes.delete(folderId).catch(() => undefined);
    await resetWorkbench(api);
  });

  it('is killed: the status bar says so, the service comes back, the trees recover and an acknowledged Q&A is kept', async () => {
    const owner = lockOwner(api);
    assert.notEqual(owner.pid, process.pid, 'the local service does not run in the extension host');
    assert.equal(owner.url, api.localService.current?.url);

    const tag = `proc${Date.now().toString(36)}`;
    const question = `Is this Q&A kept when the local service is killed (${tag})?`;
    const client = await api.connection.getClient();
    created = (await client.faq.register({ question, answer: 'Yes.', status: 'on', hashtags: [tag] })).id;
    await vscode.commands.executeCommand('knowledgeDesk.qna.focus');
    await runCommand(api, 'knowledgeDesk.qna.filterHashtags', [[`#${tag}`]]);
    const listed = async (): Promise<string[]> => {
      const groups = await api.qna.tree.getChildren();
      return (await Promise.all(groups.map((g) => api.qna.tree.getChildren(g)))).flatMap(questions);
    };
    await waitFor(async () => (await listed()).includes(question), 'the Q&A in the tree');
    // An open knowledge-base folder: a restart must not close it (replacing the listing made VS Code forget it).
    const folder = (await runCommand(api, 'knowledgeDesk.kb.newFolder', [`${tag} folder`])) as KbNode;
    folderId = folder.id;
    await client.kbNodes.upload({
      file: { data: '# Kept open\n', contentType: 'text/markdown' },
      fileName: `${tag}-inside.md`,
      targetFolderId: folder.id,
    });
    await api.knowledgeBase.tree.refresh();
    const kb = api.knowledgeBase;
    const inside = await waitFor(async () => {
      const top = (await kb.tree.getChildren()).find((e) => e.kind === 'node' && e.node.id === folder.id);
      return top && (await kb.tree.getChildren(top)).find((e) => e.kind === 'node' && e.node.name === `${tag}-inside.md`);
    }, 'the document inside the new folder');
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    await kb.view.reveal(inside, { select: false, focus: false, expand: true });
    assert.ok(await workbenchShows(`.monaco-list-row:has-text("${tag}-inside.md")`, 20_000), 'the open folder shows its document');

    const bar = api.connectionStatusBar;
    const texts: string[] = [];
    const watching = api.connection.onDidChangeStatus(() => texts.push(bar.text));
    let treeEvents = 0;
    const treeWatch = [api.qna.tree, api.knowledgeBase.tree].map((t) => t.onDidChangeTreeData(() => treeEvents++));
    try {
      await vscode.commands.executeCommand('notifications.clearAll');
      process.kill(owner.pid, 'SIGKILL');
      await waitFor(
        () => texts.some((t) => /Local · restarting/.test(t)),
        'the status bar saying the service is restarting',
        20_000,
        () => JSON.stringify(texts),
      );
      // What a person sees meanwhile: the status bar saying it restarts (--screenshots only).
      await screenshot('local-service-killed', { keepNotifications: true });
      const eventsWhileDown = treeEvents;
      await waitFor(
        () => api.connection.status.state === 'connected' && lockOwner(api).pid !== owner.pid,
        'the service back, in a new process',
        60_000,
        () => JSON.stringify(api.connection.status),
      );
      assert.match(bar.text, /Local · connected/);
      // Reported once it is back, so the message is still true when it is read.
      assert.ok(
        await workbenchShows(await notificationSelector(':has-text("and was started again")'), 20_000),
        'a warning saying the service stopped and was started again',
      );
      assert.ok(treeEvents > eventsWhileDown, 'the trees reloaded when the service came back');
    } finally {
      watching.dispose();
      for (const w of treeWatch) w.dispose();
    }

    await waitFor(async () => (await listed()).includes(question), 'the Q&A in the tree again', 20_000);
    // What the view shows, not only what its provider answers: the Q&A row is back in the visible tree.
    assert.ok(await workbenchShows(`.monaco-list-row:has-text("${tag}")`, 20_000), 'the Q&A row visible in the Q&A view again');
    // The folder opened before the kill is still open: its document's row shows with nothing expanded again.
    assert.ok(await workbenchShows(`.monaco-list-row:has-text("${tag}-inside.md")`, 20_000), 'the open folder stayed open');
    await screenshot('local-service-back', { keepNotifications: true });
    const roots = await api.knowledgeBase.tree.getChildren();
    assert.ok(!roots.some((e) => e.kind === 'error'), `the Knowledge Base lists again: ${JSON.stringify(roots.map((e) => e.kind))}`);
    const again = await api.connection.getClient();
    assert.equal((await again.faq.get(created)).question, question, 'the acknowledged Q&A is still there');
  });
});
