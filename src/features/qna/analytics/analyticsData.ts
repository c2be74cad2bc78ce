// Loads and shapes what the analytics page shows. No vscode: tested in plain Node with a fake client.
import type { AnswersResource } from '../../../api/resources/answers';
import type { FaqResource } from '../../../api/resources/faq';
import type { KbNodesResource } from '../../../api/resources/kbNodes';
import type { AnswerFeedbackHistory } from '../../../api/schemas/kbOps';
import { OperationNotOfferedError } from '../../../api/errors';
import type { AnalyticsData, AnalyticsQuery, AnalyticsSection, AnswerFeedback, FeedbackRow, SearchRow, TopFaq } from './protocol';

export type AnalyticsClient = Pick<FaqResource, 'dailyCount' | 'dailyAnalytics' | 'searchHistory' | 'feedbackHistory' | 'get'>;
/** Answer feedback history (`GET /webapi/mrc_feedbacks`; a deployment may not offer it) and the rated documents' names. */
export interface AnswerFeedbackClient {
  feedbackHistory: AnswersResource['feedbackHistory'];
  /** undefined when the document cannot be read (deleted since, or the deployment has no such operation). */
  documentName?(id: string): Promise<string | undefined>;
}

/** The analytics' view of a client: the history, and document names read one by one without retries. */
export function answerFeedbackClient(client: { answers: AnswersResource; kbNodes: Pick<KbNodesResource, 'get'> }): AnswerFeedbackClient {
  return {
    feedbackHistory: (params, options) => client.answers.feedbackHistory(params, options),
    documentName: async (id) => {
      try {
        return (await client.kbNodes.get(id, { maxRetries: 0 })).name || undefined;
      } catch {
        return undefined;
      }
    },
  };
}

export const HISTORY_LIMIT = 50;
/** Characters of an answer the history table shows. */
export const ANSWER_EXCERPT = 160;
const MAX_DAYS = 400;

/** YYYY-MM-DD of `date` in this machine's time zone (the service's dates are local dates). */
export function localDate(date: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return localDate(new Date(y, m - 1, d + days));
}

/** The last 14 days including today, top 10. */
export function defaultQuery(now = new Date()): AnalyticsQuery {
  const endDate = localDate(now);
  return { startDate: addDays(endDate, -13), endDate, topN: 10 };
}

export function datesBetween(start: string, end: string): string[] {
  const out: string[] = [];
  for (let d = start; d <= end && out.length < MAX_DAYS; d = addDays(d, 1)) out.push(d);
  return out;
}

export interface LoadResult {
  data: AnalyticsData;
  failures: Array<{ section: AnalyticsSection; error: unknown }>;
}

/** The reads that can fail on their own (a section each). */
export const SECTIONS = 5;

/**
 * The five reads in parallel; a section that fails is reported in `problems`, the others still show. The answer
 * feedback history not offered by the deployment (404/405) is no failure: the section says so.
 */
export async function loadAnalytics(
  faq: AnalyticsClient,
  query: AnalyticsQuery,
  describe: (error: unknown) => string,
  now = new Date(),
  answers?: AnswerFeedbackClient,
): Promise<LoadResult> {
  const { startDate, endDate, topN } = query;
  const [daily, top, history, feedback, answerFeedback] = await Promise.allSettled([
    faq.dailyCount({ startDate, endDate }),
    faq.dailyAnalytics({ topN, startDate, endDate }),
    faq.searchHistory({ startDate, endDate, limit: HISTORY_LIMIT, offset: 0, sortOrder: 'DESC' }),
    faq.feedbackHistory({ limit: HISTORY_LIMIT, offset: 0 }),
    answers
      ? answers.feedbackHistory({ limit: HISTORY_LIMIT, offset: 0 })
      : Promise.reject(new OperationNotOfferedError('answers.feedbackHistory')),
  ]);
  const failures: LoadResult['failures'] = [];
  const problems: AnalyticsData['problems'] = {};
  const settle = <T>(section: AnalyticsSection, r: PromiseSettledResult<T>): T | undefined => {
    if (r.status === 'fulfilled') return r.value;
    failures.push({ section, error: r.reason });
    problems[section] = describe(r.reason);
    return undefined;
  };

  const counts = new Map((settle('daily', daily)?.dailyTotalCount ?? []).map((d) => [d.date.slice(0, 10), d.count]));
  const topFaqs: TopFaq[] = (settle('top', top)?.faqDailyAnalytics ?? []).slice(0, topN).map((a) => ({
    id: a.faq.id,
    question: a.faq.question,
    shown: a.totalShownCount,
    selected: a.totalCount,
    selectedRatio: Number.isFinite(a.selectedRatio) ? a.selectedRatio : a.totalShownCount ? a.totalCount / a.totalShownCount : 0,
  }));
  const historyItems = (settle('searches', history)?.histories ?? []).slice(0, HISTORY_LIMIT);
  const feedbackItems = (settle('feedback', feedback)?.result ?? []).slice(0, HISTORY_LIMIT);
  const offered = !(answerFeedback.status === 'rejected' && answerFeedback.reason instanceof OperationNotOfferedError);
  const answerHistory = offered ? settle('answerFeedback', answerFeedback) : undefined;

  const questions = new Map(topFaqs.map((t) => [t.id, t.question]));
  const searches: SearchRow[] = historyItems.map((h) => {
    const best = h.answers[0];
    const id = best?.faq?.id;
    const known = (best?.faq as { question?: unknown } | undefined)?.question;
    if (id && typeof known === 'string') questions.set(id, known);
    return {
      question: h.question,
      topAnswer: id ? { id, question: null } : null,
      confidence: best?.confidence ?? null,
      effectiveConfidence: best?.effectiveConfidence ?? null,
      time: toIso(h.createdAt),
    };
  });
  await resolveQuestions(
    faq,
    searches.flatMap((s) => (s.topAnswer ? [s.topAnswer.id] : [])),
    questions,
  );
  for (const s of searches) if (s.topAnswer) s.topAnswer.question = questions.get(s.topAnswer.id) ?? null;

  const rated = answerFeedbackSection(offered, answerHistory ?? []);
  if (answers?.documentName) await nameDocuments(answers.documentName.bind(answers), rated);

  return {
    failures,
    data: {
      query,
      daily: datesBetween(startDate, endDate).map((date) => ({ date, count: counts.get(date) ?? 0 })),
      top: topFaqs,
      searches,
      feedback: feedbackItems.map((f) => feedbackRow(f.query, f.feedbacks, questions)),
      answerFeedback: rated,
      problems,
      loadedAt: now.toISOString(),
    },
  };
}

/** Questions of the top answers the analytics did not name, read one by one (few, at most 4 at a time). */
async function resolveQuestions(faq: AnalyticsClient, ids: string[], known: Map<string, string>): Promise<void> {
  const missing = [...new Set(ids)].filter((id) => !known.has(id)).slice(0, HISTORY_LIMIT);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < missing.length) {
      const id = missing[next++];
      try {
        known.set(id, (await faq.get(id, { format: 'text' }, { maxRetries: 0 })).question);
      } catch {
        // Deleted since, or not readable: the table shows the id.
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** Items of `feedbacks` are undocumented (docs/api.md#qa-feedback-history): read the usual names and count what is there. */
function feedbackRow(query: string, items: Array<Record<string, unknown>>, questions: Map<string, string>): FeedbackRow {
  let positive = 0;
  let negative = 0;
  const faqs = new Set<string>();
  let latest: string | null = null;
  for (const item of items) {
    const v = item.isPositive ?? item.positive ?? item.feedback ?? item.rating;
    if (v === true || v === 'positive' || v === 'POSITIVE' || v === 1) positive++;
    else if (v === false || v === 'negative' || v === 'NEGATIVE' || v === -1) negative++;
    const faq = item.faq as { id?: unknown; question?: unknown } | undefined;
    const id = typeof faq?.id === 'string' ? faq.id : typeof item.faqId === 'string' ? item.faqId : undefined;
    const q = typeof faq?.question === 'string' ? faq.question : id ? questions.get(id) : undefined;
    if (q ?? id) faqs.add((q ?? id)!);
    const t = toIso(item.updatedAt ?? item.createdAt ?? item.date);
    if (t && (!latest || t > latest)) latest = t;
  }
  return { query, positive, negative, total: items.length, faqs: [...faqs], time: latest };
}

/** Rated answers, one row each (the service groups them by question), newest question first, and the counts. */
export function answerFeedbackSection(offered: boolean, history: AnswerFeedbackHistory): AnswerFeedback {
  const rows = history
    .flatMap((g) =>
      g.feedbacks.map((f) => ({
        question: g.query,
        answer: excerpt(f.answer, ANSWER_EXCERPT),
        documentId: f.documentId,
        documentName: null as string | null,
        positive: f.positive,
        time: toIso(f.createdAt),
      })),
    )
    .slice(0, HISTORY_LIMIT);
  return {
    offered,
    rows,
    positive: rows.filter((r) => r.positive === true).length,
    negative: rows.filter((r) => r.positive === false).length,
  };
}

/** Names of the rated documents (few: at most 4 reads at a time, each document once). */
async function nameDocuments(name: (id: string) => Promise<string | undefined>, feedback: AnswerFeedback): Promise<void> {
  const ids = [...new Set(feedback.rows.map((r) => r.documentId).filter(Boolean))];
  const names = new Map<string, string>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < ids.length) {
      const id = ids[next++];
      const n = await name(id);
      if (n) names.set(id, n);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  for (const r of feedback.rows) r.documentName = names.get(r.documentId) ?? null;
}

/** Plain text, whitespace collapsed, at most `max` characters (code points) with an ellipsis when cut. */
export function excerpt(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

/** Epoch seconds or milliseconds, or a date string, as ISO; null when absent or unreadable. */
export function toIso(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value < 1e11 ? value * 1000 : value).toISOString();
  if (typeof value === 'string' && value) {
    const t = Date.parse(value);
    return Number.isNaN(t) ? null : new Date(t).toISOString();
  }
  return null;
}
