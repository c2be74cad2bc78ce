import * as vscode from 'vscode';
import type { CandidateOrder } from '../../core/faqWire';
import type { Candidate } from '../../api/schemas/faq';
import type { Container } from '../../container';
import { Disposable } from '../../platform/lifecycle';
import { connectedOnly } from '../../platform/tree/connectedOnly';
import { PagedListing } from '../../platform/tree/pagedListing';
import { pagingTail, type PagingElement } from '../../platform/tree/pagingElements';
import { loadMoreInView, pagingTreeItem } from '../../platform/tree/pagingItems';
import { CommandIds, ViewIds } from '../../platform/commandIds';
import { noteUseWhenVisible } from '../../platform/usage';
import { formatDateTime } from '../../platform/l10n';

export const CANDIDATES_VIEW = ViewIds.candidates;
const PAGE = 100;

export type CandidateElement = { kind: 'candidate'; candidate: Candidate } | PagingElement;

const ROOT = 'candidates';

// Functions, not strings: vscode.l10n.t must run after activation has the bundle. `short` is the view's description.
const ORDERS: Array<{ label: () => string; short: () => string; order: CandidateOrder }> = [
  { label: () => vscode.l10n.t('Most asked first'), short: () => vscode.l10n.t('most asked first'), order: 'FREQUENCY_DESC' },
  { label: () => vscode.l10n.t('Least asked first'), short: () => vscode.l10n.t('least asked first'), order: 'FREQUENCY_ASC' },
  { label: () => vscode.l10n.t('Newest first'), short: () => vscode.l10n.t('newest first'), order: 'CREATED_AT_DESC' },
  { label: () => vscode.l10n.t('Oldest first'), short: () => vscode.l10n.t('oldest first'), order: 'CREATED_AT_ASC' },
];

const STATES: Record<string, () => string> = {
  ALL: () => vscode.l10n.t('all'),
  ACTIVE: () => vscode.l10n.t('active'),
  ARCHIVED: () => vscode.l10n.t('archived'),
};

/** Questions users asked that no Q&A answered, to promote into Q&As. The Q&A feature registers its commands. */
export class CandidatesView extends Disposable implements vscode.TreeDataProvider<CandidateElement> {
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this.emitter.event;
  readonly view: vscode.TreeView<CandidateElement>;
  status: 'ALL' | 'ACTIVE' | 'ARCHIVED' = 'ACTIVE';
  order: CandidateOrder = 'FREQUENCY_DESC';
  private readonly listing: PagedListing<Candidate>;

  constructor(
    private readonly c: Container,
    private readonly promote: (candidate: Candidate) => unknown,
  ) {
    super();
    this.listing = new PagedListing<Candidate>({
      pageSize: PAGE,
      fetchPage: async (page, signal) => {
        const client = await c.connection.getClient();
        const params = { offset: page * PAGE, limit: PAGE, status: this.status, order: this.order };
        const result = await client.faq.candidates(params, { signal });
        return { items: result.faqCandidates, total: result.count };
      },
    });
    this.view = this._register(
      vscode.window.createTreeView(CANDIDATES_VIEW, { treeDataProvider: connectedOnly(this, c.connection), canSelectMany: true }),
    );
    this._register(noteUseWhenVisible(CANDIDATES_VIEW, this.view));
    this._register(c.connection.onDidChangeClient(() => this.reset()));
    this.describe();
  }

  /** Drops what is loaded (filter or connection changed); the view loads the first page again. */
  reset(): void {
    this.listing.reset();
    this.emitter.fire();
  }

  /** Refresh (and Retry of an error row): every loaded page again. */
  async refresh(): Promise<void> {
    await this.listing.refresh();
    this.emitter.fire();
  }

  loadMore(): Promise<void> {
    return loadMoreInView(
      CANDIDATES_VIEW,
      () => this.listing.loadMore(),
      () => this.emitter.fire(),
    );
  }

  async getChildren(element?: CandidateElement): Promise<CandidateElement[]> {
    if (element) return [];
    await this.listing.ensure();
    const out: CandidateElement[] = this.listing.items.map((candidate) => ({ kind: 'candidate', candidate }));
    const tail = pagingTail(this.listing, ROOT);
    return tail ? [...out, tail] : out;
  }

  getTreeItem(element: CandidateElement): vscode.TreeItem {
    if (element.kind !== 'candidate')
      return pagingTreeItem(element, { loadMore: CommandIds.candidates.loadMore, retry: CommandIds.candidates.refresh });
    const c = element.candidate;
    const question = c.questions[0]?.question ?? vscode.l10n.t('(no question)');
    const item = new vscode.TreeItem(question);
    item.id = c.id;
    item.iconPath = new vscode.ThemeIcon(c.state === 'ARCHIVED' ? 'archive' : 'question');
    item.description = [
      vscode.l10n.t('asked {0}×', c.frequency),
      c.state && (STATES[c.state]?.() ?? c.state.toLowerCase()),
      c.questions.length > 1 && vscode.l10n.t('{0} phrasings', c.questions.length),
    ]
      .filter(Boolean)
      .join(' · ');
    item.tooltip = new vscode.MarkdownString().appendText(
      [
        question,
        ...c.questions.slice(1).map((q) => vscode.l10n.t('also: {0} ({1}×)', q.question, q.frequency)),
        c.createdAt ? vscode.l10n.t('first asked {0}', formatDateTime(new Date(c.createdAt))) : '',
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
    item.contextValue = `candidate.${c.state || 'unknown'}`;
    return item;
  }

  private describe(): void {
    this.view.description = `${STATES[this.status]()} · ${ORDERS.find((o) => o.order === this.order)!.short()}`;
  }

  async pickStatus(): Promise<void> {
    const pick = await this.c.ui.showQuickPick(
      [
        { label: vscode.l10n.t('Active'), value: 'ACTIVE' as const },
        { label: vscode.l10n.t('Archived'), value: 'ARCHIVED' as const },
        { label: vscode.l10n.t('All'), value: 'ALL' as const },
      ],
      { title: vscode.l10n.t('Show candidates that are…') },
    );
    if (!pick) return;
    this.status = pick.value;
    this.describe();
    this.reset();
  }

  async pickOrder(): Promise<void> {
    const pick = await this.c.ui.showQuickPick(
      ORDERS.map((o) => ({ label: `${o.order === this.order ? '$(check) ' : ''}${o.label()}`, order: o.order })),
      { title: vscode.l10n.t('Order candidates') },
    );
    if (!pick) return;
    this.order = pick.order;
    this.describe();
    this.reset();
  }

  async promoteSelected(element?: CandidateElement): Promise<void> {
    const target = element?.kind === 'candidate' ? element : this.view.selection.find((e) => e.kind === 'candidate');
    if (target?.kind !== 'candidate') throw new Error(vscode.l10n.t('Select a candidate in the Candidates view first.'));
    await this.promote(target.candidate);
  }

  /** Adds the selected lines of the active editor as candidates (one per non-empty line). */
  async addFromSelection(): Promise<number> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) throw new Error(vscode.l10n.t('Open a file and select the questions to add, one per line.'));
    const text = editor.selections
      .map((s) => editor.document.getText(s.isEmpty ? editor.document.lineAt(s.active.line).range : s))
      .join('\n');
    const queries = [
      ...new Set(
        text
          .split(/\r?\n/)
          .map((l) => l.replace(/^\s*([-*•]|\d+[.)])\s*/, '').trim())
          .filter(Boolean),
      ),
    ];
    if (!queries.length) throw new Error(vscode.l10n.t('The selection holds no text to add.'));
    const client = await this.c.connection.getClient();
    const added = await client.faq.addCandidates(queries);
    vscode.window.setStatusBarMessage(
      added.length === 1 ? vscode.l10n.t('Added {0} candidate', 1) : vscode.l10n.t('Added {0} candidates', added.length),
      4000,
    );
    await this.refresh();
    return added.length;
  }
}
