import * as vscode from 'vscode';
import type { Candidate } from '../../api/schemas/faq';
import type { Container } from '../../container';
import { Disposable } from '../../platform/lifecycle';
import { CandidatesView } from './candidatesView';
import { QaImporter } from './importFlow';
import { showQaSearch, type SearchPickState } from './qaSearchPick';
import { QnaCommands } from './qnaCommands';
import { QnaFileCommands } from './qnaFileCommands';
import { QnaTreeModel, type QnaElement } from './qnaTreeModel';
import { QNA_VIEW, QnaTreeProvider } from './qnaTreeProvider';
import { noteUseWhenVisible } from '../../platform/usage';

/** What the Q&A feature needs from the editor webview (kept narrow so either side can change). */
export interface QaEditorOpener {
  open(
    target:
      | { kind: 'new'; prefill?: { question?: string; similarQuestions?: string[]; answer?: string; hashtags?: string[] } }
      | { kind: 'existing'; id: string },
  ): unknown;
  onDidSave: vscode.Event<unknown>;
}

/** The Q&A view, its filters and commands, search, CSV import/export, and the Candidates view. */
export class QnaFeature extends Disposable {
  readonly model: QnaTreeModel;
  readonly tree: QnaTreeProvider;
  readonly view: vscode.TreeView<QnaElement>;
  readonly commands: QnaCommands;
  readonly importer: QaImporter;
  readonly files: QnaFileCommands;
  readonly candidates: CandidatesView;
  readonly diagnostics: vscode.DiagnosticCollection;
  /** The last Search Q&A quick pick (tests drive it). */
  lastSearch: SearchPickState | undefined;

  constructor(
    private readonly c: Container,
    private readonly editor: QaEditorOpener,
  ) {
    super();
    this.model = new QnaTreeModel(() => c.connection.getClient());
    this.tree = this._register(new QnaTreeProvider(this.model, () => c.connection.status.state === 'connected'));
    this.view = this._register(
      vscode.window.createTreeView(QNA_VIEW, { treeDataProvider: this.tree, canSelectMany: true, showCollapseAll: true }),
    );
    this._register(noteUseWhenVisible(QNA_VIEW, this.view));
    this.commands = new QnaCommands(c, this.tree, this.view);
    this.diagnostics = this._register(vscode.languages.createDiagnosticCollection('knowledgeDesk.qaImport'));
    this.importer = new QaImporter(c, this.diagnostics);
    this.files = new QnaFileCommands(c, this.diagnostics);
    this.candidates = this._register(new CandidatesView(c, (candidate) => this.promote(candidate)));
    this._register(
      c.connection.onDidChangeClient(() => {
        this.model.reset();
        this.tree.fire();
      }),
    );
    this._register(
      editor.onDidSave(() => {
        void this.tree.refresh();
        this.candidates.reset();
      }),
    );
    // Problems of a dry run describe the file as it was: editing it makes them stale.
    this._register(
      vscode.workspace.onDidChangeTextDocument(
        (e) => e.contentChanges.length && this.diagnostics.has(e.document.uri) && this.diagnostics.delete(e.document.uri),
      ),
    );
    this.registerCommands();
  }

  private registerCommands(): void {
    const cmd = (id: string, fn: (...args: any[]) => unknown): void => void this._register(this.c.command(id, fn));
    const k = this.commands;
    type Qa = Extract<QnaElement, { kind: 'qa' }>;
    cmd('knowledgeDesk.qna.refresh', () => this.tree.refresh());
    cmd('knowledgeDesk.qna.loadMore', async (e: Extract<QnaElement, { kind: 'loadMore' }>) => {
      await this.model.loadMore(e.parentKey);
      this.tree.fire();
    });
    cmd('knowledgeDesk.qna.filter', () => k.search());
    cmd('knowledgeDesk.qna.filterStatus', () => k.status());
    cmd('knowledgeDesk.qna.filterHashtags', () => k.hashtags());
    cmd('knowledgeDesk.qna.filterOrigin', () => k.origin());
    cmd('knowledgeDesk.qna.groupByFolder', () => k.groupByFolder(true));
    cmd('knowledgeDesk.qna.ungroup', () => k.groupByFolder(false));
    cmd('knowledgeDesk.qna.clearFilter', () => k.clear());
    cmd('knowledgeDesk.qna.toggle', (e?: Qa) => k.toggle(e));
    cmd('knowledgeDesk.qna.thumbsUp', (e?: Qa) => k.feedback(e, true));
    cmd('knowledgeDesk.qna.thumbsDown', (e?: Qa) => k.feedback(e, false));
    cmd('knowledgeDesk.qna.cancelFeedback', (e?: Qa) => k.feedback(e, null));
    cmd('knowledgeDesk.qna.copyId', (e?: Qa) => k.copyId(e));
    cmd('knowledgeDesk.qna.delete', (e?: Qa, all?: QnaElement[]) => k.delete(e, all));
    cmd('knowledgeDesk.qna.search', () => {
      this.lastSearch = showQaSearch(this.c, (id) => this.editor.open({ kind: 'existing', id }));
      return this.lastSearch;
    });
    cmd('knowledgeDesk.qna.importCsv', (uri?: vscode.Uri) =>
      this.withFile(uri, 'Import Q&As from', (file) => this.importer.run(file, () => void this.tree.refresh())),
    );
    cmd('knowledgeDesk.qna.uploadFile', (uri?: vscode.Uri) =>
      this.withFile(uri, 'Send Q&A file to the service', (file) => this.files.uploadToService(file), true),
    );
    cmd('knowledgeDesk.qna.exportCsv', (uri?: vscode.Uri) => this.files.exportCsv(uri));
  }

  private async withFile<T>(
    uri: vscode.Uri | undefined,
    title: string,
    fn: (file: vscode.Uri) => Promise<T>,
    allowZip = false,
  ): Promise<T | undefined> {
    const file =
      uri ??
      (
        await this.c.ui.showOpenDialog({
          title,
          canSelectMany: false,
          filters: { 'Q&A files': ['csv', 'tsv', 'xlsx', ...(allowZip ? ['zip'] : [])] },
          defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
        })
      )?.[0];
    return file ? fn(file) : undefined;
  }

  private promote(candidate: Candidate): unknown {
    const [first, ...others] = candidate.questions.map((q) => q.question);
    return this.editor.open({ kind: 'new', prefill: { question: first ?? '', similarQuestions: others } });
  }
}
