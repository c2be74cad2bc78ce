import * as vscode from 'vscode';
import type { UploadOptions } from '../../api/resources/kbNodeParams';
import type { JobOutcome, UploadJob } from '../../api/uploads/uploadRunner';
import type { DetailsSource } from '../../platform/commandServices';
import { joinSentences } from '../../platform/intlFormat';

export interface UploadReport {
  target: string;
  jobs: UploadJob[];
  outcomes: Map<string, JobOutcome>;
  options: UploadOptions;
}

type Action = 'created' | 'overwritten' | 'skipped' | 'suffix_added';

/** What happened to one file: its word in the Outcome column, and "3 created" in the summary. */
const ACTIONS: Record<Action, { label: () => string; count: (n: number) => string }> = {
  created: { label: () => vscode.l10n.t('created'), count: (n) => vscode.l10n.t('{0} created', n) },
  overwritten: { label: () => vscode.l10n.t('overwritten'), count: (n) => vscode.l10n.t('{0} overwritten', n) },
  skipped: { label: () => vscode.l10n.t('skipped (identical)'), count: (n) => vscode.l10n.t('{0} skipped (identical)', n) },
  suffix_added: { label: () => vscode.l10n.t('added with a suffix'), count: (n) => vscode.l10n.t('{0} added with a suffix', n) },
};

export interface ReportCounts {
  created: number;
  overwritten: number;
  skipped: number;
  suffix_added: number;
  failed: number;
  cancelled: number;
}

export function countOutcomes(report: UploadReport): ReportCounts {
  const counts: ReportCounts = { created: 0, overwritten: 0, skipped: 0, suffix_added: 0, failed: 0, cancelled: 0 };
  for (const job of report.jobs) {
    const o = report.outcomes.get(job.id);
    if (!o || o.status === 'cancelled') counts.cancelled++;
    else if (o.status === 'failed') counts.failed++;
    else counts[o.action]++;
  }
  return counts;
}

export function summaryText(report: UploadReport): string {
  const c = countOutcomes(report);
  const done = c.created + c.overwritten + c.skipped + c.suffix_added;
  const parts = (Object.keys(ACTIONS) as Action[]).filter((k) => c[k]).map((k) => ACTIONS[k].count(c[k]));
  let text = parts.length
    ? vscode.l10n.t('Uploaded {0} of {1} to {2}: {3}.', done, report.jobs.length, report.target, parts.join(', '))
    : vscode.l10n.t('Uploaded {0} of {1} to {2}.', done, report.jobs.length, report.target);
  if (c.failed) text = joinSentences(text, vscode.l10n.t('{0} failed.', c.failed));
  if (c.cancelled) text = joinSentences(text, vscode.l10n.t('{0} not sent (cancelled).', c.cancelled));
  return text;
}

/** A follow-up the summary offers: its button and the jobs it sends. */
export interface FollowUp {
  label: string;
  jobs: UploadJob[];
}

/**
 * What the summary offers to send (never what already succeeded): "Retry Failed" for failures that may
 * succeed another time, "Upload the Rest" for files a cancel left unsent; both when there are both.
 */
export function followUps(report: UploadReport): FollowUp[] {
  const failed: UploadJob[] = [];
  const rest: UploadJob[] = [];
  for (const job of report.jobs) {
    const o = report.outcomes.get(job.id);
    if (!o || o.status === 'cancelled') rest.push(job);
    else if (o.status === 'failed' && o.retryable) failed.push(job);
  }
  return [
    ...(failed.length ? [{ label: vscode.l10n.t('Retry Failed'), jobs: failed }] : []),
    ...(rest.length ? [{ label: vscode.l10n.t('Upload the Rest'), jobs: rest }] : []),
  ];
}

export async function showUploadSummary(
  c: DetailsSource,
  report: UploadReport,
  retry: (jobs: UploadJob[]) => Promise<UploadReport>,
): Promise<void> {
  const counts = countOutcomes(report);
  const offered = followUps(report);
  const showDetailsLabel = vscode.l10n.t('Show Details');
  const show = counts.failed || counts.cancelled ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const choice = await show(summaryText(report), ...offered.map((f) => f.label), showDetailsLabel);
  if (choice === showDetailsLabel) await c.details.show(vscode.l10n.t('Upload to {0}', report.target), detailsMarkdown(report));
  const followUp = offered.find((f) => f.label === choice);
  if (followUp) {
    const again = await retry(followUp.jobs);
    await showUploadSummary(c, again, retry);
  }
}

export function detailsMarkdown(report: UploadReport): string {
  const lines = [
    `# ${vscode.l10n.t('Upload to {0}', report.target)}`,
    '',
    summaryText(report),
    '',
    `| ${vscode.l10n.t('File')} | ${vscode.l10n.t('Outcome')} | ${vscode.l10n.t('Detail')} |`,
    '|---|---|---|',
  ];
  for (const job of report.jobs) {
    const o = report.outcomes.get(job.id);
    const name = job.isZip ? vscode.l10n.t('{0} (folder)', job.fileName) : job.fileName;
    const [outcome, detail] =
      !o || o.status === 'cancelled'
        ? [vscode.l10n.t('not sent'), vscode.l10n.t('cancelled')]
        : o.status === 'failed'
          ? [`**${vscode.l10n.t('failed')}**`, o.retryable ? vscode.l10n.t('{0} (can be retried)', o.message) : o.message]
          : [
              ACTIONS[o.action].label(),
              o.reconciled ? vscode.l10n.t('found in the knowledge base after a failed attempt') : o.nodes.map((n) => n.name).join(', '),
            ];
    lines.push(`| ${cell(name)} | ${outcome} | ${cell(detail)} |`);
  }
  return lines.join('\n') + '\n';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
