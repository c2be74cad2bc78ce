import * as vscode from 'vscode';
import { NODE_ORDERS } from '../../api/values';
import { hashtagFilterText } from '../../core/hashtags';
import { ContextKeys } from '../../platform/commandIds';
import { setContext } from '../../platform/contextKeys';
import { pickHashtagFilter } from '../../platform/pickers/hashtagPicker';
import { KbCommandGroup } from './kbCommandGroup';
import { orderLabel } from './kbTreeProvider';

/** What the tree shows: Search, Filter by Hashtags, Clear Filter, Sort; the view's description says which. */
export class KbFilterCommands extends KbCommandGroup {
  async search(): Promise<void> {
    const term = await this.s.ui.showInputBox({
      title: vscode.l10n.t('Search document and folder names'),
      value: this.tree.model.filter.searchTerm ?? '',
      // What it matches, said before the first search: content words found nothing, and the view gave no reason.
      prompt: vscode.l10n.t(
        'Names containing every word, in all folders. To search inside documents, ask Knowledge Desk. Empty clears the search.',
      ),
    });
    if (term === undefined) return;
    this.tree.model.filter.searchTerm = term.trim() || undefined;
    this.applyFilter();
  }

  async filterHashtags(): Promise<void> {
    const chosen = await pickHashtagFilter(this.s.ui, await this.s.connection.getClient(), {
      title: vscode.l10n.t('Filter by hashtags'),
      current: this.tree.model.filter.hashtags ?? [],
      matchTitle: (tags) => vscode.l10n.t('Documents with {0}', tags),
      log: this.s.log('kb'),
    });
    if (!chosen) return;
    this.tree.model.filter.hashtags = chosen.tags.length ? chosen.tags : undefined;
    this.tree.model.filter.hashtagsOperator = chosen.operator;
    this.applyFilter();
  }

  clearFilter(): void {
    this.tree.model.filter = { order: this.tree.model.filter.order };
    this.applyFilter();
  }

  async sort(): Promise<void> {
    const current = this.tree.model.filter.order;
    const pick = await this.s.ui.showQuickPick(
      NODE_ORDERS.map((o) => ({ label: `${o === current ? '$(check) ' : ''}${vscode.l10n.t('Sort by {0}', orderLabel(o))}`, order: o })),
      { title: vscode.l10n.t('Sort the knowledge base (folders stay first)') },
    );
    if (!pick) return;
    this.tree.model.filter.order = pick.order;
    this.applyFilter();
  }

  private applyFilter(): void {
    const f = this.tree.model.filter;
    const parts = [
      f.searchTerm && `"${f.searchTerm}"`,
      f.hashtags?.length && hashtagFilterText(f.hashtags, f.hashtagsOperator),
      f.order !== 'name_asc' && orderLabel(f.order),
    ].filter(Boolean);
    this.view.description = parts.join(' · ') || undefined;
    setContext(ContextKeys.kbFiltered, this.tree.model.filtered);
    this.tree.model.reset();
    this.tree.fire();
  }
}
