import * as vscode from 'vscode';
import type { PagingElement } from './pagingElements';

/** The commands a tree's paging rows run; each receives the clicked element. */
export interface PagingCommands {
  loadMore: string;
  /**
   * Retry is the tree's own Refresh command, given the error row: only the tree knows what to reload
   * and redraw (the Knowledge Base reloads just that folder, Jobs polls again and resets its backoff).
   * One global id would need a registry of trees for the same result.
   */
  retry: string;
}

/** The one look of Load more, error (with Retry) and message rows in every tree. */
export function pagingTreeItem(element: PagingElement, commands: PagingCommands): vscode.TreeItem {
  switch (element.kind) {
    case 'loadMore': {
      const of = element.total !== undefined ? ` of ${element.total}` : '';
      const item = new vscode.TreeItem(`Load more… (${element.loaded}${of})`);
      item.id = `loadMore:${element.parentKey}`;
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: commands.loadMore, title: 'Load More', arguments: [element] };
      item.contextValue = 'pagingLoadMore';
      return item;
    }
    case 'error': {
      const item = new vscode.TreeItem(`Could not load: ${element.message}`);
      item.id = `error:${element.parentKey}`;
      item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
      item.tooltip = `${element.message}\n\nClick to try again.`;
      item.command = { command: commands.retry, title: 'Retry', arguments: [element] };
      item.contextValue = 'pagingError';
      return item;
    }
    case 'message': {
      const item = new vscode.TreeItem(element.text);
      item.id = `message:${element.parentKey}`;
      item.iconPath = new vscode.ThemeIcon('info');
      if (element.command) item.command = { command: element.command, title: element.text };
      item.contextValue = 'pagingMessage';
      return item;
    }
  }
}
