import * as vscode from 'vscode';
import { REGIONS, type Region } from '../core/regions';
import { Disposable } from './lifecycle';

/** What is stored per region: the service key, and the entity-recognition key (its own service). */
export type SecretKind = 'apiKey' | 'nluApiKey';
export type SecretId = `knowledgeDesk.${SecretKind}.${Region}`;

export function secretId(kind: SecretKind, region: Region): SecretId {
  return `knowledgeDesk.${kind}.${region}`;
}

function parse(id: string): { kind: SecretKind; region: Region } | undefined {
  const m = /^knowledgeDesk\.(apiKey|nluApiKey)\.(\w+)$/.exec(id);
  if (!m || !(REGIONS as readonly string[]).includes(m[2])) return undefined;
  return { kind: m[1] as SecretKind, region: m[2] as Region };
}

/** Keys live only here (VS Code SecretStorage): never in settings, logs, messages or webviews. */
export class Secrets extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<{ kind: SecretKind; region: Region }>());
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

  async get(kind: SecretKind, region: Region): Promise<string | undefined> {
    return (await this.storage.get(secretId(kind, region))) || undefined;
  }

  store(kind: SecretKind, region: Region, value: string): Thenable<void> {
    return this.storage.store(secretId(kind, region), value);
  }

  delete(kind: SecretKind, region: Region): Thenable<void> {
    return this.storage.delete(secretId(kind, region));
  }
}
