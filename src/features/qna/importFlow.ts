import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import { existingLookup, existingQuestionIds, importItems, runQaImport, type QaImportItem, type QaImportOutcome } from '../../api/qaImport';
import { dryRunQaFile, rowsToSend } from '../../core/qaFile/dryRun';
import { columnLetter } from '../../core/qaFile/columns';
import { QA_FIELDS, qaFieldName } from '../../core/qaFile/fieldNames';
import type { QaUpdatePlan, RemovalChoice } from '../../core/qaFile/importPlan';
import type { ColumnMapping, RowProblem } from '../../core/qaFile/types';
import type { CommandServices, DetailsSource, SettingsSource } from '../../platform/commandServices';
import { toAbortSignal } from '../../platform/cancellation';
import { SettingKeys } from '../../platform/settings';
import { completeWalkthroughStep } from '../../platform/walkthrough';
import { formatNumber } from '../../platform/l10n';
import { changesMarkdown, dryRunMessage, importSummary, outcomeMarkdown, removalQuestion } from './importTexts';

/**
 * Problems of a dry run, on the file in the Problems panel. A problem is marked on the line its record starts
 * on, where the broken quote is: the line where the parser noticed it (`line`) is often the next record,
 * read again on its own and valid, so it is only pointed at.
 */
export function toDiagnostics(file: vscode.Uri, problems: RowProblem[]): vscode.Diagnostic[] {
  return problems.map((p) => {
    const line = Math.max(0, p.row - 1);
    const d = new vscode.Diagnostic(
      new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
      vscode.l10n.t('Row {0}: {1}', p.row, p.message),
      p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
    );
    d.source = vscode.l10n.t('Knowledge Desk import');
    d.code = p.code;
    if (p.line !== undefined && p.line !== p.row) {
      const noticed = new vscode.Range(p.line - 1, 0, p.line - 1, Number.MAX_SAFE_INTEGER);
      d.relatedInformation = [
        new vscode.DiagnosticRelatedInformation(
          new vscode.Location(file, noticed),
          vscode.l10n.t('Line {0}: where reading the quoted cell of row {1} stopped', p.line, p.row),
        ),
      ];
    }
    return d;
  });
}

/**
 * Import Q&A CSV: columns mapped from the header (confirmable), a dry run whose row-level problems and
 * field-by-field changes go to the Problems panel, the removals asked on their own, then new questions
 * registered and existing Q&As updated (only the fields that change) with progress and cancel. A row
 * that changes nothing is not sent, so running an import again changes nothing.
 */
export class QaImporter {
  constructor(
    private readonly c: CommandServices & SettingsSource & DetailsSource,
    private readonly diagnostics: vscode.DiagnosticCollection,
  ) {}

  async run(file: vscode.Uri, onDone: () => void): Promise<QaImportOutcome | undefined> {
    const client = await this.c.connection.getClient();
    const fileName = file.path.split('/').pop()!;
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
            const ids = await existingQuestionIds(client, signal);
            progress.report({ message: vscode.l10n.t('dry run…') });
            const lookup = existingLookup(client, ids);
            return await dryRunQaFile(file.fsPath, fileName, { existingQuestions: new Set(ids.keys()), lookup, mapping, signal });
          } finally {
            dispose();
          }
        },
      );
      this.diagnostics.set(file, toDiagnostics(file, dry.problems));
      const decision = await this.decide(fileName, dry);
      if (decision === 'columns') {
        mapping = await this.pickMapping(dry.headers, dry.mapping);
        if (!mapping) return undefined;
        continue;
      }
      if (decision !== 'import' || !dry.plan) return undefined;
      const removing = dry.plan.update.filter((u) => u.removes);
      const choice = removing.length ? await this.askRemovals(removing) : 'remove';
      if (!choice) return undefined;
      const outcome = await this.send(client, importItems(dry.plan, choice));
      onDone();
      if (outcome.imported > 0) completeWalkthroughStep('imported');
      // Not awaited: the command ends when the import does, not when the summary is dismissed.
      void this.report(outcome, client, onDone);
      return outcome;
    }
  }

  /**
   * The dry run's question. Show Problems and Show Changes do not end the import: the question is asked
   * again, as a notification (not a dialog) so the Problems panel and the report can be read meanwhile.
   */
  private async decide(fileName: string, dry: Awaited<ReturnType<typeof dryRunQaFile>>): Promise<'import' | 'columns' | undefined> {
    const s = dry.summary;
    const message = dryRunMessage(dry);
    const toSend = rowsToSend(s);
    const importRows = vscode.l10n.t('Import {0} Rows', toSend);
    const showChanges = vscode.l10n.t('Show Changes');
    const changeColumns = vscode.l10n.t('Change Columns…');
    const showProblems = vscode.l10n.t('Show Problems');
    const actions = [
      ...(toSend ? [importRows] : []),
      ...(dry.plan?.update.length ? [showChanges] : []),
      changeColumns,
      ...(dry.problems.length ? [showProblems] : []),
    ];
    let modal = true;
    for (;;) {
      const choice = await this.c.ui.showWarningMessage(message, { modal }, ...actions);
      if (choice === showProblems) await vscode.commands.executeCommand('workbench.panel.markers.view.focus');
      else if (choice === showChanges)
        await this.c.details.show(vscode.l10n.t('Changes from importing {0}', fileName), changesMarkdown(fileName, dry));
      else if (choice === changeColumns) return 'columns';
      else return choice === importRows ? 'import' : undefined;
      modal = false;
    }
  }

  /** Removals are asked on their own; keeping what is there comes first, and closing the question imports nothing. */
  private async askRemovals(removing: QaUpdatePlan[]): Promise<RemovalChoice | undefined> {
    const keep = vscode.l10n.t('Keep what is there');
    const remove = vscode.l10n.t('Remove them');
    const choice = await this.c.ui.showWarningMessage(removalQuestion(removing), { modal: true }, keep, remove);
    return choice === remove ? 'remove' : choice === keep ? 'keep' : undefined;
  }

  async send(client: ApiClient, items: QaImportItem[]): Promise<QaImportOutcome> {
    const concurrency = Math.max(1, Math.min(16, this.c.settings.get<number>(SettingKeys.qnaImportConcurrency, 4)));
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Importing Q&As'), cancellable: true },
      async (progress, token) => {
        const { signal, dispose } = toAbortSignal(token);
        try {
          return await runQaImport(client, items, {
            concurrency,
            signal,
            onProgress: (done, o) =>
              progress.report({
                increment: 100 / items.length,
                message: o.failed.length
                  ? vscode.l10n.t('{0} of {1} · {2} failed', formatNumber(done), formatNumber(items.length), formatNumber(o.failed.length))
                  : vscode.l10n.t('{0} of {1}', formatNumber(done), formatNumber(items.length)),
              }),
          });
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

  private async report(outcome: QaImportOutcome, client: ApiClient, onDone: () => void): Promise<void> {
    const retryFailed = vscode.l10n.t('Retry Failed');
    const showDetails = vscode.l10n.t('Show Details');
    const retry = outcome.failed.length || outcome.cancelled ? [retryFailed] : [];
    const show = outcome.failed.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const choice = await show(importSummary(outcome), ...retry, showDetails);
    if (choice === showDetails) {
      await this.c.details.show(vscode.l10n.t('Q&A import'), outcomeMarkdown(outcome));
    } else if (choice === retryFailed) {
      // The same requests again: registering a new question twice updates it, an update sets the same fields.
      const again = await this.send(
        client,
        outcome.failed.map((f) => f.item),
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
