import * as vscode from 'vscode';
import type { Container } from '../../../container';
import { Disposable } from '../../../platform/lifecycle';
import { describeForPage, hostSetup, reportError, type PanelBasics, titleWithConnection } from '../../../platform/webview/panelErrors';
import { createPanel, WebviewPanelHost } from '../../../platform/webview/webviewPanel';
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
import { ANALYTICS_VIEW_TYPE, analyticsProtocol, type AnalyticsData, type AnalyticsProtocol, type AnalyticsQuery } from './protocol';

interface AnalyticsContext extends PanelBasics {
  clients(): Promise<{ faq: AnalyticsClient; answers: AnswerFeedbackClient }>;
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
    // Which connection it shows, once there is more than one of the user's.
    panel.title = titleWithConnection(panel.title, ctx);
  }

  /** Asks the page to load again with its current range (it owns the query). */
  refresh(): void {
    this.channel.notify('refresh', {});
  }

  protected onPageReady(): void {
    this.channel.notify('init', { defaultQuery: defaultQuery(), today: localDate(new Date()) });
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

/** The one analytics panel: shown, revealed, or restored after a restart. */
export class AnalyticsPanels extends Disposable {
  private panel: AnalyticsPanel | undefined;
  private readonly ctx: AnalyticsContext;

  constructor(c: Container) {
    super();
    this.ctx = {
      ...c.panelBasics('analytics'),
      clients: async () => {
        const client = await c.connection.getClient();
        return { faq: client.faq, answers: answerFeedbackClient(client) };
      },
    };
    this._register({ dispose: () => this.panel?.dispose() });
  }

  get current(): AnalyticsPanel | undefined {
    return this.panel;
  }

  show(): AnalyticsPanel {
    if (this.panel) {
      this.panel.reveal();
      this.panel.refresh();
      return this.panel;
    }
    return this.adopt(createPanel(ANALYTICS_VIEW_TYPE, vscode.l10n.t('Q&A Analytics'), this.ctx.extensionUri));
  }

  /** Serializer: the page keeps its query in its own state; the host only needs a panel. */
  restore(panel: vscode.WebviewPanel): void {
    if (this.panel) {
      panel.dispose();
      return;
    }
    this.adopt(panel);
  }

  private adopt(panel: vscode.WebviewPanel): AnalyticsPanel {
    const p = new AnalyticsPanel(panel, this.ctx);
    this.panel = p;
    p.onDidDispose(() => this.panel === p && (this.panel = undefined));
    return p;
  }
}
