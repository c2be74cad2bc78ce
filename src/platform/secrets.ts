import * as vscode from 'vscode';
import { Disposable } from './lifecycle';

/** What is stored per connection: the service key, and the entity-recognition key (its own service). */
export type SecretKind = 'apiKey' | 'nluApiKey';
/**
 * Whose key: a connection's id. The default connections have their region's id (`us`, `ja`, `custom`,
 * `local`), so the keys stored per region before connections existed are theirs, unmoved.
 */
export type SecretOwner = string;
export type SecretId = `knowledgeDesk.${SecretKind}.${SecretOwner}`;

export function secretId(kind: SecretKind, owner: SecretOwner): SecretId {
  return `knowledgeDesk.${kind}.${owner}`;
}

function parse(id: string): { kind: SecretKind; owner: SecretOwner } | undefined {
  const m = /^knowledgeDesk\.(apiKey|nluApiKey)\.([\w-]+)$/.exec(id);
  return m ? { kind: m[1] as SecretKind, owner: m[2] } : undefined;
}

/** Keys live only here (VS Code SecretStorage): never in settings, logs, messages or webviews. */
export class Secrets extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<{ kind: SecretKind; owner: SecretOwner }>());
  readonly onDidChange = this.emitter.event;

  constructor(private readonly storage: vscode.SecretStorage) {
    super();
    this._register(
      storage.onDidChange((e) => {
        const id = parse(e.key);
        if (id) this.emitter.fire(id);
      }),
    );
  }

  async get(kind: SecretKind, owner: SecretOwner): Promise<string | undefined> {
    return (await this.storage.get(secretId(kind, owner))) || undefined;
  }

  store(kind: SecretKind, owner: SecretOwner, value: string): Thenable<void> {
    return this.storage.store(secretId(kind, owner), value);
  }

  delete(kind: SecretKind, owner: SecretOwner): Thenable<void> {
    return this.storage.delete(secretId(kind, owner));
  }
}
