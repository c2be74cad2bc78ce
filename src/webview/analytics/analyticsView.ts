// The analytics page: range and top-N controls, figures, two charts, two history tables.
import {
  analyticsQuerySchema,
  analyticsStateSchema,
  TOP_N_VALUES,
  type AnalyticsData,
  type AnalyticsProtocol,
  type AnalyticsQuery,
} from '../../features/qna/analytics/protocol';
import { createH, type H } from '../shared/dom';
import { icon } from '../shared/icons';
import type { Messenger } from '../shared/messenger';
import { feedbackTable, formatTime, searchTable, summary, topTable } from './tables';

/** Draws the charts; injected so the page logic can be tested where there is no canvas. */
export interface ChartDrawer {
  draw(data: AnalyticsData): { dailyPoints: number; topBars: number };
  retheme(): void;
}

export class AnalyticsView {
  private readonly h: H;
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
    const onChange = (): void => void this.reload();
    this.startInput = h('input', { class: 'kd-input', attrs: { id: 'an-start', type: 'date', required: true }, on: { change: onChange } });
    this.endInput = h('input', { class: 'kd-input', attrs: { id: 'an-end', type: 'date', required: true }, on: { change: onChange } });
    this.topN = h(
      'select',
      { class: 'kd-input kd-select', attrs: { id: 'an-top' }, on: { change: onChange } },
      ...TOP_N_VALUES.map((n) => h('option', { attrs: { value: n } }, `Top ${n}`)),
    );
    this.refreshButton = h(
      'button',
      { class: 'kd-button kd-secondary', attrs: { type: 'button', title: 'Load again' }, on: { click: onChange } },
      icon(doc, 'refresh'),
      'Refresh',
    );
    this.subtitle = h('div', { class: 'kd-meta' });
    this.error = h('div', { class: 'kd-banner kd-banner-error', attrs: { role: 'alert', hidden: true } });
    this.progress = h('div', { class: 'kd-progress', attrs: { hidden: true, role: 'progressbar', 'aria-label': 'Loading' } });
    this.figures = h('div', { class: 'kd-figures' });
    this.dailyCanvas = h('canvas', { attrs: { role: 'img', 'aria-label': 'Searches per day' } });
    this.topCanvas = h('canvas', { attrs: { role: 'img', 'aria-label': 'Top Q&As: times shown and times selected' } });
    this.topBox = h('div', { class: 'kd-chart-box' }, this.topCanvas);
    this.topEmpty = h('p', { class: 'kd-empty', attrs: { hidden: true } }, 'No Q&A was shown in search results in this range.');
    this.topDetails = h('div');
    this.dailyProblem = h('div');
    this.searches = h('div', { class: 'kd-table-wrap' });
    this.feedback = h('div', { class: 'kd-table-wrap' });
    const field = (id: string, label: string, control: HTMLElement): HTMLElement =>
      h('div', { class: 'kd-inline-field' }, h('label', { class: 'kd-label', attrs: { for: id } }, label), control);
    this.root = h(
      'div',
      { class: 'kd-page' },
      this.progress,
      h(
        'header',
        { class: 'kd-header' },
        h('div', { class: 'kd-title-row' }, icon(doc, 'graph'), h('h1', { class: 'kd-title' }, 'Q&A Analytics')),
        this.subtitle,
        h(
          'div',
          { class: 'kd-controls', attrs: { role: 'group', 'aria-label': 'Range' } },
          field('an-start', 'From', this.startInput),
          field('an-end', 'To', this.endInput),
          field('an-top', 'Show', this.topN),
          this.refreshButton,
        ),
      ),
      this.error,
      this.figures,
      h(
        'div',
        { class: 'kd-chart-grid' },
        h(
          'section',
          { class: 'kd-card', attrs: { 'aria-labelledby': 'an-daily-title' } },
          h('h2', { attrs: { id: 'an-daily-title' } }, 'Searches per day'),
          this.dailyProblem,
          h('div', { class: 'kd-chart-box kd-chart-daily' }, this.dailyCanvas),
        ),
        h(
          'section',
          { class: 'kd-card', attrs: { 'aria-labelledby': 'an-top-title' } },
          h('h2', { attrs: { id: 'an-top-title' } }, 'Top Q&As: shown vs selected'),
          this.topBox,
          this.topEmpty,
          h('details', { class: 'kd-details' }, h('summary', null, 'As a table'), this.topDetails),
        ),
      ),
      h(
        'section',
        { class: 'kd-card', attrs: { 'aria-labelledby': 'an-search-title' } },
        h('h2', { attrs: { id: 'an-search-title' } }, 'Latest searches'),
        this.searches,
      ),
      h(
        'section',
        { class: 'kd-card', attrs: { 'aria-labelledby': 'an-feedback-title' } },
        h('h2', { attrs: { id: 'an-feedback-title' } }, 'Feedback history'),
        this.feedback,
      ),
    );
  }

  start(app: HTMLElement): void {
    app.replaceChildren(this.root);
    app.removeAttribute('aria-busy');
    const m = this.messenger;
    m.on('init', ({ defaultQuery, today }) => {
      this.startInput.max = this.endInput.max = today;
      this.setQuery(m.getState(analyticsStateSchema)?.query ?? defaultQuery);
      void this.reload();
    });
    m.on('refresh', () => void this.reload());
    m.handleForTests('drive', async ({ query }) => {
      this.setQuery({ ...(this.readQuery() as AnalyticsQuery), ...query });
      await this.reload();
      return { query: this.query! };
    });
    m.start();
  }

  /** Reads the controls, checks them, saves them as state and loads. */
  async reload(): Promise<void> {
    const parsed = analyticsQuerySchema.safeParse(this.readQuery());
    if (!parsed.success)
      return this.showError(
        parsed.error.issues[0]?.message === 'The start date is after the end date'
          ? 'The start date is after the end date.'
          : 'Choose a start and an end date.',
      );
    this.query = parsed.data;
    this.messenger.setState(analyticsStateSchema, { query: parsed.data });
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
    this.subtitle.textContent = `${q.startDate} – ${q.endDate}  ·  updated ${formatTime(data.loadedAt)}`;
    this.figures.replaceChildren(summary(this.h, data));
    this.dailyProblem.replaceChildren(
      ...(data.problems.daily
        ? [this.h('p', { class: 'kd-banner kd-banner-warning' }, `Could not load daily counts: ${data.problems.daily}`)]
        : []),
    );
    this.topEmpty.hidden = data.top.length > 0;
    if (data.problems.top) this.topEmpty.textContent = `Could not load the top Q&As: ${data.problems.top}`;
    this.topDetails.replaceChildren(topTable(this.h, data.top));
    this.searches.replaceChildren(searchTable(this.h, data.searches, data.problems.searches));
    this.feedback.replaceChildren(feedbackTable(this.h, data.feedback, data.problems.feedback));
    let drawn = { dailyPoints: 0, topBars: 0 };
    const charts: string[] = [];
    try {
      if (this.charts) {
        drawn = this.charts.draw(data);
        charts.push('daily:line', 'top:bar');
      }
    } catch (error) {
      this.showError(`The charts could not be drawn: ${(error as Error).message}`);
    }
    this.messenger.notify('rendered', { ...drawn, searchRows: data.searches.length, feedbackRows: data.feedback.length, charts });
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
