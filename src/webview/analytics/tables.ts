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

function table(
  h: H,
  caption: string,
  headers: Array<{ label: string; numeric?: boolean }>,
  rows: Child[][],
  attrs: Record<string, string> = {},
): HTMLTableElement {
  return h(
    'table',
    { class: 'kd-table', attrs },
    h('caption', { class: 'kd-visually-hidden' }, caption),
    h(
      'thead',
      null,
      h('tr', null, ...headers.map((c) => h('th', { class: c.numeric ? 'kd-num' : undefined, attrs: { scope: 'col' } }, c.label))),
    ),
    h(
      'tbody',
      null,
      ...rows.map((cells) =>
        h('tr', null, ...cells.map((cell, i) => h('td', { class: headers[i]?.numeric ? 'kd-num' : undefined }, cell))),
      ),
    ),
  );
}

function empty(h: H, text: string): HTMLElement {
  return h('p', { class: 'kd-empty' }, text);
}

export function problem(h: H, s: AnalyticsStrings, text: string): HTMLElement {
  return h('p', { class: 'kd-banner kd-banner-warning', attrs: { role: 'status' } }, format(s.partFailed, text));
}

const docOf = (h: H): Document => h('span').ownerDocument;

/** Latest searches: question, top answer, confidence (effective in the tooltip), time. */
export function searchTable(h: H, s: AnalyticsStrings, rows: SearchRow[], failure?: string): HTMLElement {
  if (failure) return problem(h, s, failure);
  if (!rows.length) return empty(h, s.noSearches);
  const doc = docOf(h);
  return table(
    h,
    s.searchesTitle,
    [{ label: s.question }, { label: s.topAnswer }, { label: s.confidence, numeric: true }, { label: s.time }],
    rows.map((r) => [
      h('span', { class: 'kd-cell-text' }, r.question),
      r.topAnswer
        ? h('span', { class: 'kd-cell-text', attrs: { title: format(s.qaId, r.topAnswer.id) } }, r.topAnswer.question ?? r.topAnswer.id)
        : h('span', { class: 'kd-muted' }, s.noAnswer),
      h(
        'span',
        { attrs: { title: r.effectiveConfidence === null ? '' : format(s.effectiveConfidence, percent(r.effectiveConfidence, 0, doc)) } },
        percent(r.confidence, 0, doc),
      ),
      h('span', { class: 'kd-nowrap' }, formatTime(r.time, doc)),
    ]),
  );
}

/** Feedback on Q&A search results (`faq_feedbacks`), grouped by query. */
export function feedbackTable(h: H, s: AnalyticsStrings, rows: FeedbackRow[], failure?: string): HTMLElement {
  if (failure) return problem(h, s, failure);
  if (!rows.length) return empty(h, s.noQaFeedback);
  const doc = docOf(h);
  return table(
    h,
    s.qaFeedbackTitle,
    [{ label: s.query }, { label: s.helpful, numeric: true }, { label: s.notHelpful, numeric: true }, { label: s.qa }, { label: s.time }],
    rows.map((r) => [
      h('span', { class: 'kd-cell-text' }, r.query),
      count(r.positive, doc),
      count(r.negative, doc),
      r.faqs.length ? h('span', { class: 'kd-cell-text' }, r.faqs.join(', ')) : h('span', { class: 'kd-muted' }, DASH),
      h('span', { class: 'kd-nowrap' }, formatTime(r.time, doc)),
    ]),
  );
}

/**
 * Feedback on generated answers (`mrc_feedbacks`): the counts, then one row per rated answer. The time column
 * appears only when the deployment gives times (the public shape has none).
 */
export function answerFeedbackPart(h: H, s: AnalyticsStrings, feedback: AnswerFeedback, failure?: string): HTMLElement[] {
  if (!feedback.offered) return [h('p', { class: 'kd-empty', attrs: { 'data-state': 'not-offered' } }, s.answerFeedbackNotOffered)];
  if (failure) return [problem(h, s, failure)];
  if (!feedback.rows.length) return [h('p', { class: 'kd-empty', attrs: { 'data-state': 'empty' } }, s.noAnswerFeedback)];
  const doc = docOf(h);
  const timed = feedback.rows.some((r) => r.time);
  const headers = [
    { label: s.question },
    { label: s.answer },
    { label: s.rating },
    { label: s.document },
    ...(timed ? [{ label: s.time }] : []),
  ];
  const rating = (positive: boolean | null): Child =>
    positive === null
      ? h('span', { class: 'kd-muted' }, DASH)
      : h(
          'span',
          { class: `kd-nowrap an-rating an-rating-${positive ? 'up' : 'down'}` },
          // Drawn icons, not emoji: every machine shows them, in the theme's colours.
          icon(doc, positive ? 'thumbsUp' : 'thumbsDown'),
          positive ? s.helpful : s.notHelpful,
        );
  return [
    h(
      'p',
      { class: 'kd-meta an-answer-counts', attrs: { 'data-state': 'rows' } },
      format(s.answerFeedbackCounts, count(feedback.rows.length, doc), count(feedback.positive, doc), count(feedback.negative, doc)),
    ),
    table(
      h,
      s.answerFeedbackTitle,
      headers,
      feedback.rows.map((r) => [
        h('span', { class: 'kd-cell-text' }, r.question),
        h('span', { class: 'kd-cell-text an-answer' }, r.answer),
        rating(r.positive),
        h('span', { class: 'kd-cell-text', attrs: { title: format(s.documentId, r.documentId) } }, r.documentName ?? r.documentId),
        ...(timed ? [h('span', { class: 'kd-nowrap' }, formatTime(r.time, doc))] : []),
      ]),
    ),
  ];
}

/** The daily chart as a table: one row per day of the range. */
export function dailyTable(h: H, s: AnalyticsStrings, rows: DailyCount[]): HTMLElement {
  const doc = docOf(h);
  return table(
    h,
    s.dailyTitle,
    [{ label: s.day }, { label: s.searches, numeric: true }],
    rows.map((r) => [formatDay(r.date, false, doc), count(r.count, doc)]),
    { 'data-chart': 'daily' },
  );
}

/** The top-N chart as a table. */
export function topTable(h: H, s: AnalyticsStrings, rows: TopFaq[]): HTMLElement {
  const doc = docOf(h);
  return table(
    h,
    s.topTitle,
    [
      { label: '#', numeric: true },
      { label: s.qa },
      { label: s.shown, numeric: true },
      { label: s.selected, numeric: true },
      { label: s.selectedRatio, numeric: true },
    ],
    rows.map((r, i) => [
      count(i + 1, doc),
      h('span', { class: 'kd-cell-text' }, r.question),
      count(r.shown, doc),
      count(r.selected, doc),
      percent(r.selectedRatio, 1, doc),
    ]),
    { 'data-chart': 'top' },
  );
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
