// Every text of the Retrieval page, in the display language (WebviewPage.strings; the page reads them with
// src/webview/shared/strings.ts). @vscode/l10n's t, so unit tests build the page with them without a host.
import * as l10n from '@vscode/l10n';

export function retrievalStrings() {
  return {
    title: l10n.t('Retrieval'),
    description: l10n.t(
      'Run retrieval directly, tune its weights, and compare two settings on the same question. Click a result to open it at its page.',
    ),
    question: l10n.t('Question'),
    questionPlaceholder: l10n.t('Ask what the documents should answer…'),
    runBoth: l10n.t('Run A and B'),
    legend: l10n.t('In B: ↑/↓ places higher/lower than in A, new = not returned by A. In A: only A = not returned by B.'),
    /** {0}: the column, A or B. */
    columnLabel: l10n.t('Column {0}'),
    /** {0}: the column, A or B. */
    run: l10n.t('Run {0}'),
    reset: l10n.t('Reset'),
    /** {0}: the column, A or B. */
    resetLabel: l10n.t('Reset {0} to its default settings'),
    requestBody: l10n.t('Request body'),
    /** {0}: the column, A or B. */
    results: l10n.t('Results of {0}'),

    // Settings of a column
    keyword: l10n.t('Keyword (BM25)'),
    /** {0}: the request field, bm25_score_weight. */
    keywordHint: l10n.t('{0}; 0 turns keyword search off'),
    contentVectors: l10n.t('Content vectors'),
    titleVectors: l10n.t('Title vectors'),
    /** {0}: the request field. */
    vectorHint: l10n.t('{0}; 0 turns it off'),
    pagesReturned: l10n.t('Pages returned'),
    /** {0}: the request field, maxDocumentClues. */
    pagesHint: l10n.t('{0}: how many pages come back'),
    reranker: l10n.t('Reranker'),
    rerankerProject: l10n.t('project setting'),
    rerankerOn: l10n.t('on'),
    rerankerOff: l10n.t('off'),
    candidates: l10n.t('candidates'),
    /** {0}: the column, A or B. */
    candidatesLabel: l10n.t('Reranker candidates ({0})'),
    hashtags: l10n.t('Hashtags'),
    hashtagsPlaceholder: l10n.t('#handbook, #expenses'),
    /** {0}: the weights, e.g. 9/1/0. */
    presetService: l10n.t('Service weights {0}'),
    /** {0}: the weights, e.g. 9/0/0. */
    presetKeyword: l10n.t('Keyword only {0}'),
    /** {0}: the weights, e.g. 9/0/9. */
    presetCustom: l10n.t('Custom weights {0}'),

    // Running and results
    enterQuestion: l10n.t('Enter a question first.'),
    allWeightsZero: l10n.t('Set at least one weight above 0: with all three at 0 nothing is searched.'),
    running: l10n.t('Running…'),
    /** {0}: milliseconds. */
    oneResult: l10n.t('1 result in {0} ms'),
    /** {0}: number of results; {1}: milliseconds. */
    manyResults: l10n.t('{0} results in {1} ms'),
    noPages: l10n.t('No pages matched.'),
    /** {0}: why. */
    openFailed: l10n.t('Could not open the result: {0}'),
    openInViewer: l10n.t('Open in the citation viewer'),
    untitled: l10n.t('(untitled)'),
    /** {0}: a page number. */
    page: l10n.t('p. {0}'),
    /** {0}: rank; {1}: title; {2}: page number. */
    resultLabel: l10n.t('{0}. {1}, page {2}. Open in the citation viewer'),
    /** {0}: rank; {1}: title; {2}: page number; {3}: how it moved against A. */
    resultLabelMoved: l10n.t('{0}. {1}, page {2}, {3}. Open in the citation viewer'),
    markNew: l10n.t('new'),
    markOnlyA: l10n.t('only A'),
    oneHigher: l10n.t('1 place higher than in A'),
    /** {0}: places. */
    higher: l10n.t('{0} places higher than in A'),
    oneLower: l10n.t('1 place lower than in A'),
    /** {0}: places. */
    lower: l10n.t('{0} places lower than in A'),
    notInA: l10n.t('not in the results of A'),
    notInB: l10n.t('not in the results of B'),
  };
}

export type RetrievalStrings = ReturnType<typeof retrievalStrings>;
