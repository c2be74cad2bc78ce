import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import { FAILED_PROCESS_STATES, FINAL_PROCESS_STATES, isFileNode } from '../../api/values';
import { CommandIds, ViewIds } from '../../platform/commandIds';
import { formatDateTime, formatSize } from '../../platform/l10n';
import { escapeInvisible } from '../../core/visibleText';
import { pagingTreeItem } from '../../platform/tree/pagingItems';
import type { KbElement } from './kbTreeModel';

export const NODE_SCHEME = 'knowledge-desk-node';
export const KB_VIEW = ViewIds.knowledgeBase;

/** A URI per node: the file icon theme picks an icon from its name; decorations hang off it. */
export function nodeUri(node: KbNode): vscode.Uri {
  return vscode.Uri.from({ scheme: NODE_SCHEME, path: `/${node.id}/${node.name}` });
}

export function nodeIdOf(uri: vscode.Uri): string | undefined {
  return uri.scheme === NODE_SCHEME ? uri.path.split('/')[1] : undefined;
}

/**
 * A processing state in a word of the display language. Failed and finished come from the same state sets
 * the badges and the watcher use, so a state the service adds to them is labelled with them; an unknown
 * state is shown as the service spelt it.
 */
export function stateLabel(state: string): string {
  if (FAILED_PROCESS_STATES.has(state)) return vscode.l10n.t('failed');
  if (FINAL_PROCESS_STATES.has(state)) return vscode.l10n.t('ready');
  if (state.endsWith('retrying')) return vscode.l10n.t('retrying');
  if (state === 'initializing') return vscode.l10n.t('queued');
  if (state === 'post_parsing') return vscode.l10n.t('post-processing');
  if (state === 'parsing') return vscode.l10n.t('processing');
  return state;
}

const ICON_BY_EXTENSION: Record<string, string> = {
  pdf: 'file-pdf',
  md: 'markdown',
  markdown: 'markdown',
  html: 'globe',
  htm: 'globe',
  docx: 'file-text',
  doc: 'file-text',
  txt: 'note',
  xlsx: 'table',
  xls: 'table',
  csv: 'table',
  tsv: 'table',
  zip: 'file-zip',
  png: 'file-media',
  jpg: 'file-media',
  jpeg: 'file-media',
  json: 'json',
};

/** Icons by document type, chosen here so they show under any file icon theme. */
export function iconFor(name: string): vscode.ThemeIcon {
  const ext = name.includes('.') ? name.split('.').pop()!.toLowerCase() : '';
  return new vscode.ThemeIcon(ICON_BY_EXTENSION[ext] ?? 'file');
}

export function toTreeItem(element: KbElement, showPath: boolean): vscode.TreeItem {
  if (element.kind === 'node') return nodeItem(element.node, showPath);
  return pagingTreeItem(element, { loadMore: CommandIds.kb.loadMore, retry: CommandIds.kb.refresh });
}

function nodeItem(node: KbNode, showPath: boolean): vscode.TreeItem {
  const file = isFileNode(node);
  // Names from a real service may carry bidi or zero-width characters (the local service refuses them): shown escaped.
  const item = new vscode.TreeItem(
    escapeInvisible(node.name),
    file ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed,
  );
  item.id = node.id;
  item.resourceUri = nodeUri(node);
  item.iconPath = file ? iconFor(node.name) : new vscode.ThemeIcon('folder');
  const where = showPath && node.breadcrumbs.length ? node.breadcrumbs.map((b) => escapeInvisible(b.name)).join(' › ') : '';
  if (file) {
    const off = node.status === 'off';
    const parts = [stateLabel(node.processState), formatSize(node.size)];
    // Turned off: stays in its place, said first in the description, its icon greyed (and the decoration's ○).
    if (off) {
      parts.unshift(vscode.l10n.t('off'));
      item.iconPath = new vscode.ThemeIcon(iconFor(node.name).id, new vscode.ThemeColor('disabledForeground'));
    }
    item.description = [...parts, where].filter(Boolean).join(' · ');
    const failed = FAILED_PROCESS_STATES.has(node.processState);
    item.contextValue = `kbFile${failed ? '.failed' : ''}${FINAL_PROCESS_STATES.has(node.processState) ? '' : '.processing'}${off ? '.off' : ''}`;
    item.command = {
      command: CommandIds.kb.showDetails,
      title: vscode.l10n.t('Show Details'),
      arguments: [{ kind: 'node', node, parentKey: '' }],
    };
  } else {
    item.description = where;
    item.contextValue = 'kbFolder';
  }
  item.tooltip = tooltip(node);
  return item;
}

function tooltip(node: KbNode): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.supportHtml = false;
  md.appendMarkdown(`**`).appendText(escapeInvisible(node.name)).appendMarkdown(`**\n\n`);
  const path = [vscode.l10n.t('Knowledge base'), ...node.breadcrumbs.map((b) => escapeInvisible(b.name))].join(' › ');
  md.appendText(path).appendMarkdown('\n\n');
  if (isFileNode(node)) {
    md.appendMarkdown(`$(pulse) `)
      .appendText(
        `${stateLabel(node.processState)} (${node.processState}) · ${formatSize(node.size)} · ${node.status === 'off' ? vscode.l10n.t('turned off') : vscode.l10n.t('on')}`,
      )
      .appendMarkdown('\n\n');
    const reason = (node as { processError?: unknown }).processError;
    if (typeof reason === 'string' && reason) md.appendMarkdown('$(error) ').appendText(reason).appendMarkdown('\n\n');
    if (node.hashtags.length)
      md.appendMarkdown('$(tag) ')
        .appendText(node.hashtags.map((h) => `#${h}`).join(' '))
        .appendMarkdown('\n\n');
  }
  const by = node.createdBy
    ? `${[node.createdBy.firstName, node.createdBy.lastName].filter(Boolean).join(' ') || node.createdBy.email} <${node.createdBy.email}>`
    : vscode.l10n.t('unknown');
  md.appendText(vscode.l10n.t('Created {0} by {1}\nUpdated {2}', date(node.createdAt), by, date(node.updatedAt))).appendMarkdown('\n\n');
  md.appendMarkdown('$(shield) ').appendText(permissionSummary(node));
  return md;
}

/** The parts that are there, comma-separated ("2 agents, 1 group"). */
function listed(...parts: Array<string | number | undefined>): string {
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join(', ');
}

export function permissionSummary(node: KbNode): string {
  const a = node.agentPermission;
  const u = node.userPermission;
  const agents = a.viewAccessToAgent ? vscode.l10n.t('all agents can view') : vscode.l10n.t('only listed agents');
  const agentList = listed(
    a.accessAgents?.length &&
      (a.accessAgents.length === 1 ? vscode.l10n.t('{0} agent', 1) : vscode.l10n.t('{0} agents', a.accessAgents.length)),
    a.accessPermissionGroups?.length &&
      (a.accessPermissionGroups.length === 1
        ? vscode.l10n.t('{0} group', 1)
        : vscode.l10n.t('{0} groups', a.accessPermissionGroups.length)),
  );
  const users = u.viewAccessToUser ? vscode.l10n.t('all users can view') : vscode.l10n.t('users: restricted');
  const userList = listed(
    u.ownUserIds?.length && (u.ownUserIds.length === 1 ? vscode.l10n.t('{0} owner', 1) : vscode.l10n.t('{0} owners', u.ownUserIds.length)),
    u.customerGroups?.length &&
      (u.customerGroups.length === 1
        ? vscode.l10n.t('{0} customer group', 1)
        : vscode.l10n.t('{0} customer groups', u.customerGroups.length)),
  );
  return vscode.l10n.t(
    'Agents: {0}. {1}.',
    `${agents}${agentList ? ` (${agentList})` : ''}`,
    `${users}${userList ? ` (${userList})` : ''}`,
  );
}

export function date(ms: number): string {
  return formatDateTime(ms);
}
