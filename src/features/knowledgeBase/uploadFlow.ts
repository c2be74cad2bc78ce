import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import type { UploadOptions } from '../../api/resources/kbNodeParams';
import { listChildren, planUploads, type FolderMode } from '../../api/uploads/planUploads';
import { runUploads, type JobOutcome, type UploadJob } from '../../api/uploads/uploadRunner';
import type { CommandServices, DetailsSource, SettingsSource } from '../../platform/commandServices';
import type { Log } from '../../platform/logger';
import { toAbortSignal } from '../../platform/cancellation';
import { SettingKeys } from '../../platform/settings';
import { targetLabel, type FolderChoice } from '../../platform/pickers/folderPicker';
import { activeConnectionLabel, titleWithName } from '../../platform/connection/connectionLabel';
import { completeWalkthroughStep } from '../../platform/walkthrough';
import { showUploadSummary, type UploadReport } from './uploadReport';

/** What an upload batch uses: the client and region, prompts, a log, the upload settings, Show Details. */
export type UploadServices = CommandServices & SettingsSource & DetailsSource;

export type OverwritePolicy = 'ask' | 'overwrite' | 'keepBoth';

export interface UploadRequest {
  paths: string[];
  target: FolderChoice;
  folderMode?: FolderMode;
  hashtags?: string[];
}

/** What an upload batch did, for the tree (refresh, watch processing) and for tests. */
export interface BatchResult {
  report: UploadReport;
  newNodes: Array<{ id: string; parentId: string | null; name: string; processState?: string }>;
}

/**
 * One upload batch: plan (zip or sync folders, find empty/unreadable/too-large files), settle name
 * conflicts once, upload with bounded concurrency under one cancellable notification, then a
 * summary with "Retry Failed" and "Upload the Rest" after a cancel (never resending what succeeded) and "Show Details".
 */
export async function uploadBatch(
  c: UploadServices,
  request: UploadRequest,
  onBatch: (r: BatchResult) => void,
): Promise<BatchResult | undefined> {
  const client = await c.connection.getClient();
  const startedOn = c.connection.store.active;
  const tempDir = await mkdtemp(path.join(tmpdir(), 'kd-upload-'));
  const removeTemp = (): Promise<void> => rm(tempDir, { recursive: true, force: true });
  let summaryOwnsTemp = false;
  try {
    const plan = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: titled(c, vscode.l10n.t('Knowledge Desk: preparing upload')),
        cancellable: true,
      },
      async (progress, token) => {
        const { signal, dispose } = toAbortSignal(token);
        try {
          return await planUploads(client, {
            paths: request.paths,
            targetFolderId: request.target.id ?? undefined,
            folderMode: request.folderMode ?? 'zip',
            maxBytes: c.connection.region === 'local' ? c.settings.get<number>(SettingKeys.localMaxUploadMb, 512) * 1024 * 1024 : undefined,
            tempDir,
            compressionLevel: c.connection.region === 'local' ? 0 : 6,
            signal,
            onStatus: (message) => progress.report({ message }),
          });
        } finally {
          dispose();
        }
      },
    );
    if (!plan.jobs.length) return undefined;
    const isOverwrite = await decideOverwrite(c, client, plan.jobs, request.target);
    if (isOverwrite === undefined) return undefined;
    const options: UploadOptions = { isOverwrite, ...(request.hashtags?.length ? { hashtags: request.hashtags } : {}) };
    const report: UploadReport = { target: targetLabel(request.target), jobs: plan.jobs, outcomes: new Map(), options };
    const result = await runBatch(c, client, report, plan.jobs);
    onBatch(result);
    if ([...report.outcomes.values()].some((o) => o.status === 'done')) completeWalkthroughStep('uploaded');
    // Retry Failed sends a folder's ZIP again from the temp folder: it goes when the summary is closed, not before.
    summaryOwnsTemp = true;
    void showUploadSummary(c, report, async (jobs) => {
      // The files belong to the project they were sent to: after a switch, a retry would put them in another one.
      // Nothing is sent then; the summary comes back, so Retry works once the user has switched back.
      if (c.connection.store.active.id !== startedOn.id) {
        void vscode.window.showErrorMessage(
          vscode.l10n.t('These files were being uploaded to {0}. Switch back to {0} to retry them.', startedOn.name),
        );
        return report;
      }
      const retried = await runBatch(c, await c.connection.getClient(), report, jobs, true);
      onBatch(retried);
      return retried.report;
    }).finally(removeTemp);
    return result;
  } finally {
    if (!summaryOwnsTemp) await removeTemp();
  }
}

async function runBatch(
  c: UploadServices,
  client: ApiClient,
  report: UploadReport,
  jobs: UploadJob[],
  reconcileFirst = false,
): Promise<BatchResult> {
  const log = c.log('upload');
  const newNodes: BatchResult['newNodes'] = [];
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: titled(c, vscode.l10n.t('Uploading to {0}', report.target)),
      cancellable: true,
    },
    async (progress, token) => {
      const { signal, dispose } = toAbortSignal(token);
      let reported = 0;
      try {
        await runUploads(client, jobs, {
          concurrency: Math.min(16, Math.max(1, c.settings.get<number>(SettingKeys.uploadConcurrency, 4))),
          options: report.options,
          signal,
          reconcileFirst,
          onProgress: (p) => {
            const pct = p.total ? (p.finished / p.total) * 100 : 0;
            progress.report({
              increment: pct - reported,
              message: [
                vscode.l10n.t('{0} of {1}', p.finished, p.total),
                p.failed ? vscode.l10n.t('{0} failed', p.failed) : '',
                p.current ?? '',
              ]
                .filter(Boolean)
                .join(' · '),
            });
            reported = pct;
          },
          onOutcome: (job, outcome) => {
            report.outcomes.set(job.id, outcome);
            logOutcome(log, job, outcome);
            if (outcome.status === 'done') {
              for (const n of outcome.nodes) {
                const state = (n as { processState?: string }).processState;
                newNodes.push({ id: n.id, parentId: n.parentFolder?.id ?? null, name: n.name, processState: state });
              }
            }
          },
        });
      } finally {
        dispose();
      }
    },
  );
  return { report, newNodes };
}

/** A title naming the connection the files go to, once the user has a connection of their own (as the prompts do). */
function titled(c: UploadServices, title: string): string {
  return titleWithName(title, activeConnectionLabel(c.connection.store));
}

/** isOverwrite for the batch: from the setting, or asked once when names already exist in the target. */
async function decideOverwrite(
  c: UploadServices,
  client: ApiClient,
  jobs: UploadJob[],
  target: FolderChoice,
): Promise<boolean | undefined> {
  const policy = c.settings.get<OverwritePolicy>(SettingKeys.uploadOverwritePolicy, 'ask');
  if (policy !== 'ask') return policy === 'overwrite';
  const byFolder = new Map<string | null, string[]>();
  for (const j of jobs)
    if (!j.isZip && !j.problem) byFolder.set(j.targetFolderId ?? null, [...(byFolder.get(j.targetFolderId ?? null) ?? []), j.fileName]);
  const conflicts: string[] = [];
  for (const [folder, names] of byFolder) {
    const existing = new Set((await listChildren(client, folder)).map((n) => n.name));
    conflicts.push(...names.filter((n) => existing.has(n)));
  }
  if (!conflicts.length) return false;
  const shown = conflicts.slice(0, 5).join(', ') + (conflicts.length > 5 ? vscode.l10n.t(', and {0} more', conflicts.length - 5) : '');
  const overwrite = vscode.l10n.t('Overwrite');
  const choice = await c.ui.showWarningMessage(
    vscode.l10n.t(
      '{0} of the files already exist in {1}: {2}. Identical files are skipped either way; for changed ones, overwrite them or keep both (a suffixed copy)?',
      conflicts.length,
      targetLabel(target),
      shown,
    ),
    { modal: true },
    overwrite,
    vscode.l10n.t('Keep Both'),
  );
  return choice === undefined ? undefined : choice === overwrite;
}

function logOutcome(log: Log, job: UploadJob, outcome: JobOutcome): void {
  if (outcome.status === 'done')
    log.info(`${job.fileName}: ${outcome.action}${outcome.reconciled ? ' (found after a failed attempt)' : ''}`);
  else if (outcome.status === 'failed') log.warn(`${job.fileName}: failed: ${outcome.message}`);
  else log.info(`${job.fileName}: cancelled`);
}
