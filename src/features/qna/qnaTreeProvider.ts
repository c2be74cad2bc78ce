import * as vscode from 'vscode';
import type { FaqListItem } from '../../api/schemas/faq';
import { Disposable } from '../../platform/lifecycle';
import { pagingTreeItem } from '../../platform/tree/pagingItems';
import type { QaElement, QnaElement, QnaTreeModel } from './qnaTreeModel';
import { CommandIds, ViewIds } from '../../platform/commandIds';
import { formatDateTime, formatNumber } from '../../platform/l10n';

export const QNA_VIEW = ViewIds.qna;

export function feedbackText(item: FaqListItem): string {
  const pos = item.agentFeedback.positiveCount + item.userFeedback.positiveCount;
  const neg = item.agentFeedback.negativeCount + item.userFeedback.negativeCount;
  return pos || neg ? `👍 ${pos} 👎 ${neg}` : '';
}

/** The Q&A tree: On/Off groups (or folders), Q&As with status and feedback, Load more, errors as items. */
export class QnaTreeProvider extends Disposable implements vscode.TreeDataProvider<QnaElement> {
  private readonly emitter = this._register(new vscode.EventEmitter<QnaElement | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(readonly model: QnaTreeModel) {
    super();
  }

  fire(element?: QnaElement): void {
    this.emitter.fire(element);
  }

  async refresh(): Promise<void> {
    await this.model.refresh();
    this.fire();
  }

  getChildren(element?: QnaElement): Promise<QnaElement[]> | QnaElement[] {
    if (!element) return this.model.roots();
    if (element.kind === 'group') return this.model.children(element.key);
    return [];
  }

  getTreeItem(element: QnaElement): vscode.TreeItem {
    switch (element.kind) {
      case 'group': {
        const item = new vscode.TreeItem(element.label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `group:${element.key}`;
        item.description = element.count !== undefined ? formatNumber(element.count) : undefined;
        item.iconPath = new vscode.ThemeIcon(element.folder !== undefined ? 'folder' : element.status === 'off' ? 'circle-slash' : 'pass');
        item.contextValue = 'qnaGroup';
        return item;
      }
      case 'qa':
        return qaItem(element);
      default:
        return pagingTreeItem(element, { loadMore: CommandIds.qna.loadMore, retry: CommandIds.qna.refresh });
    }
  }
}

function qaItem(element: QaElement): vscode.TreeItem {
  const { item, status } = element;
  const tree = new vscode.TreeItem(item.question || vscode.l10n.t('(empty question)'));
  tree.id = `${element.parentKey}/${item.id}`;
  tree.iconPath = new vscode.ThemeIcon('comment-discussion', status === 'off' ? new vscode.ThemeColor('disabledForeground') : undefined);
  // Under the On/Off groups the status is the group; in folder mode it is shown on the item.
  const showStatus = element.parentKey.startsWith('folder:');
  tree.description = [showStatus && status && statusLabel(status), feedbackText(item), item.hashtags.map((h) => `#${h}`).join(' ')]
    .filter(Boolean)
    .join(' · ');
  tree.contextValue = `qnaItem.${status ?? 'unknown'}`;
  tree.command = { command: CommandIds.qna.open, title: vscode.l10n.t('Open Q&A'), arguments: [{ id: item.id }] };
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown('**').appendText(item.question).appendMarkdown('**\n\n');
  // Answers were requested as text: no markup from the service reaches the tooltip.
  const answer = item.answer.length > 400 ? `${item.answer.slice(0, 400)}…` : item.answer;
  md.appendText(answer).appendMarkdown('\n\n---\n\n');
  const feedback = vscode.l10n.t(
    'Agents 👍 {0} 👎 {1} · Users 👍 {2} 👎 {3}',
    item.agentFeedback.positiveCount,
    item.agentFeedback.negativeCount,
    item.userFeedback.positiveCount,
    item.userFeedback.negativeCount,
  );
  md.appendText(status ? vscode.l10n.t('Status: {0} · {1}', statusLabel(status), feedback) : feedback);
  if (item.hashtags.length) md.appendMarkdown('\n\n$(tag) ').appendText(item.hashtags.map((h) => `#${h}`).join(' '));
  md.appendMarkdown('\n\n').appendText(
    vscode.l10n.t('Updated {0} · created {1} · {2}', serviceDate(item.lastUpdatedDate), serviceDate(item.createdDate), item.id),
  );
  tree.tooltip = md;
  return tree;
}

/** A date the service sent, in the display language (as sent when it is not a date). */
function serviceDate(value: string | null | undefined): string {
  if (!value) return '—';
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : formatDateTime(time);
}

export function statusLabel(status: 'on' | 'off'): string {
  return status === 'on' ? vscode.l10n.t('on') : vscode.l10n.t('off');
}
