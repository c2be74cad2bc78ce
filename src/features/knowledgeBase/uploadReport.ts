import * as vscode from 'vscode';
import type { UploadOptions } from '../../api/resources/kbNodeParams';
import type { JobOutcome, UploadJob } from '../../api/uploads/uploadRunner';
import type { Container } from '../../container';

export interface UploadReport {
  target: string;
  jobs: UploadJob[];
  outcomes: Map<string, JobOutcome>;
  options: UploadOptions;
}

const ACTION_LABEL = {
  created: 'created',
  overwritten: 'overwritten',
  skipped: 'skipped (identical)',
  suffix_added: 'added with a suffix',
} as const;

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
  const parts = (['created', 'overwritten', 'skipped', 'suffix_added'] as const)
    .filter((k) => c[k])
    .map((k) => `${c[k]} ${ACTION_LABEL[k]}`);
  let text = `Uploaded ${done} of ${report.jobs.length} to ${report.target}${parts.length ? `: ${parts.join(', ')}` : ''}.`;
  if (c.failed) text += ` ${c.failed} failed.`;
  if (c.cancelled) text += ` ${c.cancelled} not sent (cancelled).`;
  return text;
}

/** Failed or unsent jobs: what "Retry Failed" sends again (never what already succeeded). */
export function retryableJobs(report: UploadReport): UploadJob[] {
  return report.jobs.filter((j) => {
    const o = report.outcomes.get(j.id);
    return !o || o.status === 'cancelled' || (o.status === 'failed' && o.retryable);
  });
}

export async function showUploadSummary(
  c: Container,
  report: UploadReport,
  retry: (jobs: UploadJob[]) => Promise<UploadReport>,
): Promise<void> {
  const counts = countOutcomes(report);
  const retryable = retryableJobs(report);
  const actions = [...(retryable.length ? ['Retry Failed'] : []), 'Show Details'];
  const show = counts.failed || counts.cancelled ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const choice = await show(summaryText(report), ...actions);
  if (choice === 'Show Details') await showDetails(report);
  if (choice === 'Retry Failed') {
    const again = await retry(retryable);
    await showUploadSummary(c, again, retry);
  }
}

export function detailsMarkdown(report: UploadReport): string {
  const lines = [`# Upload to ${report.target}`, '', summaryText(report), '', '| File | Outcome | Detail |', '|---|---|---|'];
  for (const job of report.jobs) {
    const o = report.outcomes.get(job.id);
    const name = job.isZip ? `${job.fileName} (folder)` : job.fileName;
    const [outcome, detail] =
      !o || o.status === 'cancelled'
        ? ['not sent', 'cancelled']
        : o.status === 'failed'
          ? ['**failed**', `${o.message}${o.retryable ? ' (can be retried)' : ''}`]
          : [
              ACTION_LABEL[o.action],
              o.reconciled ? 'found in the knowledge base after a failed attempt' : o.nodes.map((n) => n.name).join(', '),
            ];
    lines.push(`| ${cell(name)} | ${outcome} | ${cell(detail)} |`);
  }
  return lines.join('\n') + '\n';
}

async function showDetails(report: UploadReport): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: detailsMarkdown(report) });
  await vscode.window.showTextDocument(doc, { preview: true });
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
