// Tables of the analytics page. Questions and answers from the service are inserted as text only.
import type { AnalyticsData, FeedbackRow, SearchRow, TopFaq } from '../../features/qna/analytics/protocol';
import type { Child, H } from '../shared/dom';

export function percent(value: number | null): string {
  return value === null ? '—' : `${Math.round(value * 100)}%`;
}

export function formatTime(iso: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? '—'
    : d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

function table(
  h: H,
  caption: string,
  headers: Array<{ label: string; numeric?: boolean }>,
  rows: Child[][],
  numericCols: Set<number>,
): HTMLTableElement {
  return h(
    'table',
    { class: 'kd-table' },
    h('caption', { class: 'kd-visually-hidden' }, caption),
    h(
      'thead',
      null,
      h('tr', null, ...headers.map((c) => h('th', { class: c.numeric ? 'kd-num' : undefined, attrs: { scope: 'col' } }, c.label))),
    ),
    h(
      'tbody',
      null,
      ...rows.map((cells) => h('tr', null, ...cells.map((cell, i) => h('td', { class: numericCols.has(i) ? 'kd-num' : undefined }, cell)))),
    ),
  );
}

function empty(h: H, text: string): HTMLElement {
  return h('p', { class: 'kd-empty' }, text);
}

function problem(h: H, text: string): HTMLElement {
  return h('p', { class: 'kd-banner kd-banner-warning', attrs: { role: 'status' } }, `Could not load this part: ${text}`);
}

/** Latest searches: question, top answer, confidence (effective in the tooltip), time. */
export function searchTable(h: H, rows: SearchRow[], failure?: string): HTMLElement {
  if (failure) return problem(h, failure);
  if (!rows.length) return empty(h, 'No searches in this range.');
  return table(
    h,
    'Latest searches',
    [{ label: 'Question' }, { label: 'Top answer' }, { label: 'Confidence', numeric: true }, { label: 'Time' }],
    rows.map((r) => [
      h('span', { class: 'kd-cell-text' }, r.question),
      r.topAnswer
        ? h('span', { class: 'kd-cell-text', attrs: { title: `Q&A ${r.topAnswer.id}` } }, r.topAnswer.question ?? r.topAnswer.id)
        : h('span', { class: 'kd-muted' }, 'No answer'),
      h(
        'span',
        {
          attrs: {
            title: r.effectiveConfidence === null ? '' : `Effective confidence (after feedback): ${percent(r.effectiveConfidence)}`,
          },
        },
        percent(r.confidence),
      ),
      h('span', { class: 'kd-nowrap' }, formatTime(r.time)),
    ]),
    new Set([2]),
  );
}

export function feedbackTable(h: H, rows: FeedbackRow[], failure?: string): HTMLElement {
  if (failure) return problem(h, failure);
  if (!rows.length) return empty(h, 'No feedback yet.');
  return table(
    h,
    'Feedback history',
    [{ label: 'Query' }, { label: 'Helpful', numeric: true }, { label: 'Not helpful', numeric: true }, { label: 'Q&A' }, { label: 'Time' }],
    rows.map((r) => [
      h('span', { class: 'kd-cell-text' }, r.query),
      String(r.positive),
      String(r.negative),
      r.faqs.length ? h('span', { class: 'kd-cell-text' }, r.faqs.join(', ')) : h('span', { class: 'kd-muted' }, '—'),
      h('span', { class: 'kd-nowrap' }, formatTime(r.time)),
    ]),
    new Set([1, 2]),
  );
}

/** The top-N chart as a table: the same numbers for screen readers and for copying. */
export function topTable(h: H, rows: TopFaq[]): HTMLElement {
  return table(
    h,
    'Top Q&As',
    [
      { label: '#', numeric: true },
      { label: 'Q&A' },
      { label: 'Shown', numeric: true },
      { label: 'Selected', numeric: true },
      { label: 'Selected ratio', numeric: true },
    ],
    rows.map((r, i) => [
      String(i + 1),
      h('span', { class: 'kd-cell-text' }, r.question),
      String(r.shown),
      String(r.selected),
      `${(r.selectedRatio * 100).toFixed(1)}%`,
    ]),
    new Set([0, 2, 3, 4]),
  );
}

/** The figures above the charts. */
export function summary(h: H, data: AnalyticsData): HTMLElement {
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
  return h(
    'div',
    { class: 'kd-stat-cards' },
    card('Searches', total.toLocaleString(), `${data.daily.length} days`),
    card('Daily average', data.daily.length ? (total / data.daily.length).toFixed(1) : '0'),
    card('Busiest day', busiest ? busiest.date : '—', busiest ? `${busiest.count} searches` : undefined),
    card(
      `Top ${data.query.topN} selected`,
      shown ? `${((selected / shown) * 100).toFixed(1)}%` : '—',
      shown ? `${selected} of ${shown} times shown` : undefined,
    ),
  );
}
