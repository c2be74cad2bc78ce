// The analytics page: range and top-N controls, figures, two charts (each with its table), the search history,
// and the feedback on Q&As and on generated answers. Every text comes from the host (AnalyticsStrings).
import {
  analyticsQuerySchema,
  analyticsStateSchema,
  TOP_N_VALUES,
  type AnalyticsData,
  type AnalyticsProtocol,
  type AnalyticsQuery,
} from '../../features/qna/analytics/protocol';
import type { AnalyticsStrings } from '../../features/qna/analytics/analyticsStrings';
import { createH, type H } from '../shared/dom';
import { icon } from '../shared/icons';
import type { Messenger } from '../shared/messenger';
import { format, formatNumber, pageStrings } from '../shared/strings';
import { answerFeedbackPart, dailyTable, feedbackTable, formatDay, formatTime, searchTable, summary, topTable } from './tables';
import { card, pageHeader } from '../shared/widgets';
import type { PanelConnection } from '../../platform/webview/protocol';

/** Draws the charts; injected so the page logic can be tested where there is no canvas. */
export interface ChartDrawer {
  draw(data: AnalyticsData): { dailyPoints: number; topBars: number };
  retheme(): void;
}

export class AnalyticsView {
  private readonly h: H;
  /** The panel's connection as the host names it, kept in the page state for a restart. */
  private connection: PanelConnection | undefined;
  readonly s: AnalyticsStrings;
  readonly root: HTMLElement;
  readonly dailyCanvas: HTMLCanvasElement;
  readonly topCanvas: HTMLCanvasElement;
  readonly topBox: HTMLElement;
  private readonly startInput: HTMLInputElement;
  private readonly endInput: HTMLInputElement;
  private readonly topN: HTMLSelectElement;
  private readonly refreshButton: HTMLButtonElement;
  private readonly subtitle: HTMLElement;
  private readonly error: HTMLElement;
  private readonly progress: HTMLElement;
  private readonly figures: HTMLElement;
  private readonly topEmpty: HTMLElement;
  private readonly topDetails: HTMLElement;
  private readonly dailyDetails: HTMLElement;
  private readonly answerFeedback: HTMLElement;
  private readonly dailyProblem: HTMLElement;
  private readonly searches: HTMLElement;
  private readonly feedback: HTMLElement;
  private query: AnalyticsQuery | undefined;
  private loading = 0;
  charts: ChartDrawer | undefined;
  private shown: AnalyticsData | undefined;

  constructor(
    doc: Document,
    private readonly messenger: Messenger<AnalyticsProtocol>,
  ) {
    const h = (this.h = createH(doc));
    const s = (this.s = pageStrings<AnalyticsStrings>(doc));
    const onChange = (): void => void this.reload();
    this.startInput = h('input', { class: 'kd-input', attrs: { id: 'an-start', type: 'date', required: true }, on: { change: onChange } });
    this.endInput = h('input', { class: 'kd-input', attrs: { id: 'an-end', type: 'date', required: true }, on: { change: onChange } });
    this.topN = h(
      'select',
      { class: 'kd-input kd-select', attrs: { id: 'an-top' }, on: { change: onChange } },
      ...TOP_N_VALUES.map((n) => h('option', { attrs: { value: n } }, format(s.topN, formatNumber(n, undefined, doc)))),
    );
    this.refreshButton = h(
      'button',
      { class: 'kd-button kd-secondary', attrs: { type: 'button', title: s.refreshTitle }, on: { click: onChange } },
      icon(doc, 'refresh'),
      s.refresh,
    );
    this.subtitle = h('div', { class: 'kd-meta' });
    this.error = h('div', { class: 'kd-banner kd-banner-error', attrs: { role: 'alert', hidden: true } });
    this.progress = h('div', { class: 'kd-progress', attrs: { hidden: true, role: 'progressbar', 'aria-label': s.loading } });
    this.figures = h('div', { class: 'kd-figures' });
    this.dailyCanvas = h('canvas', { attrs: { role: 'img', 'aria-label': s.dailyChart } });
    this.topCanvas = h('canvas', { attrs: { role: 'img', 'aria-label': s.topChart } });
    this.topBox = h('div', { class: 'kd-chart-box' }, this.topCanvas);
    this.topEmpty = h('p', { class: 'kd-empty', attrs: { hidden: true } }, s.topEmpty);
    this.topDetails = h('div', { class: 'kd-table-wrap' });
    this.dailyDetails = h('div', { class: 'kd-table-wrap' });
    this.answerFeedback = h('div', { class: 'kd-table-wrap an-answer-feedback' });
    this.dailyProblem = h('div');
    this.searches = h('div', { class: 'kd-table-wrap' });
    this.feedback = h('div', { class: 'kd-table-wrap' });
    const field = (id: string, label: string, control: HTMLElement): HTMLElement =>
      h('div', { class: 'kd-inline-field' }, h('label', { class: 'kd-label', attrs: { for: id } }, label), control);
    this.root = h(
      'div',
      { class: 'kd-page' },
      this.progress,
      pageHeader(
        h,
        [icon(doc, 'graph'), h('h1', { class: 'kd-title' }, s.title)],
        this.subtitle,
        h(
          'div',
          { class: 'kd-controls', attrs: { role: 'group', 'aria-label': s.range } },
          field('an-start', s.from, this.startInput),
          field('an-end', s.to, this.endInput),
          field('an-top', s.show, this.topN),
          this.refreshButton,
        ),
      ),
      this.error,
      this.figures,
      h(
        'div',
        { class: 'kd-chart-grid' },
        card(
          h,
          'an-daily-title',
          s.dailyTitle,
          this.dailyProblem,
          h('div', { class: 'kd-chart-box kd-chart-daily' }, this.dailyCanvas),
          h('details', { class: 'kd-details', attrs: { 'data-chart': 'daily' } }, h('summary', null, s.asTable), this.dailyDetails),
        ),
        card(
          h,
          'an-top-title',
          s.topTitle,
          this.topBox,
          this.topEmpty,
          h('details', { class: 'kd-details', attrs: { 'data-chart': 'top' } }, h('summary', null, s.asTable), this.topDetails),
        ),
      ),
      card(h, 'an-search-title', s.searchesTitle, this.searches),
      h(
        'div',
        { class: 'an-feedback-grid' },
        card(h, 'an-feedback-title', s.qaFeedbackTitle, this.feedback),
        card(h, 'an-answer-feedback-title', s.answerFeedbackTitle, this.answerFeedback),
      ),
    );
  }

  start(app: HTMLElement): void {
    app.replaceChildren(this.root);
    app.removeAttribute('aria-busy');
    const m = this.messenger;
    m.on('init', ({ defaultQuery, today, connection }) => {
      this.connection = connection;
      this.startInput.max = this.endInput.max = today;
      this.setQuery(m.getState(analyticsStateSchema)?.query ?? defaultQuery);
      void this.reload();
    });
    m.on('refresh', () => void this.reload());
    // Only the test build answers the tests' requests (src/testBuild.d.ts): esbuild drops this block elsewhere.
    if (globalThis.__KD_TEST__) {
      m.handle('drive', async ({ query, reveal }) => {
        this.setQuery({ ...(this.readQuery() as AnalyticsQuery), ...query });
        await this.reload();
        if (reveal === 'answerFeedback') this.answerFeedback.closest('section')?.scrollIntoView({ block: 'start' });
        return { query: this.query! };
      });
    }
    m.start();
  }

  /** Reads the controls, checks them, saves them as state and loads. */
  async reload(): Promise<void> {
    const parsed = analyticsQuerySchema.safeParse(this.readQuery());
    if (!parsed.success)
      return this.showError(parsed.error.issues.every((i) => i.code === 'custom') ? this.s.startAfterEnd : this.s.chooseDates);
    this.query = parsed.data;
    this.messenger.setState(analyticsStateSchema, { query: parsed.data, ...(this.connection ? { connection: this.connection } : {}) });
    this.loading++;
    this.progress.hidden = false;
    this.refreshButton.disabled = true;
    this.root.setAttribute('aria-busy', 'true');
    try {
      const data = await this.messenger.request('load', { query: parsed.data });
      this.showError(null);
      this.render(data);
    } catch (error) {
      this.showError((error as Error).message || String(error));
    } finally {
      this.loading--;
      this.progress.hidden = this.loading === 0;
      this.refreshButton.disabled = this.loading > 0;
      this.root.setAttribute('aria-busy', String(this.loading > 0));
    }
  }

  /** The theme changed: the charts are drawn again with its colours, and the host hears of it like any drawing. */
  retheme(): void {
    if (this.shown) this.render(this.shown);
  }

  render(data: AnalyticsData): void {
    this.shown = data;
    const q = data.query;
    const s = this.s;
    const doc = this.root.ownerDocument;
    this.subtitle.textContent = format(
      s.subtitle,
      formatDay(q.startDate, false, doc),
      formatDay(q.endDate, false, doc),
      formatTime(data.loadedAt, doc),
    );
    this.figures.replaceChildren(summary(this.h, s, data));
    this.dailyProblem.replaceChildren(
      ...(data.problems.daily ? [this.h('p', { class: 'kd-banner kd-banner-warning' }, format(s.dailyFailed, data.problems.daily))] : []),
    );
    this.dailyDetails.replaceChildren(dailyTable(this.h, s, data.daily));
    this.topEmpty.hidden = data.top.length > 0;
    this.topEmpty.textContent = data.problems.top ? format(s.topFailed, data.problems.top) : s.topEmpty;
    this.topDetails.replaceChildren(topTable(this.h, s, data.top));
    this.searches.replaceChildren(searchTable(this.h, s, data.searches, data.problems.searches));
    this.feedback.replaceChildren(feedbackTable(this.h, s, data.feedback, data.problems.feedback));
    this.answerFeedback.replaceChildren(...answerFeedbackPart(this.h, s, data.answerFeedback, data.problems.answerFeedback));
    let drawn = { dailyPoints: 0, topBars: 0 };
    const charts: string[] = [];
    try {
      if (this.charts) {
        drawn = this.charts.draw(data);
        charts.push('daily:line', 'top:bar');
      }
    } catch (error) {
      this.showError(format(this.s.chartsFailed, (error as Error).message));
    }
    this.messenger.notify('rendered', {
      ...drawn,
      searchRows: data.searches.length,
      feedbackRows: data.feedback.length,
      answerFeedbackRows: data.answerFeedback.rows.length,
      charts,
    });
  }

  private setQuery(q: AnalyticsQuery): void {
    this.startInput.value = q.startDate;
    this.endInput.value = q.endDate;
    this.topN.value = String(q.topN);
  }

  private readQuery(): Record<string, unknown> {
    return { startDate: this.startInput.value, endDate: this.endInput.value, topN: Number(this.topN.value) };
  }

  private showError(message: string | null): void {
    this.error.textContent = message ?? '';
    this.error.hidden = !message;
  }
}
