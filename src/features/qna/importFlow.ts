import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import { dryRunQaFile, normalizeQuestion } from '../../core/qaFile/dryRun';
import { columnLetter } from '../../core/qaFile/columns';
import { QA_FIELDS, qaFieldName } from '../../core/qaFile/fieldNames';
import type { ColumnMapping, QaRow, RowProblem } from '../../core/qaFile/types';
import type { Container } from '../../container';
import { toAbortSignal } from '../../platform/cancellation';
import { SettingKeys } from '../../platform/settings';
import { completeWalkthroughStep } from '../../platform/walkthrough';
import { formatNumber } from '../../platform/l10n';

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
      vscode.l10n.t('Row {0}: {1}', p.row, p.message),
      p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
    );
    d.source = vscode.l10n.t('Knowledge Desk import');
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
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Knowledge Desk: checking the Q&A file'),
          cancellable: true,
        },
        async (progress, token) => {
          const { signal, dispose } = toAbortSignal(token);
          try {
            progress.report({ message: vscode.l10n.t('reading existing Q&As…') });
            const existing = await existingQuestions(client, signal);
            progress.report({ message: vscode.l10n.t('dry run…') });
            return await dryRunQaFile(file.fsPath, file.path.split('/').pop()!, { existingQuestions: existing, mapping, signal });
          } finally {
            dispose();
          }
        },
      );
      this.diagnostics.set(file, toDiagnostics(dry.problems));
      const mapText = describeMapping(dry.mapping, dry.headers);
      const s = dry.summary;
      const message = vscode.l10n.t(
        'Dry run of {0} rows ({1}): {2} can be imported ({3} new, {4} update existing Q&As); {5} with errors, {6} warnings. Columns: {7}.',
        formatNumber(s.total),
        dry.encoding,
        formatNumber(s.valid),
        formatNumber(s.willCreate),
        formatNumber(s.willUpdate),
        formatNumber(s.errors),
        formatNumber(s.warnings),
        mapText,
      );
      const changeColumns = vscode.l10n.t('Change Columns…');
      const showProblems = vscode.l10n.t('Show Problems');
      const actions = [...(s.valid ? [vscode.l10n.t('Import {0} Rows', s.valid)] : []), changeColumns, showProblems];
      const choice = await this.c.ui.showWarningMessage(message, { modal: true }, ...actions);
      if (choice === showProblems) {
        await vscode.commands.executeCommand('workbench.panel.markers.view.focus');
        return undefined;
      }
      if (choice === changeColumns) {
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
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Importing Q&As'), cancellable: true },
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
              message: outcome.failed.length
                ? vscode.l10n.t(
                    '{0} of {1} · {2} failed',
                    formatNumber(done),
                    formatNumber(rows.length),
                    formatNumber(outcome.failed.length),
                  )
                : vscode.l10n.t('{0} of {1}', formatNumber(done), formatNumber(rows.length)),
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
    const text = importSummary(outcome);
    const retryFailed = vscode.l10n.t('Retry Failed');
    const showDetails = vscode.l10n.t('Show Details');
    const retry = outcome.failed.length || outcome.cancelled ? [retryFailed] : [];
    const show = outcome.failed.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const choice = await show(text, ...retry, showDetails);
    if (choice === showDetails) {
      const lines = [
        `# ${vscode.l10n.t('Q&A import')}`,
        '',
        text,
        '',
        `| ${vscode.l10n.t('Row')} | ${vscode.l10n.t('Question')} | ${vscode.l10n.t('Problem')} |`,
        '|---|---|---|',
        ...outcome.failed.map((f) => `| ${f.row.row} | ${cell(f.row.question)} | ${cell(f.message)} |`),
      ];
      await vscode.window.showTextDocument(
        await vscode.workspace.openTextDocument({ language: 'markdown', content: lines.join('\n') + '\n' }),
      );
    } else if (choice === retryFailed) {
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
    for (const field of QA_FIELDS) {
      const required = field === 'question' || field === 'answer';
      const items = [
        ...(required ? [] : [{ label: vscode.l10n.t('(none)'), index: -1 }]),
        ...headers.map((h, i) => ({
          label: `${columnLetter(i)}: ${h || vscode.l10n.t('(empty header)')}`,
          index: i,
          picked: mapping[field] === i,
        })),
      ];
      const pick = await this.c.ui.showQuickPick(items, {
        title: required
          ? vscode.l10n.t('Column for {0} (required)', qaFieldName(field, 'column'))
          : vscode.l10n.t('Column for {0}', qaFieldName(field, 'column')),
        placeHolder: mapping[field] !== undefined ? vscode.l10n.t('now: {0}', headers[mapping[field]!]) : vscode.l10n.t('not mapped'),
      });
      if (!pick) return undefined;
      if (pick.index < 0) delete mapping[field];
      else mapping[field] = pick.index;
    }
    return mapping;
  }
}

export function describeMapping(mapping: ColumnMapping, headers: string[]): string {
  const parts = QA_FIELDS.filter((f) => mapping[f] !== undefined).map(
    (f) => `${qaFieldName(f, 'column')} ← ${headers[mapping[f]!] || columnLetter(mapping[f]!)}`,
  );
  return parts.join(', ') || vscode.l10n.t('none recognised');
}

/** "Imported 3 of 4 Q&As (2 new, 1 updated); 1 failed." */
function importSummary(o: ImportOutcome): string {
  const [imported, total, created, updated, failed, cancelled] = [
    o.imported,
    o.total,
    o.created,
    o.updated,
    o.failed.length,
    o.cancelled,
  ].map((v) => formatNumber(v));
  if (o.failed.length && o.cancelled)
    return vscode.l10n.t(
      'Imported {0} of {1} Q&As ({2} new, {3} updated); {4} failed; {5} not sent (cancelled).',
      imported,
      total,
      created,
      updated,
      failed,
      cancelled,
    );
  if (o.failed.length)
    return vscode.l10n.t('Imported {0} of {1} Q&As ({2} new, {3} updated); {4} failed.', imported, total, created, updated, failed);
  if (o.cancelled)
    return vscode.l10n.t(
      'Imported {0} of {1} Q&As ({2} new, {3} updated); {4} not sent (cancelled).',
      imported,
      total,
      created,
      updated,
      cancelled,
    );
  return vscode.l10n.t('Imported {0} of {1} Q&As ({2} new, {3} updated).', imported, total, created, updated);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
