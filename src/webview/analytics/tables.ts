// Tables of the analytics page, and the charts' table alternatives (the same numbers for screen readers and
// for copying). Questions and answers from the service are inserted as text only. Texts come from the host
// (AnalyticsStrings); numbers and dates follow <html lang> (Intl).
import type { AnalyticsStrings } from '../../features/qna/analytics/analyticsStrings';
import type { AnalyticsData, AnswerFeedback, DailyCount, FeedbackRow, SearchRow, TopFaq } from '../../features/qna/analytics/protocol';
import type { Child, H } from '../shared/dom';
import { icon } from '../shared/icons';
import { format, formatDateTime, formatNumber } from '../shared/strings';

const DASH = '—';

export function percent(value: number | null, digits = 0, doc?: Document): string {
  return value === null || !Number.isFinite(value)
    ? DASH
    : formatNumber(value, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }, doc);
}

export function formatTime(iso: string | null, doc?: Document): string {
  if (!iso) return DASH;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? DASH : formatDateTime(d, { dateStyle: 'medium', timeStyle: 'short' }, doc);
}

/** A local date (YYYY-MM-DD) in the display language; `short` is month and day only (the chart's axis). */
export function formatDay(date: string, short = false, doc?: Document): string {
  const [y, m, d] = date.split('-').map(Number);
  if (!y || !m || !d) return date;
  const options: Intl.DateTimeFormatOptions = short ? { month: 'numeric', day: 'numeric' } : { dateStyle: 'medium' };
  return formatDateTime(new Date(y, m - 1, d), options, doc);
}

const count = (n: number, doc?: Document): string => formatNumber(n, undefined, doc);

/** A column: its header and how a row fills its cell, together so the two cannot drift apart. */
interface Column<R> {
  label: string;
  numeric?: boolean;
  cell: (row: R, index: number) => Child;
}

function table<R>(h: H, caption: string, columns: Array<Column<R>>, rows: R[], attrs: Record<string, string> = {}): HTMLTableElement {
  const numeric = (c: Column<R>): string | undefined => (c.numeric ? 'kd-num' : undefined);
  return h(
    'table',
    { class: 'kd-table', attrs },
    h('caption', { class: 'kd-visually-hidden' }, caption),
    h('thead', null, h('tr', null, ...columns.map((c) => h('th', { class: numeric(c), attrs: { scope: 'col' } }, c.label)))),
    h('tbody', null, ...rows.map((row, i) => h('tr', null, ...columns.map((c) => h('td', { class: numeric(c) }, c.cell(row, i)))))),
  );
}

export function problem(h: H, s: AnalyticsStrings, text: string): HTMLElement {
  return h('p', { class: 'kd-banner kd-banner-warning', attrs: { role: 'status' } }, format(s.partFailed, text));
}

/** A part of the page that lists rows: why it could not load, that it has none, or its table. */
function listPart<R>(
  h: H,
  s: AnalyticsStrings,
  part: { rows: R[]; failure?: string; emptyText: string; caption: string },
  columns: Array<Column<R>>,
): HTMLElement {
  if (part.failure) return problem(h, s, part.failure);
  if (!part.rows.length) return h('p', { class: 'kd-empty', attrs: { 'data-state': 'empty' } }, part.emptyText);
  return table(h, part.caption, columns, part.rows);
}

const docOf = (h: H): Document => h('span').ownerDocument;
const text = (h: H, value: string, title?: string): HTMLElement =>
  h('span', { class: 'kd-cell-text', attrs: title ? { title } : undefined }, value);
const muted = (h: H, value: string): HTMLElement => h('span', { class: 'kd-muted' }, value);
const time = (h: H, iso: string | null, doc: Document): HTMLElement => h('span', { class: 'kd-nowrap' }, formatTime(iso, doc));

/** Latest searches: question, top answer, confidence (effective in the tooltip), time. */
export function searchTable(h: H, s: AnalyticsStrings, rows: SearchRow[], failure?: string): HTMLElement {
  const doc = docOf(h);
  return listPart(h, s, { rows, failure, emptyText: s.noSearches, caption: s.searchesTitle }, [
    { label: s.question, cell: (r) => text(h, r.question) },
    {
      label: s.topAnswer,
      cell: (r) => (r.topAnswer ? text(h, r.topAnswer.question ?? r.topAnswer.id, format(s.qaId, r.topAnswer.id)) : muted(h, s.noAnswer)),
    },
    {
      label: s.confidence,
      numeric: true,
      cell: (r) =>
        h(
          'span',
          { attrs: { title: r.effectiveConfidence === null ? '' : format(s.effectiveConfidence, percent(r.effectiveConfidence, 0, doc)) } },
          percent(r.confidence, 0, doc),
        ),
    },
    { label: s.time, cell: (r) => time(h, r.time, doc) },
  ]);
}

/** Feedback on Q&A search results (`faq_feedbacks`), grouped by query. */
export function feedbackTable(h: H, s: AnalyticsStrings, rows: FeedbackRow[], failure?: string): HTMLElement {
  const doc = docOf(h);
  return listPart(h, s, { rows, failure, emptyText: s.noQaFeedback, caption: s.qaFeedbackTitle }, [
    { label: s.query, cell: (r) => text(h, r.query) },
    { label: s.helpful, numeric: true, cell: (r) => count(r.positive, doc) },
    { label: s.notHelpful, numeric: true, cell: (r) => count(r.negative, doc) },
    { label: s.qa, cell: (r) => (r.faqs.length ? text(h, r.faqs.join(', ')) : muted(h, DASH)) },
    { label: s.time, cell: (r) => time(h, r.time, doc) },
  ]);
}

/**
 * Feedback on generated answers (`mrc_feedbacks`): the counts, then one row per rated answer. The time column
 * appears only when the deployment gives times (the public shape has none).
 */
export function answerFeedbackPart(h: H, s: AnalyticsStrings, feedback: AnswerFeedback, failure?: string): HTMLElement[] {
  if (!feedback.offered) return [h('p', { class: 'kd-empty', attrs: { 'data-state': 'not-offered' } }, s.answerFeedbackNotOffered)];
  const doc = docOf(h);
  const rating = (positive: boolean | null): Child =>
    positive === null
      ? muted(h, DASH)
      : h(
          'span',
          { class: `kd-nowrap an-rating an-rating-${positive ? 'up' : 'down'}` },
          // Drawn icons, not emoji: every machine shows them, in the theme's colours.
          icon(doc, positive ? 'thumbsUp' : 'thumbsDown'),
          positive ? s.helpful : s.notHelpful,
        );
  const columns: Array<Column<AnswerFeedback['rows'][number]>> = [
    { label: s.question, cell: (r) => text(h, r.question) },
    { label: s.answer, cell: (r) => h('span', { class: 'kd-cell-text an-answer' }, r.answer) },
    { label: s.rating, cell: (r) => rating(r.positive) },
    { label: s.document, cell: (r) => text(h, r.documentName ?? r.documentId, format(s.documentId, r.documentId)) },
  ];
  if (feedback.rows.some((r) => r.time)) columns.push({ label: s.time, cell: (r) => time(h, r.time, doc) });
  const part = listPart(h, s, { rows: feedback.rows, failure, emptyText: s.noAnswerFeedback, caption: s.answerFeedbackTitle }, columns);
  if (failure || !feedback.rows.length) return [part];
  const counts = format(
    s.answerFeedbackCounts,
    count(feedback.rows.length, doc),
    count(feedback.positive, doc),
    count(feedback.negative, doc),
  );
  return [h('p', { class: 'kd-meta an-answer-counts', attrs: { 'data-state': 'rows' } }, counts), part];
}

/** The daily chart as a table: one row per day of the range. */
export function dailyTable(h: H, s: AnalyticsStrings, rows: DailyCount[]): HTMLElement {
  const doc = docOf(h);
  const columns: Array<Column<DailyCount>> = [
    { label: s.day, cell: (r) => formatDay(r.date, false, doc) },
    { label: s.searches, numeric: true, cell: (r) => count(r.count, doc) },
  ];
  return table(h, s.dailyTitle, columns, rows, { 'data-chart': 'daily' });
}

/** The top-N chart as a table. */
export function topTable(h: H, s: AnalyticsStrings, rows: TopFaq[]): HTMLElement {
  const doc = docOf(h);
  const columns: Array<Column<TopFaq>> = [
    { label: '#', numeric: true, cell: (_, i) => count(i + 1, doc) },
    { label: s.qa, cell: (r) => text(h, r.question) },
    { label: s.shown, numeric: true, cell: (r) => count(r.shown, doc) },
    { label: s.selected, numeric: true, cell: (r) => count(r.selected, doc) },
    { label: s.selectedRatio, numeric: true, cell: (r) => percent(r.selectedRatio, 1, doc) },
  ];
  return table(h, s.topTitle, columns, rows, { 'data-chart': 'top' });
}

/** The figures above the charts. */
export function summary(h: H, s: AnalyticsStrings, data: AnalyticsData): HTMLElement {
  const doc = docOf(h);
  const total = data.daily.reduce((n, d) => n + d.count, 0);
  const busiest = data.daily.reduce<{ date: string; count: number } | undefined>(
    (best, d) => (d.count > (best?.count ?? 0) ? d : best),
    undefined,
  );
  const shown = data.top.reduce((n, q) => n + q.shown, 0);
  const selected = data.top.reduce((n, q) => n + q.selected, 0);
  const card = (label: string, value: string, note?: string): HTMLElement =>
    h(
      'div',
      { class: 'kd-stat-card' },
      h('div', { class: 'kd-stat-label' }, label),
      h('div', { class: 'kd-stat-value' }, value),
      note ? h('div', { class: 'kd-stat-note' }, note) : null,
    );
  const days = data.daily.length;
  return h(
    'div',
    { class: 'kd-stat-cards' },
    card(s.searches, count(total, doc), days === 1 ? s.oneDay : format(s.days, count(days, doc))),
    card(s.dailyAverage, formatNumber(days ? total / days : 0, { minimumFractionDigits: 1, maximumFractionDigits: 1 }, doc)),
    card(
      s.busiestDay,
      busiest ? formatDay(busiest.date, false, doc) : DASH,
      busiest ? (busiest.count === 1 ? s.oneSearch : format(s.searchCount, count(busiest.count, doc))) : undefined,
    ),
    card(
      format(s.topSelected, count(data.query.topN, doc)),
      shown ? percent(selected / shown, 1, doc) : DASH,
      shown ? format(s.selectedOfShown, count(selected, doc), count(shown, doc)) : undefined,
    ),
  );
}
