import * as vscode from 'vscode';
import { faqStatus } from '../../api/values';
import type { FaqListItem } from '../../api/schemas/faq';
import { qaCsv } from '../../core/qaFile/exportCsv';
import { readQaFile } from '../../core/qaFile/readQaFile';
import { normalizeQuestion } from '../../core/qaFile/dryRun';
import type { Container } from '../../container';
import { toAbortSignal } from '../../platform/cancellation';

/** Export Q&As to CSV (the import's columns, CSV-injection escaped) and send a Q&A file to the service as is. */
export class QnaFileCommands {
  constructor(
    private readonly c: Container,
    private readonly diagnostics: vscode.DiagnosticCollection,
  ) {}

  async exportCsv(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const date = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        title: 'Export Q&As to CSV',
        defaultUri: vscode.Uri.joinPath(
          vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(process.cwd()),
          `qna-export-${date}.csv`,
        ),
        filters: { CSV: ['csv'] },
      }));
    if (!uri) return undefined;
    const client = await this.c.connection.getClient();
    const rows = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Exporting Q&As', cancellable: true },
      async (progress, token) => {
        const { signal, dispose } = toAbortSignal(token);
        try {
          const items: FaqListItem[] = [];
          for (let offset = 0; ; offset += 1000) {
            const page = await client.faq.list({ offset, limit: 1000, format: 'html' }, { signal });
            items.push(...page.results);
            progress.report({ message: `listed ${items.length}` });
            if (page.results.length < 1000) break;
          }
          // Similar questions, status and folder come only from single lookups.
          const out = new Array<Parameters<typeof qaCsv>[0][number]>(items.length);
          let next = 0;
          let done = 0;
          const worker = async (): Promise<void> => {
            for (let i = next++; i < items.length; i = next++) {
              const d = await client.faq.get(items[i].id, { format: 'html' }, { signal });
              out[i] = {
                question: d.question,
                answer: d.answer,
                similarQuestions: d.similar_questions,
                hashtags: d.hashtags,
                status: faqStatus(d),
                folder: d.folder,
              };
              if (++done % 25 === 0) progress.report({ increment: (25 / items.length) * 100, message: `${done} of ${items.length}` });
            }
          };
          await Promise.all(Array.from({ length: 8 }, worker));
          return out;
        } finally {
          dispose();
        }
      },
    );
    await vscode.workspace.fs.writeFile(uri, Buffer.from(qaCsv(rows), 'utf8'));
    void vscode.window
      .showInformationMessage(`Exported ${rows.length} Q&As to ${uri.path.split('/').pop()}.`, 'Open')
      .then((c) => c && vscode.window.showTextDocument(uri));
    return uri;
  }

  /** Sends the file unchanged (upload_faq_file); rows the service refused are listed, on the file when they can be found in it. */
  async uploadToService(file: vscode.Uri): Promise<{ notUploaded: number } | undefined> {
    const client = await this.c.connection.getClient();
    const name = file.path.split('/').pop()!;
    const res = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Sending ${name} to the service` },
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
          `Row ${row}: not uploaded by the service: ${n.state}`,
          vscode.DiagnosticSeverity.Error,
        );
        d.source = 'Knowledge Desk upload';
        return [d];
      }),
    );
    const text = res.notUploaded.length
      ? `The service took ${name} but did not upload ${res.notUploaded.length} row(s).`
      : `The service uploaded every row of ${name}.`;
    const lines = [
      `# Not uploaded from ${name}`,
      '',
      '| Question | Reason |',
      '|---|---|',
      ...res.notUploaded.map((n) => `| ${n.question.replace(/\|/g, '\\|')} | ${n.state.replace(/\|/g, '\\|')} |`),
    ];
    void (res.notUploaded.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage)(
      text,
      ...(res.notUploaded.length ? ['Show Details'] : []),
    ).then(async (choice) => {
      if (choice === 'Show Details')
        await vscode.window.showTextDocument(
          await vscode.workspace.openTextDocument({ language: 'markdown', content: lines.join('\n') + '\n' }),
        );
    });
    return { notUploaded: res.notUploaded.length };
  }
}
