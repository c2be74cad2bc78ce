// Every text of the Q&A analytics page, in the display language (WebviewPage.strings; the page reads them
// with src/webview/shared/strings.ts). @vscode/l10n's t, not vscode.l10n.t, so unit tests build the page with
// them without a host (platform/l10n.ts hands @vscode/l10n VS Code's bundle at activation).
import * as l10n from '@vscode/l10n';

export function analyticsStrings() {
  return {
    title: l10n.t('Q&A Analytics'),
    /** {0}, {1}: first and last day of the range; {2}: when the data was loaded. */
    subtitle: l10n.t('{0} – {1} · updated {2}'),
    range: l10n.t('Range'),
    from: l10n.t('From'),
    to: l10n.t('To'),
    show: l10n.t('Show'),
    /** {0}: how many Q&As the top list shows. */
    topN: l10n.t('Top {0}'),
    refresh: l10n.t('Refresh'),
    refreshTitle: l10n.t('Load again'),
    loading: l10n.t('Loading'),
    startAfterEnd: l10n.t('The start date is after the end date.'),
    chooseDates: l10n.t('Choose a start and an end date.'),
    /** {0}: why. */
    chartsFailed: l10n.t('The charts could not be drawn: {0}'),
    /** {0}: why. */
    dailyFailed: l10n.t('Could not load daily counts: {0}'),
    /** {0}: why. */
    topFailed: l10n.t('Could not load the top Q&As: {0}'),
    /** {0}: why. */
    partFailed: l10n.t('Could not load this part: {0}'),
    asTable: l10n.t('Show as a table'),

    // Figures
    searches: l10n.t('Searches'),
    oneDay: l10n.t('1 day'),
    /** {0}: number of days. */
    days: l10n.t('{0} days'),
    dailyAverage: l10n.t('Daily average'),
    busiestDay: l10n.t('Busiest day'),
    oneSearch: l10n.t('1 search'),
    /** {0}: number of searches. */
    searchCount: l10n.t('{0} searches'),
    /** {0}: N of the top N. */
    topSelected: l10n.t('Top {0} selected'),
    /** {0}: times selected; {1}: times shown. */
    selectedOfShown: l10n.t('{0} of {1} times shown'),

    // Charts
    dailyTitle: l10n.t('Searches per day'),
    dailyChart: l10n.t('Chart of searches per day; the same numbers are in the table below it'),
    day: l10n.t('Day'),
    topTitle: l10n.t('Top Q&As: shown vs selected'),
    topChart: l10n.t('Chart of the top Q&As, times shown and times selected; the same numbers are in the table below it'),
    topEmpty: l10n.t('No Q&A was shown in search results in this range.'),
    qa: l10n.t('Q&A'),
    shown: l10n.t('Shown'),
    selected: l10n.t('Selected'),
    selectedRatio: l10n.t('Selected ratio'),
    /** {0}: a percentage. */
    selectedRatioValue: l10n.t('Selected ratio: {0}'),

    // Latest searches
    searchesTitle: l10n.t('Latest searches'),
    noSearches: l10n.t('No searches in this range.'),
    question: l10n.t('Question'),
    topAnswer: l10n.t('Top answer'),
    confidence: l10n.t('Confidence'),
    time: l10n.t('Time'),
    /** {0}: a Q&A id. */
    qaId: l10n.t('Q&A {0}'),
    noAnswer: l10n.t('No answer'),
    /** {0}: a percentage. */
    effectiveConfidence: l10n.t('Effective confidence (after feedback): {0}'),

    // Q&A feedback (faq_feedbacks)
    qaFeedbackTitle: l10n.t('Q&A feedback'),
    noQaFeedback: l10n.t('No feedback on Q&As yet.'),
    query: l10n.t('Query'),
    helpful: l10n.t('Helpful'),
    notHelpful: l10n.t('Not helpful'),

    // Answer feedback (mrc_feedbacks)
    answerFeedbackTitle: l10n.t('Answer feedback'),
    answer: l10n.t('Answer'),
    rating: l10n.t('Rating'),
    document: l10n.t('Document'),
    /** {0}: a document id. */
    documentId: l10n.t('Document {0}'),
    /** {0}: rated answers; {1}: helpful; {2}: not helpful. */
    answerFeedbackCounts: l10n.t('{0} rated answers: {1} helpful, {2} not helpful'),
    noAnswerFeedback: l10n.t('No answer feedback yet. Rate answers in the chat with the Helpful and Not helpful buttons.'),
    answerFeedbackNotOffered: l10n.t('This deployment does not offer the answer feedback history.'),
  };
}

export type AnalyticsStrings = ReturnType<typeof analyticsStrings>;
