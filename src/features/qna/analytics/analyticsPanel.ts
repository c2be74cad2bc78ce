import * as vscode from 'vscode';
import type { Container } from '../../../container';
import { PinnedClients } from '../../../platform/connection/pinnedClients';
import { Disposable } from '../../../platform/lifecycle';
import { describeForPage, hostSetup, reportError, type PanelBasics, titleWithConnection } from '../../../platform/webview/panelErrors';
import { createPanel } from '../../../platform/webview/panelRegistration';
import { PanelRegistry } from '../../../platform/webview/panelRegistry';
import { WebviewPanelHost } from '../../../platform/webview/webviewPanel';
import {
  answerFeedbackClient,
  defaultQuery,
  loadAnalytics,
  localDate,
  SECTIONS,
  type AnalyticsClient,
  type AnswerFeedbackClient,
} from './analyticsData';
import { analyticsStrings } from './analyticsStrings';
import type { PanelConnection } from '../../../platform/webview/protocol';
import {
  ANALYTICS_VIEW_TYPE,
  analyticsProtocol,
  type AnalyticsData,
  type AnalyticsProtocol,
  type AnalyticsQuery,
  type AnalyticsState,
} from './protocol';

interface AnalyticsContext extends PanelBasics {
  clients(): Promise<{ faq: AnalyticsClient; answers: AnswerFeedbackClient }>;
  /** Its connection, sent to the page to keep for a restart. */
  connection(): PanelConnection;
}

/** The Q&A analytics panel: daily searches, top Q&As, search history, Q&A and answer feedback. */
export class AnalyticsPanel extends WebviewPanelHost<AnalyticsProtocol> {
  private readonly loadedEmitter = this._register(new vscode.EventEmitter<AnalyticsData>());
  /** What the panel loaded from the service and showed. */
  readonly onDidLoad = this.loadedEmitter.event;

  constructor(
    panel: vscode.WebviewPanel,
    private readonly ctx: AnalyticsContext,
  ) {
    super(panel, {
      ...hostSetup(ctx),
      page: {
        name: 'analytics',
        title: vscode.l10n.t('Q&A Analytics'),
        styles: ['analytics.css'],
        images: 'none',
        strings: analyticsStrings(),
      },
      protocol: analyticsProtocol,
      rendered: (r) => `analytics drawn: ${JSON.stringify(r)}`,
    });
    this.channel.handle('load', ({ query }) => this.load(query));
    this.updateTitle();
  }

  /** Which connection it shows, once there is more than one of the user's; also after a rename or removal. */
  updateTitle(): void {
    if (this.isDisposed) return;
    this.panel.title = titleWithConnection(vscode.l10n.t('Q&A Analytics'), this.ctx);
  }

  /** Asks the page to load again with its current range (it owns the query). */
  refresh(): void {
    this.channel.notify('refresh', {});
  }

  protected onPageReady(): void {
    this.channel.notify('init', { defaultQuery: defaultQuery(), today: localDate(new Date()), connection: this.ctx.connection() });
  }

  private async load(query: AnalyticsQuery): Promise<AnalyticsData> {
    const started = Date.now();
    const { faq, answers } = await this.ctx.clients().catch((error: unknown) => {
      reportError(this.ctx.errors, 'Q&A analytics', error);
      throw error;
    });
    const { data, failures } = await loadAnalytics(faq, query, (e) => describeForPage(e).message, new Date(), answers);
    for (const f of failures)
      this.ctx.log.warn(`analytics: ${f.section} failed: ${f.error instanceof Error ? f.error.message : String(f.error)}`);
    // Everything failed: the service is down or the key is wrong. Say so once, the usual way.
    if (failures.length === (data.answerFeedback.offered ? SECTIONS : SECTIONS - 1)) {
      reportError(this.ctx.errors, 'Q&A analytics', failures[0].error);
      throw failures[0].error;
    }
    this.ctx.log.info(`analytics ${query.startDate}..${query.endDate} top ${query.topN}: loaded in ${Date.now() - started} ms`);
    this.loadedEmitter.fire(data);
    return data;
  }
}

/**
 * One analytics panel per connection: shown, revealed, or restored after a restart. A panel keeps showing the
 * connection it was opened with after a switch (issue 27); Show Analytics then opens one for the active connection.
 */
export class AnalyticsPanels extends Disposable {
  private readonly panels = new PanelRegistry<AnalyticsPanel>();
  private readonly basics: PanelBasics;
  private readonly pinned: PinnedClients;

  constructor(private readonly c: Container) {
    super();
    this.basics = c.panelBasics('analytics');
    this.pinned = new PinnedClients(c.connection, c.secrets, c.logger);
    this._register(this.panels);
    // A switch, a rename, or the removal of a panel's connection: its title says so.
    const changed = c.connection.store.onDidChange(() => this.panels.values().forEach((p) => p.updateTitle()));
    this._register({ dispose: () => changed.dispose() });
  }

  /** Every open panel, one per connection. */
  get all(): AnalyticsPanel[] {
    return this.panels.values();
  }

  /** The active connection's panel, if open. */
  get current(): AnalyticsPanel | undefined {
    return this.panels.get(this.c.connection.active.id);
  }

  show(): AnalyticsPanel {
    const open = this.panels.reveal(this.c.connection.active.id);
    open?.refresh();
    return open ?? this.adopt(createPanel(ANALYTICS_VIEW_TYPE, vscode.l10n.t('Q&A Analytics'), this.basics.extensionUri));
  }

  /**
   * Serializer: the page keeps its query and its connection in its own state; the panel comes back on that
   * connection (issue 27), even one removed since (its title says so). State from before: the active connection.
   */
  restore(panel: vscode.WebviewPanel, state?: AnalyticsState): void {
    if (this.panels.get(state?.connection?.id ?? this.c.connection.active.id)) {
      panel.dispose();
      return;
    }
    this.adopt(panel, state?.connection);
  }

  private adopt(panel: vscode.WebviewPanel, to?: PanelConnection): AnalyticsPanel {
    const pin = this.pinned.panel(this.basics.connectionLabel, to);
    const p = new AnalyticsPanel(panel, {
      ...this.basics,
      connectionLabel: pin.connectionLabel,
      connection: () => ({ id: pin.id, name: pin.name().slice(0, 80) }),
      clients: async () => {
        const client = await pin.client();
        return { faq: client.faq, answers: answerFeedbackClient(client) };
      },
    });
    return this.panels.add(pin.id, p);
  }
}
