// A Memento in memory: a globalState or workspaceState with nothing stored yet (a first start).
import type * as vscode from 'vscode';

export class MemoryMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys() {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  async update(key: string, value: unknown) {
    this.values.set(key, value);
  }
}
