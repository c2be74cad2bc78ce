import * as path from 'node:path';
import * as vscode from 'vscode';
import { undici } from '../../api/undici';
import type * as LocalModule from '../../local/entry';
import { Disposable, toDisposable } from '../../platform/lifecycle';
import type { Log } from '../../platform/logger';

export interface LocalEndpoint {
  url: string;
  apiKey: string;
  nluApiKey: string;
  /** False when another VS Code window's extension host owns the data folder and we talk to its server. */
  owned: boolean;
}

export interface LocalServiceHostOptions {
  extensionPath: string;
  dataDir: string;
  log: Log;
  allowedRoots: () => string[];
  maxUploadBytes: () => number;
  /** Sample documents imported when the knowledge base is empty (npm start sets KNOWLEDGE_DESK_LOCAL_SEED). */
  seedDir?: string;
  /** Test options of the local service (only when the test probe exists; see platform/testProbe.ts). */
  test?: Pick<LocalModule.LocalServiceOptions, 'testHooks' | 'jobStepDelayMs'>;
}

/**
 * Runs the embedded local service in this extension host, loading dist/local.js only when the
 * Local region is used. Several windows share global storage: the first one owns the data folder
 * and the others use its server (the lock file tells where it listens).
 */
export class LocalServiceHost extends Disposable {
  private starting: Promise<LocalEndpoint> | undefined;
  private service: LocalModule.LocalService | undefined;

  constructor(private readonly options: LocalServiceHostOptions) {
    super();
    this._register(toDisposable(() => void this.service?.close()));
  }

  get current(): LocalEndpoint | undefined {
    return this.service
      ? { url: this.service.url, apiKey: this.service.apiKey, nluApiKey: this.service.nluApiKey, owned: true }
      : undefined;
  }

  /** The data folder (an MCP server started with --local attaches to the service its lock file names). */
  get dataDir(): string {
    return this.options.dataDir;
  }

  /** True once something asked for the service in this window (it may still be starting). */
  get isStarted(): boolean {
    return this.starting !== undefined;
  }

  ensureStarted(): Promise<LocalEndpoint> {
    this.starting ??= this.start().catch((error) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  /** The workspace folders changed: file:// cloud uploads may read the new ones. */
  setAllowedRoots(roots: string[]): void {
    this.service?.setAllowedRoots(roots);
  }

  /** Forget a borrowed endpoint that stopped answering, so the next call can take the folder over. */
  reset(): void {
    if (!this.service) this.starting = undefined;
  }

  private async start(): Promise<LocalEndpoint> {
    // After a window reload the previous extension host may hold the lock for a moment: retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.startOnce();
      } catch (error) {
        if (attempt >= 10 || !(error instanceof OwnerNotAnswering)) throw error;
        await new Promise((r) => setTimeout(r, 300));
      }
    }
  }

  private async startOnce(): Promise<LocalEndpoint> {
    const started = Date.now();
    const local = this.load();
    const { dataDir, log } = this.options;
    try {
      this.service = await local.startLocalService({
        dataDir,
        allowedRoots: this.options.allowedRoots(),
        maxUploadBytes: this.options.maxUploadBytes(),
        seedDir: this.options.seedDir,
        ...this.options.test,
        logger: { debug: (m) => log.trace(m), info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(m) },
      });
      log.info(`local service started on ${this.service.url} in ${Date.now() - started} ms (data: ${dataDir})`);
      return this.current!;
    } catch (error) {
      if (!(error instanceof local.DataFolderLockedError) || !error.owner.url) throw error;
      const keys = await local.loadOrCreateKeys(dataDir);
      const owner = error.owner;
      if (!(await answers(owner.url!, keys.apiKey))) {
        throw new OwnerNotAnswering(
          vscode.l10n.t(
            'The local service data folder is locked by process {0}, which does not answer at {1}. Close the other VS Code window or restart it.',
            owner.pid,
            owner.url!,
          ),
        );
      }
      log.info(`using the local service of process ${owner.pid} at ${owner.url} (another window owns ${dataDir})`);
      return { url: owner.url!, apiKey: keys.apiKey, nluApiKey: keys.nluApiKey, owned: false };
    }
  }

  private load(): typeof LocalModule {
    // A computed path keeps esbuild from bundling the service into the extension's own bundle.
    const file = path.join(this.options.extensionPath, 'dist', 'local.js');
    return require(file) as typeof LocalModule;
  }
}

class OwnerNotAnswering extends Error {}

async function answers(url: string, apiKey: string): Promise<boolean> {
  try {
    const res = await undici().request(`${url}/_local/info`, { headers: { 'API-KEY': apiKey }, signal: AbortSignal.timeout(3000) });
    await res.body.dump();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}
