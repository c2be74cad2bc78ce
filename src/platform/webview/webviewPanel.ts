import * as vscode from 'vscode';
import type { z } from 'zod';
import { Disposable, DisposableStore, MutableDisposable } from '../lifecycle';
import type { Log } from '../logger';
import { pageStates, takeRestored } from './pageStates';
import type { PageProblem, PageProtocol, PageState } from './protocol';
import { WebviewChannel, type ChannelOptions } from './webviewChannel';
import { renderWebviewHtml, webviewOptions, type WebviewPage } from './webviewHtml';

export interface PanelSetup<P extends PageProtocol> {
  extensionUri: vscode.Uri;
  page: WebviewPage;
  protocol: P;
  log: Log;
  channel?: ChannelOptions;
  /** How the page is named in the log ("chat page: …"); default: the page's name. */
  label?: string;
  /** How long a visible page may take to say ready before the panel is replaced (default READY_WATCHDOG_MS). */
  readyTimeoutMs?: number;
  /** Pages that report what they drew (a `rendered` notification): the log line of a report, also fired as `onDidRender`. */
  rendered?: (report: RenderedOf<P>) => string;
}

/** What a page's `rendered` notification carries (never for pages without one). */
export type RenderedOf<P extends PageProtocol> = P['toHost']['notifications'] extends { rendered: infer S extends z.ZodTypeAny }
  ? z.output<S>
  : never;

const createdEmitter = new vscode.EventEmitter<WebviewPanelHost<PageProtocol, unknown>>();
/** A panel host was created (fired by the base constructor, before a subclass's own fields are set). */
export const onDidCreatePanelHost = createdEmitter.event;

/**
 * How long a visible panel waits for its page to say `ready` before it replaces the panel; each further
 * replacement waits twice as long, so a page that is only slow (a busy machine) is not restarted again and again.
 */
export const READY_WATCHDOG_MS = 15_000;
/** Replacements a host tries before it only logs (a page that never loads is a bug to report, not to loop on). */
const MAX_REPLACEMENTS = 2;

/**
 * One webview panel and its typed channel. Subclasses answer `onPageReady` (sent on every load of
 * the page) with the page's full state. Disposing the object closes the panel and the other way round.
 *
 * Without retained context a hidden page is destroyed and loads again when shown, so the channel holds
 * messages from "hidden" until the next `ready`. A visible page that never says ready is replaced by a
 * new panel in the same place: in the web workbench (code-server, VS Code for the Web) every webview's
 * frame registers the same service worker scope, and a frame whose registration was overtaken by
 * another webview's waits for a controller change that never comes, so its page never loads (seen when
 * editors are opened and closed over a loading page). Loading the same frame again does not help; a new
 * frame does. Nothing is lost: a page that never loaded holds no input, and the host sends the full state.
 */
export abstract class WebviewPanelHost<P extends PageProtocol, Sent = never> extends Disposable {
  readonly channel: WebviewChannel<P>;
  /** Inline handlers in untrusted HTML that the CSP refused while the page sanitized it (defence in depth at work). */
  blockedHandlers = 0;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  private readonly extensionUri: vscode.Uri;
  private readonly page: WebviewPage;
  private readonly log: Log;
  private readonly panelEvents = this._register(new MutableDisposable());
  private shown: vscode.WebviewPanel;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private replacements = 0;
  /** Fires when the panel was replaced by a new one (its page never loaded). */
  private readonly replacedEmitter = this._register(new vscode.EventEmitter<vscode.WebviewPanel>());
  readonly onDidReplacePanel = this.replacedEmitter.event;
  private readonly readyTimeoutMs: number;
  /** The page's state as it last sent it (given to a replacement panel's page, which has no state of its own). */
  private kept: PageState | undefined;
  private readonly renderedEmitter = this._register(new vscode.EventEmitter<RenderedOf<P>>());
  /** What the page reports it drew, for pages with a `rendered` notification (tests wait for it). */
  readonly onDidRender = this.renderedEmitter.event;
  private readonly problemEmitter = this._register(new vscode.EventEmitter<string>());
  /** The page reported a CSP violation or an uncaught error ("kind: message"). */
  readonly onDidReportProblem = this.problemEmitter.event;
  protected readonly sentEmitter = this._register(new vscode.EventEmitter<Sent>());
  /** A request the panel sent to the service, as the panel built it (panels that declare `Sent`). */
  readonly onDidSendRequest = this.sentEmitter.event;

  constructor(panel: vscode.WebviewPanel, setup: PanelSetup<P>) {
    super();
    this.extensionUri = setup.extensionUri;
    this.page = setup.page;
    this.log = setup.log;
    this.readyTimeoutMs = setup.readyTimeoutMs ?? READY_WATCHDOG_MS;
    this.shown = panel;
    this.channel = this._register(new WebviewChannel(panel.webview, setup.protocol, setup.log, setup.channel));
    this._register(
      this.channel.onDidBecomeReady(() => {
        this.disarm();
        void this.onPageReady();
      }),
    );
    this._register({ dispose: () => this.disarm() });
    const label = setup.label ?? `${setup.page.name} page`;
    // Every page protocol has the shared notifications (withPageNotifications); the cast only names them.
    const shared = this.channel as unknown as WebviewChannel<PageProtocol>;
    shared.onNotification('pageProblem', (p: PageProblem) => this.onPageProblem(label, p));
    shared.onNotification('pageState', (p: PageState) => {
      this.kept = p;
      void pageStates()?.keep(this.shown.viewType, p);
    });
    const describe = setup.rendered;
    if (describe)
      shared.onNotification('rendered', (r: RenderedOf<P>) => {
        this.log.debug(describe(r));
        this.renderedEmitter.fire(r);
      });
    this.adopt(panel);
    createdEmitter.fire(this as WebviewPanelHost<PageProtocol, unknown>);
  }

  /** The VS Code panel shown now (a new one after a replacement). */
  get panel(): vscode.WebviewPanel {
    return this.shown;
  }

  private onPageProblem(label: string, p: PageProblem): void {
    if (p.kind === 'blocked') {
      this.blockedHandlers++;
      return this.log.debug(`${label}: the CSP refused an inline event handler while untrusted HTML was sanitized: ${p.message}`);
    }
    this.log.warn(`${label}: ${p.kind}: ${p.message}`);
    this.problemEmitter.fire(`${p.kind}: ${p.message}`);
  }

  /** Takes `panel` as this host's panel: its events, options and page. */
  private adopt(panel: vscode.WebviewPanel): void {
    this.shown = panel;
    const events = new DisposableStore();
    events.add(panel.onDidDispose(() => this.dispose()));
    events.add(
      panel.onDidChangeViewState((e) => {
        if (!e.webviewPanel.visible) {
          this.channel.pause();
          this.disarm();
        } else if (!this.channel.isReady) {
          this.arm();
        }
      }),
    );
    this.panelEvents.value = events;
    panel.webview.options = webviewOptions(this.extensionUri, this.page.extraRoots);
    this.kept ??= takeRestored(panel);
    const page = this.kept ? { ...this.page, data: { ...this.page.data, kdState: JSON.stringify(this.kept) } } : this.page;
    panel.webview.html = renderWebviewHtml(panel.webview, this.extensionUri, page);
    if (panel.visible) this.arm();
  }

  private arm(): void {
    this.disarm();
    this.watchdog = setTimeout(() => this.onPageLate(), this.readyTimeoutMs * 2 ** this.replacements);
  }

  private disarm(): void {
    if (this.watchdog !== undefined) clearTimeout(this.watchdog);
    this.watchdog = undefined;
  }

  private onPageLate(): void {
    this.watchdog = undefined;
    const old = this.shown;
    if (this.isDisposed || this.channel.isReady || !old.visible) return;
    const retry = this.replacements < MAX_REPLACEMENTS;
    this.log.warn(
      `${this.page.name}: the page did not say ready within ${(this.readyTimeoutMs * 2 ** this.replacements) / 1000} s (${this.describe()}); ${retry ? 'opening it in a new panel' : 'giving up'}`,
    );
    if (!retry) return;
    this.replacements++;
    const replacement = vscode.window.createWebviewPanel(
      old.viewType,
      old.title,
      { viewColumn: old.viewColumn ?? vscode.ViewColumn.Active, preserveFocus: !old.active },
      { ...webviewOptions(this.extensionUri, this.page.extraRoots), enableFindWidget: old.options.enableFindWidget },
    );
    replacement.iconPath = old.iconPath;
    this.channel.attach(replacement.webview);
    this.adopt(replacement);
    old.dispose();
    this.replacedEmitter.fire(replacement);
  }

  /** Sends the page everything it shows; called each time the page loads. */
  protected abstract onPageReady(): void | Promise<void>;

  /** The panel's view state and the channel's record, for logs and for waits that time out. */
  describe(): string {
    const p = this.panel;
    if (this.isDisposed) return 'disposed';
    const watchdog = this.watchdog === undefined ? 'off' : 'armed';
    return `visible=${p.visible}, active=${p.active}, column=${p.viewColumn}, watchdog=${watchdog}, replacements=${this.replacements}, ${this.channel.describe()}`;
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  override dispose(): void {
    if (this.isDisposed) return;
    super.dispose();
    this.shown.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
}
