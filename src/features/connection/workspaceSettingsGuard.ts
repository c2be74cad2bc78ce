import * as vscode from 'vscode';
import { settingsSetIn } from '../../core/settingsFile';
import { Disposable } from '../../platform/lifecycle';
import type { Log } from '../../platform/logger';
import { SECTION, USER_ONLY_SETTINGS, type IgnoredWorkspaceValue, type Settings } from '../../platform/settings';

const REPORTED_KEY = 'knowledgeDesk.ignoredWorkspaceSettings.reported';
const IDS = USER_ONLY_SETTINGS.map((k) => `${SECTION}.${k}`);

/**
 * A workspace may set a setting that decides where keys and data go (e.g. points the Custom region at
 * its own server). Those values are never used (Settings reads them from user settings only); this
 * tells the user once per workspace which settings were ignored and in which file.
 */
export class WorkspaceSettingsGuard extends Disposable {
  /** Every ignored value found in this window (each is logged and told once). */
  readonly found: IgnoredWorkspaceValue[] = [];
  private readonly noticeEmitter = this._register(new vscode.EventEmitter<string>());
  /** The user was told that values were ignored (the notice's text). */
  readonly onDidNotify = this.noticeEmitter.event;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly settings: Settings,
    private readonly workspaceState: vscode.Memento,
    private readonly log: Log,
  ) {
    super();
    this._register(settings.onDidChange(() => void this.check()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.check()));
    const watcher = this._register(vscode.workspace.createFileSystemWatcher('**/.vscode/settings.json', false, false, true));
    this._register(watcher.onDidChange(() => void this.check()));
    this._register(watcher.onDidCreate(() => void this.check()));
  }

  /** Looks for ignored values; the checks run one after the other. */
  check(): Promise<void> {
    const next = (this.checking ?? Promise.resolve()).then(() => this.checkOnce()).catch((e) => this.log.warn(`workspace settings: ${e}`));
    this.checking = next;
    return next;
  }

  private async checkOnce(): Promise<void> {
    const values = [...this.settings.ignoredValues(), ...(await this.fromFiles())];
    const fresh = values.filter((v) => !this.found.some((f) => f.setting === v.setting && f.file === v.file));
    const unique = fresh.filter((v, i) => fresh.findIndex((f) => f.setting === v.setting && f.file === v.file) === i);
    if (!unique.length) return;
    this.found.push(...unique);
    for (const v of unique) this.log.warn(`ignored ${v.setting} set in ${v.file}: only user settings may set it`);
    const reported = new Set(this.workspaceState.get<string[]>(REPORTED_KEY, []));
    const toTell = unique.filter((v) => !reported.has(`${v.file}#${v.setting}`));
    if (!toTell.length) return;
    await this.workspaceState.update(REPORTED_KEY, [...reported, ...toTell.map((v) => `${v.file}#${v.setting}`)]);
    const files = [...new Set(toTell.map((v) => v.file))];
    const message = vscode.l10n.t(
      'Knowledge Desk ignores {0} set in {1}: these settings decide where your API keys and data go, so only your user settings can change them.',
      toTell.map((v) => v.setting).join(', '),
      files.map((f) => vscode.workspace.asRelativePath(f)).join(', '),
    );
    this.noticeEmitter.fire(message);
    // Not awaited: the notification stays until the user closes it, and later checks must not wait for that.
    const openFile = vscode.l10n.t('Open File');
    void vscode.window
      .showWarningMessage(message, openFile)
      .then((choice) => (choice === openFile ? vscode.window.showTextDocument(vscode.Uri.file(files[0])) : undefined));
  }

  /** VS Code leaves application-scoped workspace values out of inspect(): read the files themselves. */
  private async fromFiles(): Promise<IgnoredWorkspaceValue[]> {
    const sources: Array<{ uri: vscode.Uri; kind: 'settings' | 'workspace' }> = (vscode.workspace.workspaceFolders ?? []).map((f) => ({
      uri: vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json'),
      kind: 'settings',
    }));
    const ws = vscode.workspace.workspaceFile;
    if (ws && ws.scheme !== 'untitled') sources.push({ uri: ws, kind: 'workspace' });
    const found: IgnoredWorkspaceValue[] = [];
    for (const { uri, kind } of sources) {
      let text: string;
      try {
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        continue; // no such file
      }
      for (const setting of settingsSetIn(text, IDS, kind)) found.push({ setting, file: uri.fsPath });
    }
    return found;
  }
}
