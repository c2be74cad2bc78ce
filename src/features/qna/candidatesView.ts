import * as vscode from 'vscode';
import type { CandidateOrder } from '../../api/resources/faq';
import type { Candidate } from '../../api/schemas/faq';
import type { Container } from '../../container';
import { Disposable } from '../../platform/lifecycle';
import { noteUseWhenVisible } from '../../platform/usage';

export const CANDIDATES_VIEW = 'knowledgeDesk.candidates';
const PAGE = 100;

type CandidateElement =
  { kind: 'candidate'; candidate: Candidate } | { kind: 'loadMore'; loaded: number; total?: number } | { kind: 'error'; message: string };

const ORDERS: Array<{ label: string; order: CandidateOrder }> = [
  { label: 'Most asked first', order: 'FREQUENCY_DESC' },
  { label: 'Least asked first', order: 'FREQUENCY_ASC' },
  { label: 'Newest first', order: 'CREATED_AT_DESC' },
  { label: 'Oldest first', order: 'CREATED_AT_ASC' },
];

/** Questions users asked that no Q&A answered, to promote into Q&As. */
export class CandidatesView extends Disposable implements vscode.TreeDataProvider<CandidateElement> {
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this.emitter.event;
  readonly view: vscode.TreeView<CandidateElement>;
  status: 'ALL' | 'ACTIVE' | 'ARCHIVED' = 'ACTIVE';
  order: CandidateOrder = 'FREQUENCY_DESC';
  private items: Candidate[] = [];
  private total: number | undefined;
  private error: string | undefined;
  private loaded = false;

  constructor(
    private readonly c: Container,
    private readonly promote: (candidate: Candidate) => unknown,
  ) {
    super();
    this.view = this._register(vscode.window.createTreeView(CANDIDATES_VIEW, { treeDataProvider: this, canSelectMany: true }));
    this._register(noteUseWhenVisible(CANDIDATES_VIEW, this.view));
    this._register(c.connection.onDidChangeClient(() => this.reset()));
    const cmd = (id: string, fn: (...a: any[]) => unknown): void => void this._register(c.command(id, fn));
    cmd('knowledgeDesk.candidates.refresh', () => this.reset());
    cmd('knowledgeDesk.candidates.loadMore', () => this.load(true));
    cmd('knowledgeDesk.candidates.status', () => this.pickStatus());
    cmd('knowledgeDesk.candidates.order', () => this.pickOrder());
    cmd('knowledgeDesk.candidates.promote', (e?: CandidateElement) => this.promoteSelected(e));
    cmd('knowledgeDesk.candidates.addFromSelection', () => this.addFromSelection());
    this.describe();
  }

  reset(): void {
    this.loaded = false;
    this.items = [];
    this.emitter.fire();
  }

  async getChildren(element?: CandidateElement): Promise<CandidateElement[]> {
    if (element || this.c.connection.status.state !== 'connected') return [];
    if (!this.loaded) await this.load(false);
    const out: CandidateElement[] = this.items.map((candidate) => ({ kind: 'candidate', candidate }));
    if (this.error) out.push({ kind: 'error', message: this.error });
    else if (this.total !== undefined && this.items.length < this.total)
      out.push({ kind: 'loadMore', loaded: this.items.length, total: this.total });
    return out;
  }

  getTreeItem(element: CandidateElement): vscode.TreeItem {
    if (element.kind === 'loadMore') {
      const item = new vscode.TreeItem(`Load more… (${element.loaded}${element.total !== undefined ? ` of ${element.total}` : ''})`);
      item.command = { command: 'knowledgeDesk.candidates.loadMore', title: 'Load More' };
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      return item;
    }
    if (element.kind === 'error') {
      const item = new vscode.TreeItem(`Could not load: ${element.message}`);
      item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
      item.command = { command: 'knowledgeDesk.candidates.refresh', title: 'Retry' };
      return item;
    }
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

  private async load(append: boolean): Promise<void> {
    try {
      const client = await this.c.connection.getClient();
      const page = await client.faq.candidates({
        offset: append ? this.items.length : 0,
        limit: PAGE,
        status: this.status,
        order: this.order,
      });
      this.items = append ? [...this.items, ...page.faqCandidates] : page.faqCandidates;
      this.total = page.count;
      this.error = undefined;
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
    }
    this.loaded = true;
    if (append) this.emitter.fire();
  }

  private describe(): void {
    const status = this.status === 'ALL' ? 'all' : this.status.toLowerCase();
    this.view.description = `${status} · ${ORDERS.find((o) => o.order === this.order)!.label.toLowerCase()}`;
  }

  private async pickStatus(): Promise<void> {
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

  private async pickOrder(): Promise<void> {
    const pick = await this.c.ui.showQuickPick(
      ORDERS.map((o) => ({ label: `${o.order === this.order ? '$(check) ' : ''}${o.label}`, order: o.order })),
      { title: 'Order candidates' },
    );
    if (!pick) return;
    this.order = pick.order;
    this.describe();
    this.reset();
  }

  private async promoteSelected(element?: CandidateElement): Promise<void> {
    const target = element?.kind === 'candidate' ? element : this.view.selection.find((e) => e.kind === 'candidate');
    if (target?.kind !== 'candidate') throw new Error('Select a candidate in the Candidates view first.');
    await this.promote(target.candidate);
  }

  /** Adds the selected lines of the active editor as candidates (one per non-empty line). */
  private async addFromSelection(): Promise<number> {
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
    this.reset();
    return added.length;
  }
}
