import * as vscode from 'vscode';
import type { BulkResult, RareResult } from '../../api/schemas/jobs';
import { Disposable } from '../../platform/lifecycle';
import { pagingTail, type PagingElement } from '../../platform/tree/pagingElements';
import { pagingTreeItem } from '../../platform/tree/pagingItems';
import { jobStateLabel } from './jobStatNames';
import {
  bulkProgressText,
  formatDate,
  isActiveState,
  printableEntries,
  rareJobDescription,
  rareJobError,
  rareJobState,
  rareProgress,
  rareStats,
  type RareJob,
} from './jobModel';
import { bulkTypeLabel } from './jobParams';
import type { JobsStore } from './jobsStore';
import { CommandIds, ViewIds } from '../../platform/commandIds';

export const JOBS_VIEW = ViewIds.jobs;

export type JobsGroup = 'rare' | 'bulk';

/** Paging rows (error, message, Load more) name their parent by key: 'rare', 'bulk' or 'rareResults'. */
export type JobsElement =
  | { kind: 'group'; group: JobsGroup }
  | { kind: 'job'; job: RareJob }
  | { kind: 'rareResults' }
  | { kind: 'rareResult'; result: RareResult }
  | { kind: 'bulkResult'; result: BulkResult }
  | PagingElement;

export type RareResultElement = Extract<JobsElement, { kind: 'rareResult' }>;
export type BulkResultElement = Extract<JobsElement, { kind: 'bulkResult' }>;
export type ResultElement = RareResultElement | BulkResultElement;

const ICONS: Record<string, [string, string?]> = {
  idle: ['circle-outline'],
  queued: ['clock'],
  running: ['sync~spin'],
  completed: ['pass', 'testing.iconPassed'],
  failed: ['error', 'errorForeground'],
  cancelled: ['circle-slash', 'disabledForeground'],
};

function stateIcon(state: string): vscode.ThemeIcon {
  const [id, color] = ICONS[state] ?? (isActiveState(state) ? ICONS.running : ['question']);
  return new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
}

/** A context value part made of word characters only (a service state could be any string). */
const ctx = (s: string | null | undefined): string => (s || 'unknown').replace(/\W/g, '_');

/**
 * The Jobs tree over a JobsStore. Elements are plain tagged objects kept per key, so the same object
 * comes back for the same job or result (reveal and selection survive a poll).
 */
export class JobsTreeProvider extends Disposable implements vscode.TreeDataProvider<JobsElement> {
  private readonly emitter = this._register(new vscode.EventEmitter<JobsElement | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly elements = new Map<string, JobsElement>();

  constructor(private readonly store: JobsStore) {
    super();
  }

  fire(): void {
    this.emitter.fire(undefined);
  }

  private keep<T extends JobsElement>(key: string, make: () => T, update?: (e: T) => void): T {
    let e = this.elements.get(key) as T | undefined;
    if (!e) this.elements.set(key, (e = make()));
    else update?.(e);
    return e;
  }

  group(group: JobsGroup): JobsElement {
    return this.keep(`group:${group}`, () => ({ kind: 'group', group }));
  }

  job(job: RareJob): JobsElement {
    return this.keep(`job:${job}`, () => ({ kind: 'job', job }));
  }

  rareResultsNode(): JobsElement {
    return this.keep('rareResults', () => ({ kind: 'rareResults' }));
  }

  rareResult(result: RareResult): RareResultElement {
    return this.keep(
      `rare:${result.id}`,
      () => ({ kind: 'rareResult', result }),
      (e) => (e.result = result),
    );
  }

  bulkResult(result: BulkResult): BulkResultElement {
    return this.keep(
      `bulk:${result.id}`,
      () => ({ kind: 'bulkResult', result }),
      (e) => (e.result = result),
    );
  }

  getChildren(element?: JobsElement): JobsElement[] {
    const s = this.store;
    if (!element) return [this.group('rare'), this.group('bulk')];
    const error = (parentKey: string, message: string): PagingElement => ({ kind: 'error', parentKey, message });
    const message = (parentKey: string, text: string, command?: string): PagingElement => ({ kind: 'message', parentKey, text, command });
    if (element.kind === 'group' && element.group === 'rare') {
      if (s.rareError && !s.rare) return [error('rare', s.rareError)];
      if (!s.loaded) return [message('rare', vscode.l10n.t('Loading…'))];
      const out: JobsElement[] = [this.job('build'), this.job('generate'), this.rareResultsNode()];
      if (s.rareError) out.push(error('rare', s.rareError));
      return out;
    }
    if (element.kind === 'rareResults') {
      const out: JobsElement[] = s.rareResults.map((r) => this.rareResult(r));
      if (s.rareResultsError) out.push(error('rareResults', s.rareResultsError));
      else if (!out.length) out.push(message('rareResults', vscode.l10n.t('No results yet: a completed generate adds one.')));
      return out;
    }
    if (element.kind === 'group' && element.group === 'bulk') {
      if (!s.loaded) return [message('bulk', vscode.l10n.t('Loading…'))];
      const out: JobsElement[] = s.bulk.map((b) => this.bulkResult(b));
      const tail = pagingTail(s.bulkListing, 'bulk', {
        text: vscode.l10n.t('No runs yet: Run Bulk Processing… on a CSV of questions.'),
        command: CommandIds.jobs.runBulk,
      });
      return tail ? [...out, tail] : out;
    }
    return [];
  }

  getParent(element: JobsElement): JobsElement | undefined {
    switch (element.kind) {
      case 'group':
        return undefined;
      case 'job':
      case 'rareResults':
        return this.group('rare');
      case 'rareResult':
        return this.rareResultsNode();
      case 'bulkResult':
        return this.group('bulk');
      default:
        return element.parentKey === 'rareResults' ? this.rareResultsNode() : this.group(element.parentKey as JobsGroup);
    }
  }

  getTreeItem(element: JobsElement): vscode.TreeItem {
    switch (element.kind) {
      case 'group':
        return this.groupItem(element.group);
      case 'job':
        return this.jobItem(element.job);
      case 'rareResults': {
        const item = new vscode.TreeItem(vscode.l10n.t('Results'), vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'rareResults';
        item.iconPath = new vscode.ThemeIcon('output');
        item.description = String(this.store.rareResults.length);
        item.contextValue = 'rareResults';
        return item;
      }
      case 'rareResult':
        return rareResultItem(element);
      case 'bulkResult':
        return bulkResultItem(element);
      default:
        return pagingTreeItem(element, { loadMore: CommandIds.jobs.loadMoreBulk, retry: CommandIds.jobs.refresh });
    }
  }

  private groupItem(group: JobsGroup): vscode.TreeItem {
    const item = new vscode.TreeItem(
      group === 'rare' ? vscode.l10n.t('Answer generation (RARE)') : vscode.l10n.t('Bulk processing'),
      vscode.TreeItemCollapsibleState.Expanded,
    );
    item.id = `group:${group}`;
    item.iconPath = new vscode.ThemeIcon(group === 'rare' ? 'sparkle' : 'table');
    item.contextValue = `jobsGroup.${group}`;
    if (group === 'bulk') {
      const active = this.store.bulk.filter((b) => isActiveState(b.status)).length;
      item.description = active ? vscode.l10n.t('{0} running', active) : undefined;
      item.tooltip = vscode.l10n.t(
        'Runs a CSV of questions (columns {0}) through generative answers or retrieval; each run keeps a result CSV.',
        'question, model, search_type',
      );
    } else {
      item.tooltip = vscode.l10n.t(
        'Builds an index of related passages (build), then generates question/answer samples from it (generate).',
      );
    }
    return item;
  }

  private jobItem(job: RareJob): vscode.TreeItem {
    const status = this.store.rare;
    const state = rareJobState(status, job);
    const title = job === 'build' ? vscode.l10n.t('Build') : vscode.l10n.t('Generate');
    const item = new vscode.TreeItem(title);
    item.id = `job:${job}`;
    item.iconPath = stateIcon(state);
    item.description = rareJobDescription(status, job);
    item.contextValue = `rareJob.${job}.${ctx(state)}`;
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${title}**: `).appendText(jobStateLabel(state));
    const error = rareJobError(status, job);
    if (error) md.appendMarkdown('\n\n').appendText(vscode.l10n.t('Error: {0}', error));
    const section = (title: string, obj: Record<string, unknown>): void => {
      const entries = printableEntries(obj);
      if (!entries.length) return;
      md.appendMarkdown(`\n\n**${title}**`);
      for (const [k, v] of entries) md.appendMarkdown('\n- ').appendText(`${k}: ${v}`);
    };
    section(vscode.l10n.t('Progress'), rareProgress(status, job));
    section(vscode.l10n.t('Stats'), rareStats(status, job));
    if (job === 'build') {
      const extra: Record<string, unknown> = {
        run: status?.build_run_id,
        folders: status?.folder_ids?.length ? status.folder_ids.join(', ') : undefined,
        model: status?.default_model,
      };
      section(vscode.l10n.t('Run'), extra);
    } else section(vscode.l10n.t('Run'), { model: status?.generation_model ?? status?.default_model });
    item.tooltip = md;
    return item;
  }
}

function rareResultItem(element: RareResultElement): vscode.TreeItem {
  const r = element.result;
  const item = new vscode.TreeItem(formatDate(r.created_at));
  item.id = `rare:${r.id}`;
  item.iconPath = new vscode.ThemeIcon('file-text');
  item.description =
    r.n_samples === undefined || r.n_samples === null
      ? undefined
      : r.n_samples === 1
        ? vscode.l10n.t('{0} sample', r.n_samples)
        : vscode.l10n.t('{0} samples', r.n_samples);
  item.contextValue = 'rareResult';
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${vscode.l10n.t('Answer-generation result')}**\n\n`).appendText(
    `${vscode.l10n.t('Created {0}', formatDate(r.created_at))} · ${item.description ?? ''}`,
  );
  if (r.rare_config) md.appendMarkdown('\n\n').appendCodeblock(prettyConfig(r.rare_config), 'json');
  md.appendMarkdown('\n\n').appendText(vscode.l10n.t('id {0}', r.id));
  item.tooltip = md;
  item.command = { command: CommandIds.jobs.openResult, title: vscode.l10n.t('Open CSV'), arguments: [element] };
  return item;
}

function bulkResultItem(element: BulkResultElement): vscode.TreeItem {
  const b = element.result;
  const state = b.status || 'unknown';
  const item = new vscode.TreeItem(formatDate(b.created_at));
  item.id = `bulk:${b.id}`;
  item.iconPath = stateIcon(state);
  item.description = `${b.bulk_type ?? vscode.l10n.t('bulk')} · ${bulkProgressText(b)}`;
  item.contextValue = `bulkResult.${ctx(state)}${b.file_url ? '.hasFile' : ''}`;
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${bulkTypeLabel(b.bulk_type)}**\n\n`).appendText(
    `${bulkProgressText(b)} · ${vscode.l10n.t('created {0}', formatDate(b.created_at))}`,
  );
  if (b.error_message) md.appendMarkdown('\n\n').appendText(vscode.l10n.t('Error: {0}', b.error_message));
  md.appendMarkdown('\n\n').appendText(vscode.l10n.t('id {0}', b.id));
  item.tooltip = md;
  if (b.file_url && state === 'completed')
    item.command = { command: CommandIds.jobs.openResult, title: vscode.l10n.t('Open'), arguments: [element] };
  return item;
}

function prettyConfig(config: string): string {
  try {
    return JSON.stringify(JSON.parse(config), null, 2);
  } catch {
    return config;
  }
}
