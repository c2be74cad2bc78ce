import * as vscode from 'vscode';
import type { CandidateOrder } from '../../api/resources/faq';
import type { Candidate } from '../../api/schemas/faq';
import type { Container } from '../../container';
import { Disposable } from '../../platform/lifecycle';
import { connectedOnly } from '../../platform/tree/connectedOnly';
import { PagedListing } from '../../platform/tree/pagedListing';
import { pagingTail, type PagingElement } from '../../platform/tree/pagingElements';
import { pagingTreeItem } from '../../platform/tree/pagingItems';
import { CommandIds, ViewIds } from '../../platform/commandIds';
import { noteUseWhenVisible } from '../../platform/usage';

export const CANDIDATES_VIEW = ViewIds.candidates;
const PAGE = 100;

export type CandidateElement = { kind: 'candidate'; candidate: Candidate } | PagingElement;

const ROOT = 'candidates';

const ORDERS: Array<{ label: string; order: CandidateOrder }> = [
  { label: 'Most asked first', order: 'FREQUENCY_DESC' },
  { label: 'Least asked first', order: 'FREQUENCY_ASC' },
  { label: 'Newest first', order: 'CREATED_AT_DESC' },
  { label: 'Oldest first', order: 'CREATED_AT_ASC' },
];

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

  async loadMore(): Promise<void> {
    await this.listing.loadMore();
    this.emitter.fire();
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
    const question = c.questions[0]?.question ?? '(no question)';
    const item = new vscode.TreeItem(question);
    item.id = c.id;
    item.iconPath = new vscode.ThemeIcon(c.state === 'ARCHIVED' ? 'archive' : 'question');
    item.description = `asked ${c.frequency}×${c.state ? ` · ${c.state.toLowerCase()}` : ''}${c.questions.length > 1 ? ` · ${c.questions.length} phrasings` : ''}`;
    item.tooltip = new vscode.MarkdownString().appendText(
      [
        question,
        ...c.questions.slice(1).map((q) => `also: ${q.question} (${q.frequency}×)`),
        c.createdAt ? `first asked ${new Date(c.createdAt).toLocaleString()}` : '',
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
    item.contextValue = `candidate.${c.state || 'unknown'}`;
    return item;
  }

  private describe(): void {
    const status = this.status === 'ALL' ? 'all' : this.status.toLowerCase();
    this.view.description = `${status} · ${ORDERS.find((o) => o.order === this.order)!.label.toLowerCase()}`;
  }

  async pickStatus(): Promise<void> {
    const pick = await this.c.ui.showQuickPick(
      [
        { label: 'Active', value: 'ACTIVE' as const },
        { label: 'Archived', value: 'ARCHIVED' as const },
        { label: 'All', value: 'ALL' as const },
      ],
      { title: 'Show candidates that are…' },
    );
    if (!pick) return;
    this.status = pick.value;
    this.describe();
    this.reset();
  }

  async pickOrder(): Promise<void> {
    const pick = await this.c.ui.showQuickPick(
      ORDERS.map((o) => ({ label: `${o.order === this.order ? '$(check) ' : ''}${o.label}`, order: o.order })),
      { title: 'Order candidates' },
    );
    if (!pick) return;
    this.order = pick.order;
    this.describe();
    this.reset();
  }

  async promoteSelected(element?: CandidateElement): Promise<void> {
    const target = element?.kind === 'candidate' ? element : this.view.selection.find((e) => e.kind === 'candidate');
    if (target?.kind !== 'candidate') throw new Error('Select a candidate in the Candidates view first.');
    await this.promote(target.candidate);
  }

  /** Adds the selected lines of the active editor as candidates (one per non-empty line). */
  async addFromSelection(): Promise<number> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) throw new Error('Open a file and select the questions to add, one per line.');
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
    if (!queries.length) throw new Error('The selection holds no text to add.');
    const client = await this.c.connection.getClient();
    const added = await client.faq.addCandidates(queries);
    vscode.window.setStatusBarMessage(`Added ${added.length} candidate(s)`, 4000);
    await this.refresh();
    return added.length;
  }
}
