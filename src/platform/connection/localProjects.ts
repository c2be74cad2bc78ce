import { rm } from 'node:fs/promises';
import * as vscode from 'vscode';
import { DEFAULT_PROJECT } from '../../core/connections';
import { Disposable, toDisposable } from '../lifecycle';
import { LocalServiceHost, type LocalServiceHostOptions } from './localServiceHost';
import { LocalStartError } from './process/localChild';
import { localProjectDir } from './process/localProjectDir';
import type { SupervisorEvent } from './process/supervisor';

export type LocalProjectsOptions = Omit<LocalServiceHostOptions, 'dataDir'> & {
  /** The extension's global storage: the default project's folder and the other projects' parent folder live there. */
  storageDir: string;
};

export interface LocalProjectEvent {
  project: string;
  event: SupervisorEvent;
}

/**
 * The local projects of this window, one supervised process each (docs/local-service.md#several-local-projects),
 * started on the first use of a project, each in its own data folder (process/localProjectDir.ts) with its own key.
 */
export class LocalProjects extends Disposable {
  private readonly hosts = new Map<string, LocalServiceHost>();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<LocalProjectEvent>());
  /** A project's service started, stopped (and is restarting) or was given up. */
  readonly onDidChange = this.changeEmitter.event;
  private allowedRoots: string[] | undefined;

  constructor(private readonly options: LocalProjectsOptions) {
    super();
    this._register(toDisposable(() => [...this.hosts.values()].forEach((h) => h.dispose())));
  }

  /** The data folder of a project. */
  dataDirOf(project: string): string {
    return localProjectDir(this.options.storageDir, project);
  }

  /** The host of a project's service (created, not started: it starts on its first ensureStarted). */
  host(project: string = DEFAULT_PROJECT): LocalServiceHost {
    let host = this.hosts.get(project);
    if (!host) {
      const { storageDir: _storage, seedDir, ...shared } = this.options;
      host = new LocalServiceHost({
        ...shared,
        dataDir: this.dataDirOf(project),
        // npm start's sample documents go to the default project only; a new project starts empty.
        seedDir: project === DEFAULT_PROJECT ? seedDir : undefined,
        allowedRoots: () => this.allowedRoots ?? shared.allowedRoots(),
      });
      const created = host;
      created.onDidChange((event) => this.changeEmitter.fire({ project, event }));
      this.hosts.set(project, created);
    }
    return host;
  }

  /** The workspace folders changed: every running project's file:// cloud uploads may read the new ones. */
  setAllowedRoots(roots: string[]): void {
    this.allowedRoots = [...roots];
    for (const host of this.hosts.values()) host.setAllowedRoots(roots);
  }

  /** Stops a project's process (its connection was removed): memory stays with the projects in use. */
  async stop(project: string): Promise<void> {
    const host = this.hosts.get(project);
    if (!host) return;
    this.hosts.delete(project);
    await host.close();
  }

  /**
   * Deletes a project's data folder after stopping this window's process for it. Refused ('inUse') while another
   * window's service owns the folder: deleting under a running service would leave it writing into nothing.
   */
  async deleteData(project: string): Promise<'deleted' | 'inUse'> {
    if (project === DEFAULT_PROJECT) throw new Error('the default local project is never deleted'); // l10n-ignore: a caller's fault
    const host = this.host(project);
    try {
      // Starting is how a window learns who owns a folder: the child reports the lock's live owner.
      const endpoint = await host.ensureStarted();
      if (!endpoint.owned) return 'inUse';
    } catch (error) {
      // A folder whose service cannot start (damaged data) is deleted all the same; one another process holds is not.
      if (!(error instanceof Error && error.cause instanceof LocalStartError)) return 'inUse';
    }
    await this.stop(project);
    await rm(this.dataDirOf(project), { recursive: true, force: true, maxRetries: 3 });
    return 'deleted';
  }
}
