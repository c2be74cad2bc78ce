// The connection list and the active connection, in application scope (globalState); keys stay in
// SecretStorage under the connection's id. No vscode import: unit tests give it a plain Memento and key store.
import { randomUUID } from 'node:crypto';
import {
  defaultConnection,
  findByName,
  nameProblem,
  readConnections,
  serialize,
  type Connection,
  type ConnectionTarget,
} from './connections';
import type { Region } from './regions';

export const CONNECTIONS_KEY = 'knowledgeDesk.connections';
export const ACTIVE_KEY = 'knowledgeDesk.connections.active';

/** The part of vscode.Memento the store uses (globalState: application scope, never the workspace's). */
export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** Deletes a connection's keys (Secrets). */
export interface KeyStore {
  delete(kind: 'apiKey' | 'nluApiKey', owner: string): Thenable<void>;
}

export class ConnectionError extends Error {
  constructor(
    readonly reason: 'empty' | 'tooLong' | 'duplicate' | 'unknown' | 'last',
    message: string,
  ) {
    super(message);
  }
}

export interface LoadOutcome {
  /** The list was stored for the first time (the upgrade from per-region keys). */
  migrated: boolean;
  /** What was wrong with the stored list (English, for the log and the warning); the defaults were rebuilt. */
  problem?: string;
  /** The workspace's preferred connection name when no connection has it (it is ignored). */
  unknownPreference?: string;
}

export class ConnectionStore {
  private list: Connection[] = [];
  private activeId = 'local';
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly state: StateStore,
    private readonly keys: KeyStore,
  ) {}

  /**
   * Reads the list (migrating on first start: the active connection is the one of `region`, the
   * deprecated setting) and picks this window's active connection: the workspace's preferred one by
   * name if it exists, else the stored one. A preference never creates or changes a connection.
   */
  load(region: Region, preferredName?: string): LoadOutcome & { saved: Promise<void> } {
    // Everything is decided before the first write (Memento reads are synchronous): the container uses the
    // active connection at once, and the writes finish in `saved`.
    const read = readConnections(this.state.get(CONNECTIONS_KEY));
    this.list = read.connections;
    const stored = this.state.get<string>(ACTIVE_KEY);
    const fromRegion = read.fresh || !stored || !this.get(stored);
    this.activeId = !fromRegion ? stored : this.get(region) ? region : this.fallbackId();
    const writes: Thenable<void>[] = [];
    if (read.fresh || read.problem) writes.push(this.save());
    if (fromRegion) writes.push(this.state.update(ACTIVE_KEY, this.activeId));
    let unknownPreference: string | undefined;
    const preferred = preferredName?.trim() ? findByName(this.list, preferredName) : undefined;
    // This window only: the workspace chooses among the user's connections and stores nothing.
    if (preferred) this.activeId = preferred.id;
    else if (preferredName?.trim()) unknownPreference = preferredName.trim();
    this.fire();
    return { migrated: read.fresh, problem: read.problem, unknownPreference, saved: Promise.all(writes).then(() => undefined) };
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  get connections(): readonly Connection[] {
    return this.list;
  }

  get active(): Connection {
    return this.list.find((c) => c.id === this.activeId) ?? this.list[0] ?? defaultConnection('local');
  }

  get(id: string): Connection | undefined {
    return this.list.find((c) => c.id === id);
  }

  byName(name: string): Connection | undefined {
    return findByName(this.list, name);
  }

  async add(name: string, target: ConnectionTarget): Promise<Connection> {
    this.checkName(name);
    const connection: Connection = { id: `c-${randomUUID()}`, name: name.trim(), target };
    this.list = [...this.list, connection];
    await this.save();
    this.fire();
    return connection;
  }

  /** A new local project: its id (the connection's) names its data folder, never the name the user typed. */
  async addLocalProject(name: string): Promise<Connection> {
    this.checkName(name);
    const id = `c-${randomUUID()}`;
    const connection: Connection = { id, name: name.trim(), target: { kind: 'local', project: id } };
    this.list = [...this.list, connection];
    await this.save();
    this.fire();
    return connection;
  }

  async rename(id: string, name: string): Promise<void> {
    const c = this.require(id);
    this.checkName(name, id);
    this.list = this.list.map((x) => (x.id === id ? { ...c, name: name.trim() } : x));
    await this.save();
    this.fire();
  }

  /** Removes a connection and its keys; returns the connection now active when it was the active one. */
  async remove(id: string): Promise<Connection | undefined> {
    this.require(id);
    if (this.list.length === 1) throw new ConnectionError('last', 'the last connection cannot be removed');
    const wasActive = this.activeId === id;
    this.list = this.list.filter((c) => c.id !== id);
    await this.save();
    await this.keys.delete('apiKey', id);
    await this.keys.delete('nluApiKey', id);
    if (wasActive) await this.persistActive(this.fallbackId());
    this.fire();
    return wasActive ? this.active : undefined;
  }

  /** Makes a connection active in this window and for the next windows. */
  async setActive(id: string): Promise<void> {
    this.require(id);
    await this.persistActive(id);
    this.fire();
  }

  /**
   * The deprecated `knowledgeDesk.region` setting, changed: its default connection becomes active (added
   * back if the user removed it).
   */
  async activateRegion(region: Region): Promise<void> {
    if (!this.get(region)) {
      const d = defaultConnection(region);
      const name = findByName(this.list, d.name) ? `${d.name} (${region})` : d.name;
      this.list = [...this.list, { ...d, name }];
      await this.save();
    }
    await this.setActive(region);
  }

  private checkName(name: string, exceptId?: string): void {
    const problem = nameProblem(this.list, name, exceptId);
    if (problem) throw new ConnectionError(problem, `connection name ${problem}: ${name}`);
  }

  private require(id: string): Connection {
    const c = this.get(id);
    if (!c) throw new ConnectionError('unknown', `no connection ${id}`);
    return c;
  }

  /** Local when it exists (it works offline), else the first one. */
  private fallbackId(): string {
    return (this.list.find((c) => c.id === 'local') ?? this.list[0]).id;
  }

  private async persistActive(id: string): Promise<void> {
    this.activeId = this.get(id) ? id : this.fallbackId();
    await this.state.update(ACTIVE_KEY, this.activeId);
  }

  private save(): Thenable<void> {
    return this.state.update(CONNECTIONS_KEY, serialize(this.list));
  }

  private fire(): void {
    for (const l of [...this.listeners]) l();
  }
}
