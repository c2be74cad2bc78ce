import * as vscode from 'vscode';
import { formatNumber } from '../l10n';
import type { LoadMoreElement, PagingElement } from './pagingElements';

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
      const loaded = formatNumber(element.loaded);
      const label =
        element.total !== undefined
          ? vscode.l10n.t('Load more… ({0} of {1})', loaded, formatNumber(element.total))
          : vscode.l10n.t('Load more… ({0})', loaded);
      const item = new vscode.TreeItem(label);
      item.id = `loadMore:${element.parentKey}`;
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: commands.loadMore, title: vscode.l10n.t('Load More'), arguments: [element] };
      item.contextValue = 'pagingLoadMore';
      return item;
    }
    case 'error': {
      const item = new vscode.TreeItem(vscode.l10n.t('Could not load: {0}', element.message));
      item.id = `error:${element.parentKey}`;
      item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
      item.tooltip = vscode.l10n.t('{0}\n\nClick to try again.', element.message);
      // Marked, so the tree can tell Retry from its title-bar Refresh (which VS Code gives the focused row).
      item.command = { command: commands.retry, title: vscode.l10n.t('Retry'), arguments: [{ ...element, retry: true }] };
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

/**
 * What every tree's Load more command does: the view's progress bar while the page is fetched, then the
 * tree is drawn again (also after a failure: the listing shows it as an error row with Retry).
 */
export async function loadMoreInView(viewId: string, load: () => Promise<void>, redraw: () => void): Promise<void> {
  try {
    await vscode.window.withProgress({ location: { viewId } }, load);
  } finally {
    redraw();
  }
}

/** A tree paged by parent (Knowledge Base, Q&A): its model loads and resets the listings, the provider redraws. */
export interface PagedTree {
  readonly model: { loadMore(parentKey: string): Promise<void>; reset(): void };
  fire(): void;
}

/** The Load more command of a PagedTree: the next page of the clicked row's parent, then a redraw. */
export function loadMoreCommand(viewId: string, tree: PagedTree): (e: LoadMoreElement) => Promise<void> {
  return (e) =>
    loadMoreInView(
      viewId,
      () => tree.model.loadMore(e.parentKey),
      () => tree.fire(),
    );
}

/** Another client (connection, key or region): what was listed belongs to the old one, so the listings start again. */
export function resetOnClientChange(connection: { onDidChangeClient: vscode.Event<unknown> }, tree: PagedTree): vscode.Disposable {
  return connection.onDidChangeClient(() => {
    tree.model.reset();
    tree.fire();
  });
}
