// What the Q&A import says: the dry run's message and its changes report, the removal question, the summary.
import * as vscode from 'vscode';
import type { QaImportOutcome } from '../../api/qaImport';
import type { DryRunResult } from '../../core/qaFile/dryRun';
import { columnLetter } from '../../core/qaFile/columns';
import { QA_FIELDS, qaFieldName } from '../../core/qaFile/fieldNames';
import type { QaUpdatePlan } from '../../core/qaFile/importPlan';
import type { ColumnMapping } from '../../core/qaFile/types';
import { formatNumber } from '../../platform/l10n';

/** Removals listed in a dialog; the changes report lists them all. */
const LISTED = 3;

export function describeMapping(mapping: ColumnMapping, headers: string[]): string {
  const parts = QA_FIELDS.filter((f) => mapping[f] !== undefined).map(
    (f) => `${qaFieldName(f, 'column')} ← ${headers[mapping[f]!] || columnLetter(mapping[f]!)}`,
  );
  return parts.join(', ') || vscode.l10n.t('none recognised');
}

/** The dry run's dialog: removals first, then the counts, then (when it updates) what empty cells and missing columns mean. */
export function dryRunMessage(dry: DryRunResult & { mapping: ColumnMapping; headers: string[]; encoding: string }): string {
  const s = dry.summary;
  const parts: string[] = [];
  const removing = dry.plan?.update.filter((u) => u.removes) ?? [];
  if (removing.length) parts.push(removalList(removing));
  parts.push(
    vscode.l10n.t(
      'Dry run of {0} rows ({1}): {2} can be imported ({3} new, {4} update existing Q&As); {5} with errors, {6} warnings. Columns: {7}.',
      formatNumber(s.total),
      readAs(dry.encoding),
      formatNumber(s.valid),
      formatNumber(s.willCreate),
      formatNumber(s.willUpdate),
      formatNumber(s.errors),
      formatNumber(s.warnings),
      describeMapping(dry.mapping, dry.headers),
    ),
  );
  if (s.unchanged)
    parts.push(vscode.l10n.t('{0} existing Q&As are already as the file has them and are not sent.', formatNumber(s.unchanged)));
  // The rule is about existing Q&As: a file of new ones only would read a paragraph that does not apply to it.
  if (s.willUpdate || s.unchanged) parts.push(emptyCellRule());
  return parts.join('\n\n');
}

/** Which encoding the file was read with: a guess for CSV files without a BOM, so the person can see it. */
export function readAs(encoding: string): string {
  if (encoding === 'xlsx') return vscode.l10n.t('Excel workbook');
  const name = ENCODING_NAMES[encoding] ?? encoding;
  return vscode.l10n.t('read as {0}', name);
}

const ENCODING_NAMES: Record<string, string> = {
  'utf-8': 'UTF-8',
  'utf-8-bom': 'UTF-8 (BOM)',
  shift_jis: 'Shift_JIS',
  'windows-1252': 'Windows-1252',
};

/** What an empty cell means, said in the dry run (and in the README). */
export function emptyCellRule(): string {
  return vscode.l10n.t(
    'A column the file does not have changes nothing. An empty cell in a column it has means none (no similar questions, hashtags or folder; an empty status keeps the status): taking something away from an existing Q&A is asked first, and keeping is the default.',
  );
}

function removalList(removing: QaUpdatePlan[]): string {
  const head =
    removing.length === 1
      ? vscode.l10n.t('1 existing Q&A would lose something (you are asked before anything is removed):')
      : vscode.l10n.t('{0} existing Q&As would lose something (you are asked before anything is removed):', formatNumber(removing.length));
  const lines = removing.slice(0, LISTED).map((u) =>
    vscode.l10n.t(
      'Row {0} "{1}": {2}',
      u.row.row,
      short(u.row.question),
      u.changes
        .filter((c) => c.removes)
        .map((c) => c.text)
        .join('; '),
    ),
  );
  if (removing.length > LISTED)
    lines.push(vscode.l10n.t('…and {0} more (Show Changes lists them all).', formatNumber(removing.length - LISTED)));
  return [head, ...lines.map((l) => `• ${l}`)].join('\n');
}

/** The question asked on its own before an import that removes something. */
export function removalQuestion(removing: QaUpdatePlan[]): string {
  return `${removalList(removing)}\n\n${vscode.l10n.t('Remove them, or keep what is there and only add and change?')}`;
}

/** "Show Changes": every existing Q&A the file changes, field by field, removals first. */
export function changesMarkdown(fileName: string, dry: DryRunResult): string {
  const plan = dry.plan;
  const lines = [`# ${vscode.l10n.t('Changes from importing {0}', fileName)}`, '', emptyCellRule(), ''];
  const table = (rows: QaUpdatePlan[]): string[] => [
    `| ${vscode.l10n.t('Row')} | ${vscode.l10n.t('Question')} | ${vscode.l10n.t('Changes')} |`,
    '|---|---|---|',
    ...rows.map((u) => `| ${u.row.row} | ${cell(u.row.question)} | ${cell(u.changes.map((c) => c.text).join('; '))} |`),
  ];
  const removing = plan?.update.filter((u) => u.removes) ?? [];
  const changing = plan?.update.filter((u) => !u.removes) ?? [];
  if (removing.length) lines.push(`## ${vscode.l10n.t('Removals (asked before importing)')}`, '', ...table(removing), '');
  if (changing.length) lines.push(`## ${vscode.l10n.t('Updates')}`, '', ...table(changing), '');
  lines.push(
    vscode.l10n.t(
      '{0} new Q&As; {1} existing Q&As unchanged.',
      formatNumber(dry.summary.willCreate),
      formatNumber(dry.summary.unchanged ?? 0),
    ),
  );
  return lines.join('\n') + '\n';
}

/** "Imported 3 of 4 Q&As (2 new, 1 updated); 1 failed." */
export function importSummary(o: QaImportOutcome): string {
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

/** The report "Show Details" opens after an import. */
export function outcomeMarkdown(o: QaImportOutcome): string {
  const lines = [
    `# ${vscode.l10n.t('Q&A import')}`,
    '',
    importSummary(o),
    '',
    `| ${vscode.l10n.t('Row')} | ${vscode.l10n.t('Question')} | ${vscode.l10n.t('Problem')} |`,
    '|---|---|---|',
    ...o.failed.map((f) => `| ${f.item.row.row} | ${cell(f.item.row.question)} | ${cell(f.message)} |`),
  ];
  return lines.join('\n') + '\n';
}

function short(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
