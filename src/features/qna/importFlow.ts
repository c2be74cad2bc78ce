import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import { dryRunQaFile, normalizeQuestion } from '../../core/qaFile/dryRun';
import { columnLetter } from '../../core/qaFile/columns';
import type { ColumnMapping, QaField, QaRow, RowProblem } from '../../core/qaFile/types';
import type { Container } from '../../container';
import { toAbortSignal } from '../../platform/cancellation';
import { SettingKeys } from '../../platform/settings';
import { completeWalkthroughStep } from '../../platform/walkthrough';

const FIELD_LABEL: Record<QaField, string> = {
  question: 'question',
  answer: 'answer',
  similarQuestions: 'similar questions',
  hashtags: 'hashtags',
  status: 'status',
  folder: 'folder',
  memo: 'memo',
};

export interface ImportOutcome {
  total: number;
  imported: number;
  created: number;
  updated: number;
  failed: Array<{ row: QaRow; message: string }>;
  cancelled: number;
}

/** Problems of a dry run, on the file in the Problems panel. */
export function toDiagnostics(problems: RowProblem[]): vscode.Diagnostic[] {
  return problems.map((p) => {
    const line = Math.max(0, (p.line ?? p.row) - 1);
    const d = new vscode.Diagnostic(
      new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
      `Row ${p.row}: ${p.message}`,
      p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
    );
    d.source = 'Knowledge Desk import';
    d.code = p.code;
    return d;
  });
}

/** Every existing question, normalised as the dry run compares them (pages of 1000). */
export async function existingQuestions(client: ApiClient, signal?: AbortSignal): Promise<Set<string>> {
  const set = new Set<string>();
  for (let offset = 0; ; offset += 1000) {
    const page = await client.faq.list({ offset, limit: 1000, format: 'text' }, { signal });
    for (const r of page.results) set.add(normalizeQuestion(r.question));
    if (page.results.length < 1000) return set;
  }
}

/**
 * Import Q&A CSV: columns mapped from the header (confirmable), a dry run whose row-level problems
 * go to the Problems panel, then the valid rows registered with progress and cancel. Registering
 * an existing question updates it, so running an import again is safe.
 */
export class QaImporter {
  constructor(
    private readonly c: Container,
    private readonly diagnostics: vscode.DiagnosticCollection,
  ) {}

  async run(file: vscode.Uri, onDone: () => void): Promise<ImportOutcome | undefined> {
    const client = await this.c.connection.getClient();
    let mapping: ColumnMapping | undefined;
    for (;;) {
      const dry = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Knowledge Desk: checking the Q&A file', cancellable: true },
        async (progress, token) => {
          const { signal, dispose } = toAbortSignal(token);
          try {
            progress.report({ message: 'reading existing Q&As…' });
            const existing = await existingQuestions(client, signal);
            progress.report({ message: 'dry run…' });
            return await dryRunQaFile(file.fsPath, file.path.split('/').pop()!, { existingQuestions: existing, mapping, signal });
          } finally {
            dispose();
          }
        },
      );
      this.diagnostics.set(file, toDiagnostics(dry.problems));
      const mapText = describeMapping(dry.mapping, dry.headers);
      const s = dry.summary;
      const message = `Dry run of ${s.total} rows (${dry.encoding}): ${s.valid} can be imported (${s.willCreate} new, ${s.willUpdate} update existing Q&As); ${s.errors} with errors, ${s.warnings} warnings. Columns: ${mapText}.`;
      const actions = [...(s.valid ? [`Import ${s.valid} Rows`] : []), 'Change Columns…', 'Show Problems'];
      const choice = await this.c.ui.showWarningMessage(message, { modal: true }, ...actions);
      if (choice === 'Show Problems') {
        await vscode.commands.executeCommand('workbench.panel.markers.view.focus');
        return undefined;
      }
      if (choice === 'Change Columns…') {
        mapping = await this.pickMapping(dry.headers, dry.mapping);
        if (!mapping) return undefined;
        continue;
      }
      if (!choice) return undefined;
      const outcome = await this.importRows(client, dry.rows);
      onDone();
      if (outcome.imported > 0) completeWalkthroughStep('imported');
      // Not awaited: the command ends when the import does, not when the summary is dismissed.
      void this.report(outcome, client, onDone);
      return outcome;
    }
  }

  async importRows(client: ApiClient, rows: QaRow[]): Promise<ImportOutcome> {
    const outcome: ImportOutcome = { total: rows.length, imported: 0, created: 0, updated: 0, failed: [], cancelled: 0 };
    const concurrency = Math.max(1, Math.min(16, this.c.settings.get<number>(SettingKeys.qnaImportConcurrency, 4)));
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Importing Q&As', cancellable: true },
      async (progress, token) => {
        const { signal, dispose } = toAbortSignal(token);
        let next = 0;
        let done = 0;
        const worker = async (): Promise<void> => {
          for (let i = next++; i < rows.length; i = next++) {
            if (signal?.aborted) {
              outcome.cancelled++;
              continue;
            }
            const row = rows[i];
            try {
              const res = await client.faq.register(
                {
                  question: row.question,
                  answer: row.answer,
                  status: row.status,
                  similarQuestions: row.similarQuestions,
                  hashtags: row.hashtags,
                  folder: row.folder,
                  memo: row.memo,
                },
                { signal },
              );
              outcome.imported++;
              if (res.status === 'updated') outcome.updated++;
              else outcome.created++;
            } catch (error) {
              if (signal?.aborted) outcome.cancelled++;
              else outcome.failed.push({ row, message: error instanceof Error ? error.message : String(error) });
            }
            done++;
            progress.report({
              increment: 100 / rows.length,
              message: `${done} of ${rows.length}${outcome.failed.length ? ` · ${outcome.failed.length} failed` : ''}`,
            });
          }
        };
        try {
          await Promise.all(Array.from({ length: concurrency }, worker));
        } finally {
          dispose();
        }
      },
    );
    this.c
      .log('qna')
      .info(
        `import: ${outcome.imported}/${outcome.total} (${outcome.created} created, ${outcome.updated} updated), ${outcome.failed.length} failed, ${outcome.cancelled} cancelled`,
      );
    return outcome;
  }

  private async report(outcome: ImportOutcome, client: ApiClient, onDone: () => void): Promise<void> {
    const text = `Imported ${outcome.imported} of ${outcome.total} Q&As (${outcome.created} new, ${outcome.updated} updated)${outcome.failed.length ? `; ${outcome.failed.length} failed` : ''}${outcome.cancelled ? `; ${outcome.cancelled} not sent (cancelled)` : ''}.`;
    const retry = outcome.failed.length || outcome.cancelled ? ['Retry Failed'] : [];
    const show = outcome.failed.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const choice = await show(text, ...retry, 'Show Details');
    if (choice === 'Show Details') {
      const lines = [
        `# Q&A import`,
        '',
        text,
        '',
        '| Row | Question | Problem |',
        '|---|---|---|',
        ...outcome.failed.map((f) => `| ${f.row.row} | ${cell(f.row.question)} | ${cell(f.message)} |`),
      ];
      await vscode.window.showTextDocument(
        await vscode.workspace.openTextDocument({ language: 'markdown', content: lines.join('\n') + '\n' }),
      );
    } else if (choice === 'Retry Failed') {
      // Registering is idempotent (same question → update), so retrying never duplicates.
      const again = await this.importRows(
        client,
        outcome.failed.map((f) => f.row),
      );
      onDone();
      await this.report(again, client, onDone);
    }
  }

  private async pickMapping(headers: string[], current: ColumnMapping): Promise<ColumnMapping | undefined> {
    const mapping: ColumnMapping = { ...current };
    for (const field of Object.keys(FIELD_LABEL) as QaField[]) {
      const required = field === 'question' || field === 'answer';
      const items = [
        ...(required ? [] : [{ label: '(none)', index: -1 }]),
        ...headers.map((h, i) => ({ label: `${columnLetter(i)}: ${h || '(empty header)'}`, index: i, picked: mapping[field] === i })),
      ];
      const pick = await this.c.ui.showQuickPick(items, {
        title: `Column for ${FIELD_LABEL[field]}${required ? ' (required)' : ''}`,
        placeHolder: mapping[field] !== undefined ? `now: ${headers[mapping[field]!]}` : 'not mapped',
      });
      if (!pick) return undefined;
      if (pick.index < 0) delete mapping[field];
      else mapping[field] = pick.index;
    }
    return mapping;
  }
}

export function describeMapping(mapping: ColumnMapping, headers: string[]): string {
  const parts = (Object.keys(FIELD_LABEL) as QaField[])
    .filter((f) => mapping[f] !== undefined)
    .map((f) => `${FIELD_LABEL[f]} ← ${headers[mapping[f]!] || columnLetter(mapping[f]!)}`);
  return parts.join(', ') || 'none recognised';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
