// Daily count and daily analytics over the recorded searches and selections (local calendar days).
import type { FaqStore } from './faqStore';
import type { SearchLog } from './searchLog';

/** Searches per day, every day of the range (zeros included). */
export function dailyCount(log: SearchLog, days: readonly string[]) {
  return {
    dailyTotalCount: days.map((date) => ({ date, count: log.searchesOn(date).length })),
    state: 'DONE',
    campaignCount: 0,
  };
}

/**
 * The `topN` Q&As shown most often in search results within the range. totalShownCount counts each time a
 * Q&A was among the results shown, totalCount each time it was selected (dated by the selection), and
 * selectedRatio = totalCount / totalShownCount (0 when never shown). Deleted Q&As are left out.
 */
export function dailyAnalytics(log: SearchLog, faqs: FaqStore, days: readonly string[], topN: number) {
  const shown = new Map<string, number>();
  const selected = new Map<string, Map<string, number>>();
  for (const day of days) {
    for (const search of log.searchesOn(day)) {
      for (const r of search.results) shown.set(r.id, (shown.get(r.id) ?? 0) + 1);
    }
    for (const s of log.selectionsOn(day)) {
      let perDay = selected.get(s.faqId);
      if (!perDay) selected.set(s.faqId, (perDay = new Map()));
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
  }
  const ids = new Set([...shown.keys(), ...selected.keys()]);
  const rows = [...ids].flatMap((id) => {
    const faq = faqs.get(id);
    if (!faq) return [];
    const perDay = selected.get(id);
    let totalCount = 0;
    for (const n of perDay?.values() ?? []) totalCount += n;
    const totalShownCount = shown.get(id) ?? 0;
    return [
      {
        totalCount,
        totalShownCount,
        selectedRatio: totalShownCount === 0 ? 0 : totalCount / totalShownCount,
        faq: { id, question: faq.question },
        stats: days.map((date) => ({ date, selectedCount: perDay?.get(date) ?? 0 })),
      },
    ];
  });
  rows.sort((a, b) => b.totalShownCount - a.totalShownCount || b.totalCount - a.totalCount || (a.faq.id < b.faq.id ? -1 : 1));
  return { faqDailyAnalytics: rows.slice(0, topN) };
}
