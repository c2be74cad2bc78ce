import * as vscode from 'vscode';
import { exportQaRows } from '../../api/qaImport';
import { qaCsv } from '../../core/qaFile/exportCsv';
import { readQaFile } from '../../core/qaFile/readQaFile';
import { normalizeQuestion } from '../../core/qaFile/dryRun';
import type { CommandServices, DetailsSource } from '../../platform/commandServices';
import { toAbortSignal } from '../../platform/cancellation';
import { formatNumber } from '../../platform/l10n';

/** Export Q&As to CSV (the import's columns, CSV-injection escaped) and send a Q&A file to the service as is. */
export class QnaFileCommands {
  constructor(
    private readonly c: Pick<CommandServices, 'connection'> & DetailsSource,
    private readonly diagnostics: vscode.DiagnosticCollection,
  ) {}

  async exportCsv(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const date = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export Q&As to CSV'),
        defaultUri: vscode.Uri.joinPath(
          vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(process.cwd()),
          `qna-export-${date}.csv`,
        ),
        filters: { CSV: ['csv'] },
      }));
    if (!uri) return undefined;
    const client = await this.c.connection.getClient();
    const rows = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Exporting Q&As'), cancellable: true },
      async (progress, token) => {
        const { signal, dispose } = toAbortSignal(token);
        try {
          let reported = 0;
          return await exportQaRows(client, {
            signal,
            onListed: (n) => progress.report({ message: vscode.l10n.t('listed {0}', formatNumber(n)) }),
            onRead: (done, total) => {
              if (done % 25 !== 0) return;
              progress.report({
                increment: ((done - reported) / total) * 100,
                message: vscode.l10n.t('{0} of {1}', formatNumber(done), formatNumber(total)),
              });
              reported = done;
            },
          });
        } finally {
          dispose();
        }
      },
    );
    await vscode.workspace.fs.writeFile(uri, Buffer.from(qaCsv(rows), 'utf8'));
    const open = vscode.l10n.t('Open');
    void vscode.window
      .showInformationMessage(vscode.l10n.t('Exported {0} Q&As to {1}.', formatNumber(rows.length), uri.path.split('/').pop()!), open)
      .then((c) => (c === open ? vscode.window.showTextDocument(uri) : undefined));
    return uri;
  }

  /** Sends the file unchanged (upload_faq_file); rows the service refused are listed, on the file when they can be found in it. */
  async uploadToService(file: vscode.Uri): Promise<{ notUploaded: number } | undefined> {
    const client = await this.c.connection.getClient();
    const name = file.path.split('/').pop()!;
    const res = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Sending {0} to the service', name) },
      () => client.faq.uploadFile({ kind: 'file', path: file.fsPath, fileName: name }),
    );
    const rowsByQuestion = new Map<string, number>();
    try {
      const parsed = await readQaFile(file.fsPath, name);
      for (const r of parsed.rows) rowsByQuestion.set(normalizeQuestion(r.question), r.row);
    } catch {
      // Not readable here (e.g. a ZIP): the report document still lists everything.
    }
    this.diagnostics.set(
      file,
      res.notUploaded.flatMap((n) => {
        const row = rowsByQuestion.get(normalizeQuestion(n.question));
        if (row === undefined) return [];
        const d = new vscode.Diagnostic(
          new vscode.Range(row - 1, 0, row - 1, Number.MAX_SAFE_INTEGER),
          vscode.l10n.t('Row {0}: not uploaded by the service: {1}', row, n.state),
          vscode.DiagnosticSeverity.Error,
        );
        d.source = vscode.l10n.t('Knowledge Desk upload');
        return [d];
      }),
    );
    const missed = res.notUploaded.length;
    const text = !missed
      ? vscode.l10n.t('The service uploaded every row of {0}.', name)
      : missed === 1
        ? vscode.l10n.t('The service took {0} but did not upload {1} row.', name, formatNumber(1))
        : vscode.l10n.t('The service took {0} but did not upload {1} rows.', name, formatNumber(missed));
    const lines = [
      `# ${vscode.l10n.t('Not uploaded from {0}', name)}`,
      '',
      `| ${vscode.l10n.t('Question')} | ${vscode.l10n.t('Reason')} |`,
      '|---|---|',
      ...res.notUploaded.map((n) => `| ${n.question.replace(/\|/g, '\\|')} | ${n.state.replace(/\|/g, '\\|')} |`),
    ];
    const details = vscode.l10n.t('Show Details');
    void (res.notUploaded.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage)(
      text,
      ...(res.notUploaded.length ? [details] : []),
    ).then(async (choice) => {
      if (choice === details) await this.c.details.show(vscode.l10n.t('Not uploaded from {0}', name), lines.join('\n') + '\n');
    });
    return { notUploaded: res.notUploaded.length };
  }
}
