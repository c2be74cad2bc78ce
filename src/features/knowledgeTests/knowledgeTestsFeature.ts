import * as vscode from 'vscode';
import type { Container } from '../../container';
import type { FaqDetail } from '../../api/schemas/faq';
import { pool } from '../../core/pool';
import { CommandIds } from '../../platform/commandIds';
import { shortDateTimeText } from '../../platform/intlFormat';
import { checkedClientOf } from '../../platform/connection/connectionClient';
import { Disposable, toDisposable } from '../../platform/lifecycle';
import { SettingKeys } from '../../platform/settings';
import { qaRowsOf } from '../../platform/tree/qaRowElement';
import { historyMarkdown } from './historyView';
import type * as QnaTestsModule from './qnaTests';
import { HISTORY_KEY, restoreHistory } from './testHistory';
import { TEST_EXCLUDE, TEST_FILE, TEST_GLOB } from './testFilePattern';
import type * as SessionModule from './testSession';
import type { KnowledgeTestSession } from './testSession';

/* eslint-disable @typescript-eslint/no-require-imports -- the parsers, zod schemas and runner load on first need */
const lazy = {
  session: (): typeof SessionModule => require('./testSession'),
  qnaTests: (): typeof QnaTestsModule => require('./qnaTests'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** How long after activation the workspace is searched for test files (once, off the activation path). */
const LOOK_AFTER_MS = 2000;

/**
 * Knowledge tests in VS Code's Test Explorer (docs/knowledge-tests.md, "In VS Code"). Activation only watches:
 * the controller (testSession.ts) is created when a test file is opened or created, or when a search of the
 * workspace a moment after startup finds one, so a workspace without knowledge tests has no "Knowledge tests"
 * in its Testing view. Also Show History and Generate Tests from Q&As (the Q&A tree's selection).
 */
export class KnowledgeTestsFeature extends Disposable {
  private current: KnowledgeTestSession | undefined;
  private readonly onDidCreateSessionEmitter = this._register(new vscode.EventEmitter<KnowledgeTestSession>());
  readonly onDidCreateSession = this.onDidCreateSessionEmitter.event;

  constructor(private readonly c: Container) {
    super();
    const wake = (uri: vscode.Uri): void => void (TEST_FILE.test(uri.path) && this.session());
    this._register(vscode.workspace.onDidOpenTextDocument((d) => wake(d.uri)));
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(TEST_GLOB, false, true, true));
    this._register(watcher.onDidCreate(wake));
    for (const d of vscode.workspace.textDocuments) wake(d.uri);
    const timer = setTimeout(() => {
      if (this.current) return;
      vscode.workspace.findFiles(TEST_GLOB, TEST_EXCLUDE, 1).then(
        (found) => void (found.length && this.session()),
        () => undefined,
      );
    }, LOOK_AFTER_MS);
    this._register({ dispose: () => clearTimeout(timer) });
    this._register(
      c.commands({
        [CommandIds.tests.showHistory]: () => this.showHistory(),
        [CommandIds.tests.generateFromQnas]: (clicked?: unknown, selected?: unknown) => this.generateFromQnas(clicked, selected),
      }),
    );
  }

  /** The session if one was created (a test file was seen), else undefined. */
  get active(): KnowledgeTestSession | undefined {
    return this.current;
  }

  /** The Test Explorer's controller and what hangs on it, created on first call. */
  session(): KnowledgeTestSession {
    if (this.current) return this.current;
    const { KnowledgeTestSession } = lazy.session();
    const c = this.c;
    this.current = this._register(
      new KnowledgeTestSession(
        c.context.workspaceState,
        c.log('knowledgeTests'),
        [{ label: vscode.l10n.t('Active connection'), client: () => c.connection.getClient(), isDefault: true }],
        () => c.settings.get<number>(SettingKeys.testsBulkFrom, 0),
      ),
    );
    // And one per connection, following the list: its runs go to that connection, the active one stays.
    const session = this.current;
    const syncProfiles = (): void =>
      session.syncConnections(c.connection.store.connections, (id) => {
        const connection = c.connection.store.get(id);
        if (!connection) return Promise.reject(new Error(vscode.l10n.t('The connection was removed.')));
        return checkedClientOf(c.connection, c.secrets, c.logger, connection);
      });
    syncProfiles();
    const stored = c.connection.store.onDidChange(syncProfiles);
    this._register(toDisposable(() => stored.dispose()));
    // A test file brought it: the workspace's test files are read now (not only when the Testing view asks), so
    // the editor's gutter and a run from the palette see them.
    void this.current.tree.discoverAll();
    this.onDidCreateSessionEmitter.fire(this.current);
    return this.current;
  }

  async showHistory(): Promise<vscode.TextDocument> {
    const state = this.current?.historyState ?? restoreHistory(this.c.context.workspaceState.get(HISTORY_KEY));
    return this.c.details.show(
      vscode.l10n.t('Knowledge test history'),
      historyMarkdown(state, (ms) => shortDateTimeText(new Date(ms))),
    );
  }

  /** Writes `knowledge-tests/qna-<date>.kdtest.yaml` in the first workspace folder (untitled without one) and opens it. */
  async generateFromQnas(clicked: unknown, selected: unknown): Promise<vscode.Uri | undefined> {
    const rows = qaRowsOf(clicked, selected);
    if (!rows.length) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Select one or more Q&As in the Q&A view, then run Generate Tests from Q&As.'),
      );
      return undefined;
    }
    const client = await this.c.connection.getClient();
    const details = new Map<string, FaqDetail>();
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading {0} Q&As…', rows.length), cancellable: true },
      async (_p, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort(new vscode.CancellationError()));
        await pool(rows, 4, abort.signal, async (qa) => void details.set(qa.id, await client.faq.get(qa.id, {}, { signal: abort.signal })));
      },
    );
    const { qnaTestsYaml, generatedFileName } = lazy.qnaTests();
    const text = qnaTestsYaml(
      rows.map((qa) => ({
        id: qa.id,
        question: details.get(qa.id)?.question ?? qa.question,
        similarQuestions: details.get(qa.id)?.similar_questions ?? [],
      })),
      vscode.l10n.t('Generated from {0} Q&As: each question and its similar questions find their Q&A first.', rows.length),
    );
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'yaml', content: text }));
      return undefined;
    }
    const dir = vscode.Uri.joinPath(folder.uri, 'knowledge-tests');
    await vscode.workspace.fs.createDirectory(dir);
    const names = new Set((await vscode.workspace.fs.readDirectory(dir)).map(([name]) => name));
    const uri = vscode.Uri.joinPath(
      dir,
      generatedFileName(new Date(), (n) => names.has(n)),
    );
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    this.session();
    await vscode.window.showTextDocument(uri);
    return uri;
  }
}
