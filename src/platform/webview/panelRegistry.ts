// Open panels by key, kept apart from webviewPanel.ts so a feature's registrar can hold one at activation without
// loading the page protocols (and zod) that the panel host needs (test/unit/build/eagerModules.test.ts).
import type * as vscode from 'vscode';

/** Panels by key (e.g. one per Q&A id): reveal the open one or create it; keys may change (a new Q&A saved). */
export class PanelRegistry<T extends { reveal(): void; onDidDispose: vscode.Event<void>; dispose(): void }> {
  private readonly panels = new Map<string, T>();

  get(key: string): T | undefined {
    return this.panels.get(key);
  }

  keyOf(panel: T): string | undefined {
    for (const [key, p] of this.panels) if (p === panel) return key;
    return undefined;
  }

  values(): T[] {
    return [...this.panels.values()];
  }

  /** The open panel for `key`, revealed; otherwise a new one from `create`. */
  revealOrCreate(key: string, create: () => T): T {
    return this.reveal(key) ?? this.add(key, create());
  }

  /** The open panel for `key`, revealed, if there is one. */
  reveal(key: string): T | undefined {
    const open = this.panels.get(key);
    open?.reveal();
    return open;
  }

  add(key: string, panel: T): T {
    this.panels.set(key, panel);
    const sub = panel.onDidDispose(() => {
      sub.dispose();
      const current = this.keyOf(panel);
      if (current !== undefined) this.panels.delete(current);
    });
    return panel;
  }

  rekey(panel: T, key: string): void {
    const old = this.keyOf(panel);
    if (old !== undefined) this.panels.delete(old);
    this.panels.set(key, panel);
  }

  dispose(): void {
    for (const p of [...this.panels.values()]) p.dispose();
    this.panels.clear();
  }
}
