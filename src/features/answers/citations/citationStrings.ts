// Every text of the citation viewer page (src/webview/citation), in the display language. @vscode/l10n's t, not
// vscode.l10n.t, so the builder also runs in unit tests without a host; the panel passes citationStrings() as
// its page's `strings`.
import * as l10n from '@vscode/l10n';

export function citationStrings() {
  return {
    citation: l10n.t('Citation'),
    citedPassage: l10n.t('Cited passage'),
    kindPdf: l10n.t('PDF'),
    kindText: l10n.t('Text'),
    kindFallback: l10n.t('Passage only'),
    loadingDocument: l10n.t('Loading the document…'),
    loading: l10n.t('Loading'),
    retry: l10n.t('Retry'),
    /** {0}: a page number. */
    page: l10n.t('Page {0}'),
    pageNotGiven: l10n.t('Page not given'),
    /** {0}: the cited page, {1}: how many pages. */
    citedPageOf: l10n.t('Cited page {0} of {1}'),
    onePage: l10n.t('1 page'),
    /** {0}: how many pages. */
    pages: l10n.t('{0} pages'),
    pdfPreviewFromService: l10n.t('PDF preview from the service'),
    pdfFromKnowledgeBase: l10n.t('PDF from the knowledge base'),
    /** {0}: why (pdfjs' message). */
    pdfNotShown: l10n.t('The PDF could not be shown: {0}'),
    highlightedByService: l10n.t('highlighted by the service'),
    foundByText: l10n.t('passage found by its text'),
    noHighlight: l10n.t('no highlight on this page'),
    pdfPreview: l10n.t('PDF preview'),
    pdf: l10n.t('PDF'),
    /** {0}: PDF or PDF preview, {1}: the page, {2}: how many pages, {3}: how the passage is highlighted. */
    pdfMeta: l10n.t('{0} · page {1} of {2} · {3}'),
    // Fallback view
    document: l10n.t('Document'),
    pageLabel: l10n.t('Page'),
    notGiven: l10n.t('not given'),
    source: l10n.t('Source'),
    noPassageText: l10n.t('The citation carries no passage text.'),
    // Text view
    cited: l10n.t('cited'),
    passageNotFoundInText: l10n.t('The passage could not be found in the document’s text: it is shown above.'),
    /** {0}: where it was found, {1}: the cited page. */
    passageOnOtherPage: l10n.t('The passage was found on page {0}, not on the cited page {1}.'),
    passageDiffers: l10n.t('The passage differs from the document’s text: the closest part is marked.'),
    // PDF toolbar and page
    previousPage: l10n.t('Previous page'),
    previous: l10n.t('‹ Prev'),
    nextPage: l10n.t('Next page'),
    next: l10n.t('Next ›'),
    pageNumber: l10n.t('Page number'),
    /** {0}: how many pages. */
    ofPages: l10n.t('of {0}'),
    zoom: l10n.t('Zoom'),
    zoomIn: l10n.t('Zoom in'),
    zoomOut: l10n.t('Zoom out'),
    fitWidth: l10n.t('Fit width'),
    backToCited: l10n.t('Back to cited page'),
    toolbar: l10n.t('Page navigation and zoom'),
    pdfPage: l10n.t('PDF page'),
    /** {0}: the page, {1}: how many pages. */
    pageOf: l10n.t('Page {0} of {1}'),
    /** {0}: the cited page, {1}: how many pages the document has. */
    citedPageMissing: l10n.t('The cited page {0} is not in this document ({1} pages); showing page 1.'),
    foundOnPage: l10n.t('The service gave no highlight for this passage: it was found on the page by its text.'),
    notFoundOnPage: l10n.t(
      'The service gave no highlight, and the passage could not be found in this page’s text: it is shown above the page.',
    ),
    // What a screen reader hears of the page shown (a polite live region) and reads as the page's name.
    /** {0}: the page, {1}: how many pages, {2}: the highlighted passage. */
    pageStatusHighlighted: l10n.t('Page {0} of {1}, passage highlighted: {2}'),
    /** {0}: the page, {1}: how many pages. */
    pageStatusNoHighlight: l10n.t('Page {0} of {1}, no passage highlighted.'),
  };
}

export type CitationStrings = ReturnType<typeof citationStrings>;
