import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { CONNECTION_FILE_NAME, type ConnectionFile } from '../../core/connectionFile';
import type { ConnectionStore } from '../../core/connectionStore';
import { Disposable, toDisposable } from '../lifecycle';
import type { Log } from '../logger';
import type { Settings } from '../settings';
import { configuredBaseUrl } from './connectionEndpoints';
import type { LocalProjects } from './localProjects';

/**
 * Keeps `connections.json` in the extension's global storage in step with the connection list, for
 * `dist/mcp.js --connection NAME` outside VS Code: where each connection goes, never a key (application scope,
 * like the list itself; README "MCP server"). Written after activation, then on each change of the list or of the
 * Custom URL settings a connection may follow.
 */
export class ConnectionFileSync extends Disposable {
  readonly file: string;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    storageDir: string,
    private readonly store: ConnectionStore,
    private readonly settings: Settings,
    private readonly projects: LocalProjects,
    private readonly log: Log,
  ) {
    super();
    this.file = path.join(storageDir, CONNECTION_FILE_NAME);
    const changed = store.onDidChange(() => void this.write());
    this._register(toDisposable(() => changed.dispose()));
    this._register(settings.onDidChange((e) => e.affectsConfiguration('knowledgeDesk.custom') && void this.write()));
    // Not during activation: a file write is cheap, but activation does no I/O it can leave for later.
    const first = setTimeout(() => void this.write(), 0);
    this._register(toDisposable(() => clearTimeout(first)));
  }

  /** What the file holds now. */
  content(): ConnectionFile {
    return {
      version: 1,
      connections: this.store.connections.map((c) =>
        c.target.kind === 'local'
          ? { name: c.name, kind: 'local', dataDir: this.projects.dataDirOf(c.target.project) }
          : {
              name: c.name,
              kind: 'remote',
              ...optional('baseUrl', configuredBaseUrl(c, this.settings)),
              // The migrated Custom connection (no URL of its own) follows the settings, as its client does.
              ...optional(
                'nluUrl',
                c.target.kind !== 'custom' ? undefined : c.target.baseUrl ? c.target.nluUrl : this.settings.custom.nluUrl,
              ),
            },
      ),
    };
  }

  /** Writes the file whole (a temporary file renamed over it: a reader never sees half of it); writes run one at a time. */
  write(): Promise<void> {
    this.writing = this.writing.then(async () => {
      const tmp = `${this.file}.${randomUUID()}.tmp`;
      try {
        await mkdir(path.dirname(this.file), { recursive: true });
        await writeFile(tmp, `${JSON.stringify(this.content(), null, 2)}\n`, { mode: 0o600 });
        await rename(tmp, this.file);
      } catch (error) {
        this.log.warn(`the connection file ${this.file} was not written: ${error instanceof Error ? error.message : String(error)}`);
        await rm(tmp, { force: true });
      }
    });
    return this.writing;
  }
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}
