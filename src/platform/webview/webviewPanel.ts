import * as vscode from 'vscode';
import type { z } from 'zod';
import { Disposable } from '../lifecycle';
import type { Log } from '../logger';
import type { Protocol } from './protocol';
import { WebviewChannel, type ChannelOptions } from './webviewChannel';
import { renderWebviewHtml, webviewOptions, type WebviewPage } from './webviewHtml';
import { noteUse } from '../usage';

export interface PanelSetup<P extends Protocol> {
  extensionUri: vscode.Uri;
  page: WebviewPage;
  protocol: P;
  log: Log;
  channel?: ChannelOptions;
}

/** A new panel with this project's options (scripts on, resource roots limited, no retained context). */
export function createPanel(
  viewType: string,
  title: string,
  extensionUri: vscode.Uri,
  column: vscode.ViewColumn = vscode.ViewColumn.Active,
): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(
    viewType,
    title,
    { viewColumn: column, preserveFocus: false },
    { ...webviewOptions(extensionUri), enableFindWidget: true },
  );
}

/**
 * One webview panel and its typed channel. Subclasses answer `onPageReady` (sent on every load of
 * the page) with the page's full state. Disposing the object closes the panel and the other way round.
 */
export abstract class WebviewPanelHost<P extends Protocol> extends Disposable {
  readonly channel: WebviewChannel<P>;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    setup: PanelSetup<P>,
  ) {
    super();
    panel.webview.options = webviewOptions(setup.extensionUri);
    this.channel = this._register(new WebviewChannel(panel.webview, setup.protocol, setup.log, setup.channel));
    this._register(this.channel.onDidBecomeReady(() => void this.onPageReady()));
    this._register(panel.onDidDispose(() => this.dispose()));
    this._register(panel.onDidChangeViewState((e) => !e.webviewPanel.visible && this.channel.pause()));
    panel.webview.html = renderWebviewHtml(panel.webview, setup.extensionUri, setup.page);
  }

  /** Sends the page everything it shows; called each time the page loads. */
  protected abstract onPageReady(): void | Promise<void>;

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  override dispose(): void {
    if (this.isDisposed) return;
    super.dispose();
    this.panel.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
}

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
    const open = this.panels.get(key);
    if (open) {
      open.reveal();
      return open;
    }
    return this.add(key, create());
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

/**
 * Restores panels after a restart from the state the page saved with setState (validated: a state
 * that does not parse restores a default panel rather than failing).
 */
export function registerPanelSerializer<S extends z.ZodTypeAny>(
  viewType: string,
  /** The schema, or a function returning it (so that the panel's protocol loads on the first restore). */
  stateSchema: S | (() => S),
  log: Log,
  restore: (panel: vscode.WebviewPanel, state: z.output<S> | undefined) => void | Promise<void>,
): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(viewType, {
    async deserializeWebviewPanel(panel: vscode.WebviewPanel, raw: unknown) {
      noteUse(`restored ${viewType}`);
      const schema: S = typeof stateSchema === 'function' ? (stateSchema as () => S)() : stateSchema;
      const parsed = schema.safeParse(raw);
      if (!parsed.success && raw !== undefined && raw !== null)
        log.warn(`${viewType}: saved state ignored (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      await restore(panel, parsed.success ? parsed.data : undefined);
    },
  });
}
