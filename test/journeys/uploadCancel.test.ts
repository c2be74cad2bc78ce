// Journey 3: upload a folder of 400 small files, press Cancel in the progress notification part way, then take the
// summary's offer to upload the rest: every file ends up in the knowledge base exactly once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { KbNode } from '../../src/api/schemas/kbNodes';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import { getApi, notificationSelector, resetWorkbench, runCommand, scriptInput, useService, waitFor } from '../integration/support/host';
import { clickInWorkbench, Findings, shoot } from './support/journey';

const FILES = 400;
const name = (i: number): string => `note-${String(i).padStart(3, '0')}.md`;

describe('Journey: cancel a big upload, then upload the rest', () => {
  let api: KnowledgeDeskTestApi;
  let client: ApiClient;
  let local: vscode.Uri;
  let folder: KbNode | undefined;
  const folderName = `bulk-${process.pid}`;

  before(async () => {
    api = await getApi();
    await resetWorkbench(api);
    client = await useService(api);
    local = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, folderName);
    fs.mkdirSync(local.fsPath, { recursive: true });
    for (let i = 1; i <= FILES; i++)
      fs.writeFileSync(vscode.Uri.joinPath(local, name(i)).fsPath, `# Note ${i}\n\nSmall file number ${i} of the bulk upload.\n`);
  });

  after(async () => {
    if (folder) await client.kbNodes.delete(folder.id).catch(() => undefined);
    fs.rmSync(local.fsPath, { recursive: true, force: true });
    await resetWorkbench(api);
  });

  const files = async (): Promise<KbNode[]> => (folder ? client.kbNodes.listAll({ parentFolderIds: [folder.id] }) : []);

  it('upload 400 files → Cancel → Upload the Rest → every file exactly once', async function () {
    this.timeout(300_000);
    // 1. A knowledge-base folder of the same name (New Folder), so the local folder is synced into it file by file.
    folder = (await runCommand(api, 'knowledgeDesk.kb.newFolder', [folderName])) as KbNode;
    assert.ok(folder?.id, 'the folder was created');
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');

    // 2. Upload the local folder into it; press Cancel in the progress notification once some files are in.
    const batches = api.knowledgeBase.uploadBatches;
    const mark = batches.total;
    const findings = new Findings();
    const input = scriptInput(api, [
      (p: { items?: ReadonlyArray<vscode.QuickPickItem & { choice?: { id: string | null } }> }) =>
        p.items?.find((i) => i.choice?.id === folder!.id),
      (p: { items?: ReadonlyArray<vscode.QuickPickItem & { mode?: string }> }) => p.items?.find((i) => i.mode === 'sync'),
      // The last question before the upload (the hashtags, none): from here on the person answers in the window.
      () => (input.restore(), []),
    ]);
    const upload = vscode.commands.executeCommand('knowledgeDesk.uploadToKnowledgeBase', local, [local]);
    await waitFor(async () => (await files()).length >= 10, 'the first files to be uploaded', 60_000);
    await shoot('upload-cancel-01-uploading', { keepNotifications: true });
    await clickInWorkbench('upload-cancel', await notificationSelector(' .monaco-button:has-text("Cancel")'));
    await upload;
    const cancelled = await waitFor(() => (batches.total > mark ? batches.last : undefined), 'the cancelled batch');
    const done = [...cancelled.report.outcomes.values()].filter((o) => o.status === 'done').length;
    console.log(`journey upload: Cancel after ${done} of ${FILES} files`);
    assert.ok(done > 0 && done < FILES, `Cancel landed part way: ${done} of ${FILES} uploaded`);
    // What is in the knowledge base is exactly what the summary counts as uploaded: nothing slipped through after Cancel.
    const afterCancel = (await files()).length;
    findings.check(afterCancel === done, `after Cancel the folder holds ${afterCancel} files, the summary counts ${done} uploaded`);

    // 3. The summary (a notification) offers to upload the rest; the person presses that button.
    const rest = vscode.l10n.t('Upload the Rest');
    const button = await notificationSelector(` .monaco-button:has-text("${rest}")`);
    await shoot('upload-cancel-02-summary', { keepNotifications: true, waitForSelector: button });
    await clickInWorkbench('upload-the-rest', button);
    const second = await waitFor(() => (batches.total > mark + 1 ? batches.last : undefined), 'the batch of the rest', 120_000);
    const failedAgain = [...second.report.outcomes.values()].filter((o) => o.status !== 'done');
    findings.check(failedAgain.length === 0, `the rest was not all uploaded: ${JSON.stringify(failedAgain).slice(0, 500)}`);

    // 4. Every file exactly once: no file missing, none twice (no "note-001 (1).md").
    const names = (await files()).map((n) => n.name).sort();
    const expected = Array.from({ length: FILES }, (_, i) => name(i + 1));
    findings.check(names.length === FILES, `the folder holds ${names.length} files, not ${FILES}`);
    findings.check(
      JSON.stringify(names) === JSON.stringify(expected),
      `not every file exactly once: ${names.filter((n) => !expected.includes(n)).join(', ')}`,
    );
    await shoot('upload-cancel-03-all-uploaded', { keepNotifications: true });
    findings.assertNone();
  });
});
