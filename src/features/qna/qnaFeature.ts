import * as vscode from 'vscode';
import type { Candidate } from '../../api/schemas/faq';
import type { Container } from '../../container';
import { Disposable } from '../../platform/lifecycle';
import { connectedOnly } from '../../platform/tree/connectedOnly';
import { CandidatesView, type CandidateElement } from './candidatesView';
import type * as ImportFlowModule from './importFlow';
import type { QaImporter } from './importFlow';
import { showQaSearch } from './qaSearchPick';
import { QnaCommands } from './qnaCommands';
import type * as FileCommandsModule from './qnaFileCommands';
import type { QnaFileCommands } from './qnaFileCommands';
import { QnaTreeModel, type QaElement, type QnaElement } from './qnaTreeModel';
import { QNA_VIEW, QnaTreeProvider } from './qnaTreeProvider';
import { CommandIds } from '../../platform/commandIds';
import { noteUseWhenVisible } from '../../platform/usage';
import { loadMoreCommand, resetOnClientChange } from '../../platform/tree/pagingItems';

// The import and the file commands (with the Q&A file readers, CSV and the import plan) load on their first
// command, not at activation: most windows never import a file.
/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, not at activation */
const lazy = {
  importFlow: (): typeof ImportFlowModule => require('./importFlow'),
  files: (): typeof FileCommandsModule => require('./qnaFileCommands'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

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
  private importFlow?: QaImporter;
  private fileCommands?: QnaFileCommands;
  readonly candidates: CandidatesView;
  readonly diagnostics: vscode.DiagnosticCollection;

  constructor(
    private readonly c: Container,
    private readonly editor: QaEditorOpener,
  ) {
    super();
    this.model = new QnaTreeModel(() => c.connection.getClient());
    this.tree = this._register(new QnaTreeProvider(this.model));
    this.view = this._register(
      vscode.window.createTreeView(QNA_VIEW, {
        treeDataProvider: connectedOnly(this.tree, c.connection),
        canSelectMany: true,
        showCollapseAll: true,
      }),
    );
    this._register(noteUseWhenVisible(QNA_VIEW, this.view));
    this.commands = new QnaCommands(c, this.tree, this.view);
    this.diagnostics = this._register(vscode.languages.createDiagnosticCollection('knowledgeDesk.qaImport'));
    this.candidates = this._register(new CandidatesView(c, (candidate) => this.promote(candidate)));
    this._register(resetOnClientChange(c.connection, this.tree));
    this._register(
      editor.onDidSave(() => {
        void this.tree.refresh();
        void this.candidates.refresh();
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

  get importer(): QaImporter {
    return (this.importFlow ??= new (lazy.importFlow().QaImporter)(this.c, this.diagnostics));
  }

  get files(): QnaFileCommands {
    return (this.fileCommands ??= new (lazy.files().QnaFileCommands)(this.c, this.diagnostics));
  }

  private registerCommands(): void {
    const k = this.commands;
    const ids = CommandIds.qna;
    this._register(
      this.c.commands({
        [ids.refresh]: () => this.tree.refresh(),
        [ids.loadMore]: loadMoreCommand(QNA_VIEW, this.tree),
        [ids.filterText]: () => k.filterText(),
        [ids.filterStatus]: () => k.status(),
        [ids.filterHashtags]: () => k.hashtags(),
        [ids.filterOrigin]: () => k.origin(),
        [ids.groupByFolder]: () => k.groupByFolder(true),
        [ids.ungroup]: () => k.groupByFolder(false),
        [ids.clearFilter]: () => k.clear(),
        [ids.toggle]: (e?: QaElement) => k.toggle(e),
        [ids.thumbsUp]: (e?: QaElement) => k.feedback(e, true),
        [ids.thumbsDown]: (e?: QaElement) => k.feedback(e, false),
        [ids.cancelFeedback]: (e?: QaElement) => k.feedback(e, null),
        [ids.copyId]: (e?: QaElement) => k.copyId(e),
        [ids.delete]: (e?: QaElement, all?: QnaElement[]) => k.delete(e, all),
        // Returns the open search (tests work it through its state).
        [ids.search]: () => showQaSearch(this.c, (id) => this.editor.open({ kind: 'existing', id })),
        // From the Explorer a file; from the view's title bar VS Code passes the focused row: not a file.
        [ids.importFile]: (uri?: unknown) =>
          this.withFile(asUri(uri), vscode.l10n.t('Import Q&As from'), (file) => this.importer.run(file, () => void this.tree.refresh())),
        [ids.uploadFile]: (uri?: unknown) =>
          this.withFile(asUri(uri), vscode.l10n.t('Send Q&A file to the service'), (file) => this.files.uploadToService(file), true),
        [ids.exportCsv]: (uri?: unknown) => this.files.exportCsv(asUri(uri)),
      }),
    );
    const candidates = this.candidates;
    this._register(
      this.c.commands({
        [CommandIds.candidates.refresh]: () => candidates.refresh(),
        [CommandIds.candidates.loadMore]: () => candidates.loadMore(),
        [CommandIds.candidates.status]: () => candidates.pickStatus(),
        [CommandIds.candidates.order]: () => candidates.pickOrder(),
        [CommandIds.candidates.promote]: (e?: CandidateElement) => candidates.promoteSelected(e),
        [CommandIds.candidates.addFromSelection]: () => candidates.addFromSelection(),
      }),
    );
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
          filters: { [vscode.l10n.t('Q&A files')]: ['csv', 'tsv', 'xlsx', ...(allowZip ? ['zip'] : [])] },
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

function asUri(value: unknown): vscode.Uri | undefined {
  return value instanceof vscode.Uri ? value : undefined;
}
