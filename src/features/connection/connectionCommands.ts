import * as vscode from 'vscode';
import { DEFAULT_PROJECT, nameProblem, type Connection, type ConnectionTarget } from '../../core/connections';
import { checkServiceUrl } from '../../core/regions';
import type { Container } from '../../container';
import { CommandIds } from '../../platform/commandIds';
import { CONNECTION_PICK_OPTIONS, connectionItems } from '../../platform/connection/connectionItems';
import { Disposable } from '../../platform/lifecycle';
import { regionDescription, regionLabel } from '../../platform/regionLabels';

/** Add Connection's "Local project": the store gives it a project of its own. */
const NEW_LOCAL_PROJECT = Symbol('new local project');

/**
 * Add, Rename, Remove and Switch: named connections, each with its own key (issue 27). A quick pick from the
 * status bar, not a view: the list is short, the status bar already shows the active one, and it needs no
 * view container of its own (README "Connections").
 */
export class ConnectionCommands extends Disposable {
  constructor(
    private readonly c: Container,
    private readonly setApiKey: (id: string) => Promise<boolean>,
  ) {
    super();
    this._register(
      c.commands({
        [CommandIds.addConnection]: () => this.add(),
        [CommandIds.renameConnection]: (id?: string) => this.rename(id),
        [CommandIds.removeConnection]: (id?: string) => this.remove(id),
        [CommandIds.switchConnection]: (id?: string) => this.switchTo(id),
      }),
    );
  }

  private get store() {
    return this.c.connection.store;
  }

  /** Name, target, then the key (checked before it is stored, as Set API Key does); the new one becomes active. */
  private async add(): Promise<Connection | undefined> {
    const name = await this.askName(vscode.l10n.t('Knowledge Desk: Add Connection (1/3): name'));
    if (name === undefined) return undefined;
    const target = await this.askTarget();
    if (!target) return undefined;
    // A new local project: its own data folder and key, named by the connection's id (LocalProjects).
    const connection = target === NEW_LOCAL_PROJECT ? await this.store.addLocalProject(name) : await this.store.add(name, target);
    this.c.log('connection').info(`added the connection ${connection.id} (${connection.target.kind})`);
    await this.store.setActive(connection.id);
    // The local service's own key is adopted on first use, as for Local.
    if (connection.target.kind !== 'local') await this.setApiKey(connection.id);
    return connection;
  }

  private async askName(title: string, value = '', exceptId?: string): Promise<string | undefined> {
    const name = await this.c.ui.showInputBox({
      title,
      value,
      prompt: vscode.l10n.t('A name you choose, for example "Staging" or "Production"'),
      validateInput: (v) => {
        const problem = nameProblem(this.store.connections, v, exceptId);
        if (problem === 'empty') return vscode.l10n.t('Enter a name');
        if (problem === 'tooLong') return vscode.l10n.t('A name has at most 80 characters');
        if (problem === 'duplicate') return vscode.l10n.t('A connection named "{0}" already exists', v.trim());
        return undefined;
      },
    });
    return name?.trim() || undefined;
  }

  private async askTarget(): Promise<ConnectionTarget | typeof NEW_LOCAL_PROJECT | undefined> {
    const kinds = (['us', 'ja', 'custom', 'local'] as const).map((kind) =>
      kind === 'local'
        ? {
            id: kind,
            label: vscode.l10n.t('Local project'),
            description: vscode.l10n.t('A new, empty project on this machine, with its own data folder and key'),
          }
        : { id: kind, label: regionLabel(kind), description: regionDescription(kind) },
    );
    const pick = await this.c.ui.showQuickPick(kinds, { title: vscode.l10n.t('Knowledge Desk: Add Connection (2/3): where it goes') });
    if (!pick) return undefined;
    if (pick.id === 'local') return NEW_LOCAL_PROJECT;
    if (pick.id !== 'custom') return { kind: pick.id };
    const baseUrl = await this.c.ui.showInputBox({
      title: vscode.l10n.t('Custom region: base URL of the service'),
      value: 'https://',
      prompt: vscode.l10n.t('For example {0} ({1} only for this machine)', 'https://knowledge.example.co.jp', 'http://'),
      validateInput: (v) => urlProblem(v),
    });
    if (baseUrl === undefined) return undefined;
    const nluUrl = await this.c.ui.showInputBox({
      title: vscode.l10n.t('Custom region: entity-recognition URL (optional)'),
      prompt: vscode.l10n.t('Leave empty to use the base URL'),
      validateInput: (v) => (v.trim() ? urlProblem(v) : undefined),
    });
    if (nluUrl === undefined) return undefined;
    const nlu = nluUrl.trim() ? checkServiceUrl(nluUrl).url : undefined;
    return { kind: 'custom', baseUrl: checkServiceUrl(baseUrl).url!, ...(nlu ? { nluUrl: nlu } : {}) };
  }

  private async rename(id?: string): Promise<void> {
    const connection = await this.pick(id, vscode.l10n.t('Knowledge Desk: Rename Connection'));
    if (!connection) return;
    const name = await this.askName(vscode.l10n.t('Rename "{0}"', connection.name), connection.name, connection.id);
    if (name === undefined || name === connection.name) return;
    await this.store.rename(connection.id, name);
  }

  /** After a modal confirmation; its keys go with it. Removing the active one switches to another and says so. */
  private async remove(id?: string): Promise<void> {
    const connection = await this.pick(id, vscode.l10n.t('Knowledge Desk: Remove Connection'));
    if (!connection) return;
    if (this.store.connections.length === 1) {
      void vscode.window.showWarningMessage(vscode.l10n.t('"{0}" is the only connection: add another one first.', connection.name));
      return;
    }
    const remove = vscode.l10n.t('Remove Connection');
    const project = this.ownProject(connection);
    const deleteData = vscode.l10n.t('Remove and Delete Its Data');
    // A local project of its own: keeping its data folder is the first (default) answer, deleting it the second.
    const answer = project
      ? await this.c.ui.showWarningMessage(
          vscode.l10n.t(
            'Remove the connection "{0}" and its keys from this machine? Its local project\'s data folder is kept unless you delete it too.',
            connection.name,
          ),
          { modal: true },
          remove,
          deleteData,
        )
      : await this.c.ui.showWarningMessage(
          vscode.l10n.t('Remove the connection "{0}" and its keys from this machine? The project itself is not changed.', connection.name),
          { modal: true },
          remove,
        );
    if (answer !== remove && answer !== deleteData) return;
    const nowActive = await this.store.remove(connection.id);
    this.c.log('connection').info(`removed the connection ${connection.id} and its keys`);
    if (project) await this.releaseProject(project, answer === deleteData);
    if (nowActive)
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Removed "{0}", the active connection. Knowledge Desk now shows "{1}".', connection.name, nowActive.name),
      );
  }

  /** The local project only this connection uses (never the default one): what Remove may delete. */
  private ownProject(connection: Connection): string | undefined {
    const t = connection.target;
    if (t.kind !== 'local' || t.project === DEFAULT_PROJECT) return undefined;
    const shared = this.store.connections.some(
      (c) => c.id !== connection.id && c.target.kind === 'local' && c.target.project === t.project,
    );
    return shared ? undefined : t.project;
  }

  /** Stops the removed project's process (nothing uses it any more) and deletes its data folder when asked to. */
  private async releaseProject(project: string, deleteData: boolean): Promise<void> {
    const log = this.c.log('connection');
    const folder = this.c.localProjects.dataDirOf(project);
    if (!deleteData) {
      await this.c.localProjects.stop(project);
      log.info(`kept the data folder ${folder}`);
      return;
    }
    if ((await this.c.localProjects.deleteData(project)) === 'deleted') {
      log.info(`deleted the data folder ${folder}`);
      return;
    }
    log.warn(`kept the data folder ${folder}: another window's local service uses it`);
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The data folder {0} was kept: another VS Code window is using it. Close that window and delete the folder by hand.',
        folder,
      ),
    );
  }

  /** A quick pick with each connection's state (checked when it opens), or the connection whose id is given. */
  private async switchTo(id?: string): Promise<void> {
    const connection = await this.pick(id, vscode.l10n.t('Knowledge Desk: Switch Connection'), true);
    if (!connection || connection.id === this.c.connection.active.id) return;
    await this.store.setActive(connection.id);
    this.c.log('connection').info(`switched to the connection ${connection.id}`);
  }

  private async pick(id: string | undefined, title: string, withState = false): Promise<Connection | undefined> {
    if (typeof id === 'string') return this.store.get(id);
    const c = this.c;
    const items = connectionItems(
      { manager: c.connection, secrets: c.secrets, settings: c.settings, localProjects: c.localProjects },
      this.store.connections,
      withState,
    );
    const picked = await this.c.ui.showQuickPick(items, {
      ...CONNECTION_PICK_OPTIONS,
      title,
      placeHolder: vscode.l10n.t('Current: {0}', this.c.connection.active.name),
    });
    return picked?.connection;
  }
}

function urlProblem(value: string): string | undefined {
  const problem = checkServiceUrl(value).error;
  // The reason comes from src/core/regions.ts (English, shared with the logs).
  return problem ? vscode.l10n.t('The URL {0}', problem) : undefined;
}
