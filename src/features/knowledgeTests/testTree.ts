import * as vscode from 'vscode';
import { decodeTestFile, parseTestFile } from '../../core/knowledgeTests/testFile';
import type { Diagnostic, KnowledgeTest, ParsedTestFile, Position } from '../../core/knowledgeTests/testSchema';
import { Disposable } from '../../platform/lifecycle';
import type { Log } from '../../platform/logger';
import { TEST_EXCLUDE, TEST_FILE, TEST_GLOB } from './testFilePattern';

export interface TestEntry {
  uri: vscode.Uri;
  test: KnowledgeTest;
}

const toRange = (start: Position, end: Position): vscode.Range =>
  new vscode.Range(Math.max(0, start.line - 1), Math.max(0, start.column - 1), Math.max(0, end.line - 1), Math.max(0, end.column - 1));

/**
 * The test files as TestItems of the controller: one item a file, one a test at its line (from the parser's
 * positions). A file's problems go to the Problems panel; its valid tests still appear and run. Item ids are
 * workspace-relative (`<path>::<test name>`), so the history (testHistory.ts) survives a restart and a move of
 * a test within its file.
 */
export class KnowledgeTestTree extends Disposable {
  readonly diagnostics: vscode.DiagnosticCollection;
  private readonly entries = new Map<string, TestEntry>();
  private readonly onDidUpdateEmitter = this._register(new vscode.EventEmitter<vscode.Uri>());
  /** A file was (re)read, or removed: its items and problems are up to date. */
  readonly onDidUpdate = this.onDidUpdateEmitter.event;
  private discovered: Promise<void> | undefined;

  constructor(
    private readonly ctrl: vscode.TestController,
    private readonly log: Log,
    private readonly decorate: (item: vscode.TestItem) => void,
  ) {
    super();
    this.diagnostics = this._register(vscode.languages.createDiagnosticCollection('knowledgeTests'));
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(TEST_GLOB));
    this._register(watcher.onDidCreate((uri) => void this.update(uri)));
    this._register(watcher.onDidChange((uri) => void this.update(uri)));
    this._register(watcher.onDidDelete((uri) => this.remove(uri)));
    // What is typed shows at once (before a save), and a file opened from outside the workspace appears too.
    this._register(vscode.workspace.onDidOpenTextDocument((d) => TEST_FILE.test(d.uri.path) && void this.update(d.uri, d.getText())));
    this._register(
      vscode.workspace.onDidChangeTextDocument(
        (e) => TEST_FILE.test(e.document.uri.path) && void this.update(e.document.uri, e.document.getText()),
      ),
    );
    for (const d of vscode.workspace.textDocuments) if (TEST_FILE.test(d.uri.path)) void this.update(d.uri, d.getText());
  }

  /** Every test file of the workspace, read once (the Testing view's resolveHandler, the first run). */
  discoverAll(): Promise<void> {
    return (this.discovered ??= (async () => {
      const files = await vscode.workspace.findFiles(TEST_GLOB, TEST_EXCLUDE);
      await Promise.all(files.map((uri) => this.update(uri)));
      this.log.info(`discovered ${files.length} knowledge test file(s)`);
    })());
  }

  /** Reads the workspace's test files again (the Testing view's Refresh). */
  rediscover(): Promise<void> {
    this.discovered = undefined;
    return this.discoverAll();
  }

  /** The test a test item runs; undefined for a file's item. */
  entry(item: vscode.TestItem): TestEntry | undefined {
    return this.entries.get(item.id);
  }

  /** The file items and, below each, its test items. */
  fileItems(): vscode.TestItem[] {
    const items: vscode.TestItem[] = [];
    this.ctrl.items.forEach((i) => void items.push(i));
    return items;
  }

  async update(uri: vscode.Uri, text?: string): Promise<void> {
    if (text === undefined) {
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      try {
        text = open ? open.getText() : decodeTestFile(await vscode.workspace.fs.readFile(uri));
      } catch (error) {
        this.log.warn(`cannot read ${uri.fsPath}: ${String(error)}`);
        this.remove(uri);
        return;
      }
    }
    const parsed: ParsedTestFile = parseTestFile(uri.path, text);
    this.diagnostics.set(uri, parsed.diagnostics.map(toDiagnostic));
    const fileId = fileIdOf(uri);
    const file = this.ctrl.items.get(fileId) ?? this.ctrl.createTestItem(fileId, uri.path.split('/').pop() ?? fileId, uri);
    for (const old of childIds(file)) this.entries.delete(old);
    const used = new Map<string, number>();
    const children = parsed.tests.map((test) => {
      // Two tests with the same name in a file: the second gets " (2)", so ids stay unique and stable.
      const n = (used.get(test.title) ?? 0) + 1;
      used.set(test.title, n);
      const id = `${fileId}::${test.title}${n > 1 ? ` (${n})` : ''}`;
      // The item of an unchanged test is kept: the explorer keeps its state and result, and holders of it see updates.
      const item = file.children.get(id) ?? this.ctrl.createTestItem(id, test.title, uri);
      item.label = test.title;
      item.range = toRange(test.start, test.end);
      this.entries.set(id, { uri, test });
      this.decorate(item);
      return item;
    });
    file.children.replace(children);
    this.decorate(file);
    this.ctrl.items.add(file);
    this.onDidUpdateEmitter.fire(uri);
  }

  remove(uri: vscode.Uri): void {
    const fileId = fileIdOf(uri);
    const file = this.ctrl.items.get(fileId);
    if (file) for (const id of childIds(file)) this.entries.delete(id);
    this.ctrl.items.delete(fileId);
    this.diagnostics.delete(uri);
    this.onDidUpdateEmitter.fire(uri);
  }
}

function childIds(item: vscode.TestItem): string[] {
  const ids: string[] = [];
  item.children.forEach((c) => void ids.push(c.id));
  return ids;
}

/** The workspace-relative path (with the folder's name in a multi-root workspace). */
export function fileIdOf(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

function toDiagnostic(d: Diagnostic): vscode.Diagnostic {
  const range = toRange(d.start, d.end);
  const severity = d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
  const diagnostic = new vscode.Diagnostic(range, d.message, severity);
  diagnostic.source = 'Knowledge Desk';
  return diagnostic;
}
