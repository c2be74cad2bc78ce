import * as vscode from 'vscode';
import { Disposable } from '../../../platform/lifecycle';
import { hostSetup, reportError, titleWithConnection, type PanelBasics } from '../../../platform/webview/panelErrors';
import type { WebviewPage } from '../../../platform/webview/webviewHtml';
import { createPanel } from '../../../platform/webview/panelRegistration';
import { PanelRegistry } from '../../../platform/webview/panelRegistry';
import { WebviewPanelHost } from '../../../platform/webview/webviewPanel';
import { documentKey } from './citationArgs';
import { citationStrings } from './citationStrings';
import type { DocumentSource, ResolveExtras } from './documentSource';
import { PDF_CSP_DIRECTIVES, PDF_EXTRA_ROOTS } from './pdfWebview';
import {
  CITATION_VIEW_TYPE,
  citationProtocol,
  type CitationProtocol,
  type CitationState,
  type CitationTarget,
  type DocumentView,
} from './protocol';

export interface CitationContext extends PanelBasics {
  source: DocumentSource;
  /** Its connection (id, and name now or last known), sent to the page to keep for a restart. */
  connection(): { id: string; name: string };
}

/**
 * What the viewers share; each viewer is pinned to the connection active when it opened, or to the one its caller
 * names (a chat pinned to another connection, issue 27).
 */
export interface CitationsContext extends PanelBasics {
  pin(to?: { id: string; name?: string }): {
    id: string;
    name(): string;
    connectionLabel(): string | undefined;
    source: DocumentSource;
  };
  activeConnectionId(): string;
}

/** The page: the bundle, its styles, and where pdfjs finds its character maps and standard fonts. */
function citationPage(webview: vscode.Webview, extensionUri: vscode.Uri): WebviewPage {
  const dir = (name: string): string => `${webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'pdfjs', name)).toString()}/`;
  return {
    name: 'citation',
    title: vscode.l10n.t('Citation'),
    strings: citationStrings(),
    styles: ['citation.css'],
    images: 'none',
    data: { cmapUrl: dir('cmaps'), standardFontUrl: dir('standard_fonts') },
    // pdfjs reads its character maps and standard fonts from dist/pdfjs with fetch().
    extraRoots: PDF_EXTRA_ROOTS,
    extraCsp: PDF_CSP_DIRECTIVES,
  };
}

/** One document viewer: a cited page of a PDF with the passage highlighted, a text document, or the fallback. */
export class CitationPanel extends WebviewPanelHost<CitationProtocol> {
  private readonly retargetEmitter = this._register(new vscode.EventEmitter<void>());
  /** Another citation is to be shown: what the page drew so far is of the previous one. */
  readonly onDidRetarget = this.retargetEmitter.event;
  private view: DocumentView;
  private generation = 0;
  /** A citation was clicked and the page has not been sent its view yet: that show resets the page to the cited place. */
  private clicked: boolean;

  constructor(
    panel: vscode.WebviewPanel,
    private readonly ctx: CitationContext,
    private target: CitationTarget,
    private extras: ResolveExtras = {},
    /** Reopened by the serializer after a restart: the page keeps the place it saved. */
    restored = false,
  ) {
    super(panel, {
      ...hostSetup(ctx),
      page: citationPage(panel.webview, ctx.extensionUri),
      protocol: citationProtocol,
      rendered: (r) =>
        `citation drawn: ${r.view} page ${r.pageNo ?? '-'} of ${r.pageCount ?? '-'}, ${r.rects.length} ${r.rects.length === 1 ? 'highlight' : 'highlights'} (${r.highlightSource})`,
    });
    this.view = { kind: 'loading', title: target.title ?? vscode.l10n.t('Citation') };
    this.clicked = !restored;
    this.channel.handle('reload', async () => {
      await this.load();
      return { reloaded: this.view.kind !== 'error' };
    });
    this._register(
      this.onDidRender((r) => {
        if (r.fontProblems.length) ctx.log.warn(`citation page: pdfjs reported font problems: ${r.fontProblems.join(' | ')}`);
      }),
    );
    this.updateTitle();
    void this.load();
  }

  get current(): { target: CitationTarget; view: DocumentView } {
    return { target: this.target, view: this.view };
  }

  /** Shows another citation of the same document (or the same one again: back at its cited page). */
  retarget(target: CitationTarget, extras: ResolveExtras = {}): void {
    this.clicked = true;
    if (JSON.stringify(target) === JSON.stringify(this.target) && this.view.kind !== 'error') {
      // Nothing to resolve again; a page showing it is sent it once more, to go back to the cited page.
      if (this.view.kind !== 'loading' && this.channel.isReady) this.sendShow();
      return;
    }
    this.target = target;
    this.extras = extras;
    this.retargetEmitter.fire();
    void this.load();
  }

  /** Resolves the target again and sends it to the page. */
  load(): Promise<void> {
    const generation = ++this.generation;
    this.set({ kind: 'loading', title: this.target.title ?? vscode.l10n.t('Citation') });
    return (async () => {
      let view: DocumentView;
      try {
        view = await this.ctx.source.resolve(this.target, this.extras);
      } catch (error) {
        const shown = reportError(this.ctx.errors, 'Open citation', error);
        view = {
          kind: 'error',
          title: this.target.title ?? vscode.l10n.t('Citation'),
          message: shown?.message ?? vscode.l10n.t('Cancelled.'),
        };
      }
      if (generation === this.generation && !this.isDisposed) this.set(view);
    })();
  }

  protected onPageReady(): void {
    this.sendShow();
  }

  private set(view: DocumentView): void {
    this.view = view;
    this.updateTitle();
    // Not queued while the page is away: on its next `ready` it gets the current view (bytes once).
    if (this.channel.isReady) this.sendShow();
  }

  private sendShow(): void {
    const reset = this.clicked && this.view.kind !== 'loading';
    this.channel.notify('show', { target: this.target, view: this.view, reset, connection: this.ctx.connection() });
    if (reset) this.clicked = false;
  }

  /** Also when its connection was switched away from, renamed or removed (answersViewers.ts). */
  updateTitle(): void {
    if (this.isDisposed) return;
    const v = this.view;
    const page = v.kind === 'pdf' || v.kind === 'text' || v.kind === 'fallback' ? v.pageNo : this.target.pageNo;
    // {0}: the document's title, {1}: the cited page.
    this.panel.title = titleWithConnection(ellipsis(page ? vscode.l10n.t('{0} · p. {1}', v.title, page) : v.title, 60), this.ctx);
  }
}

/** The citation viewers: one per document, revealed and moved to the new passage when opened again. */
export class CitationPanels extends Disposable {
  private readonly registry = new PanelRegistry<CitationPanel>();
  /** The viewer opened or retargeted last (tests, and "the current citation"). */
  last: CitationPanel | undefined;

  constructor(private readonly ctx: CitationsContext) {
    super();
    this._register({ dispose: () => this.registry.dispose() });
  }

  get panels(): CitationPanel[] {
    return this.registry.values();
  }

  /** Registry keys: a document id is one project's, so the same document on two connections is two viewers. */
  private keyOf(connectionId: string, target: CitationTarget): string {
    return `${connectionId}/${documentKey(target)}`;
  }

  /** A viewer's own context: its connection, its source and the name its title shows. */
  private pinned(to: { id: string; name?: string }): CitationContext {
    const { id, name, connectionLabel, source } = this.ctx.pin(to);
    return { ...this.ctx, connectionLabel, source, connection: () => ({ id, name: name().slice(0, 80) }) };
  }

  /** Opens `target` on `connectionId` (a pinned caller's), else on the active connection. */
  open(target: CitationTarget, extras: ResolveExtras = {}, connectionId = this.ctx.activeConnectionId()): CitationPanel {
    const key = this.keyOf(connectionId, target);
    const open = this.registry.get(key);
    const active = vscode.window.tabGroups.activeTabGroup.viewColumn;
    if (open) {
      // Revealed where it is, unless it shares the group of the panel the citation was clicked in (a chat,
      // the Retrieval panel): that one must stay visible, so the viewer moves next to it.
      const hidesCaller = open.panel.viewColumn === active && !open.panel.active;
      open.panel.reveal(hidesCaller ? this.viewerColumn(active) : open.panel.viewColumn, false);
      open.retarget(target, extras);
      return (this.last = open);
    }
    const panel = createPanel(
      CITATION_VIEW_TYPE,
      target.title ?? vscode.l10n.t('Citation'),
      this.ctx.extensionUri,
      this.viewerColumn(active),
    );
    return (this.last = this.registry.add(key, new CitationPanel(panel, this.pinned({ id: connectionId }), target, extras)));
  }

  /** Where viewers go: the group other viewers are in (not the caller's), else beside the caller. */
  private viewerColumn(active: vscode.ViewColumn): vscode.ViewColumn {
    const other = this.registry
      .values()
      .map((p) => p.panel.viewColumn)
      .find((c) => c !== undefined && c !== active);
    return other ?? vscode.ViewColumn.Beside;
  }

  /** Serializer: reopen what the page saved (without a preview link: it was never saved). */
  restore(panel: vscode.WebviewPanel, state: CitationState | undefined): void {
    if (!state) {
      panel.dispose();
      return;
    }
    // On the connection the page kept (state from before connections: the active one), even if removed since.
    const to = state.connection ?? { id: this.ctx.activeConnectionId() };
    const key = this.keyOf(to.id, state.target);
    if (this.registry.get(key)) {
      panel.dispose();
      this.registry.get(key)!.reveal();
      return;
    }
    this.registry.add(key, new CitationPanel(panel, this.pinned(to), state.target, {}, true));
  }
}

function ellipsis(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
