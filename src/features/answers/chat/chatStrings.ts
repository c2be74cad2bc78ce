// Every text of the chat page (src/webview/chat), in the display language. @vscode/l10n's t, not vscode.l10n.t,
// so the builder also runs in unit tests without a host (platform/l10n.ts hands it VS Code's bundle at
// activation); `npm run l10n` extracts both. The panel passes chatStrings() as its page's `strings`.
import * as l10n from '@vscode/l10n';

export function chatStrings() {
  return {
    // Header
    conversation: l10n.t('Conversation'),
    recentConversations: l10n.t('Recent conversations in this workspace'),
    newChat: l10n.t('New Chat'),
    newChatTitle: l10n.t('Start a new conversation'),
    /** The title of a conversation without a question yet. */
    untitledChat: l10n.t('New chat'),
    /** {0}: a conversation's title. */
    emptyConversation: l10n.t('{0} (empty)'),
    exportChat: l10n.t('Export'),
    exportChatTitle: l10n.t('Export this conversation as Markdown'),
    deleteConversation: l10n.t('Delete this conversation'),
    threadHint: l10n.t('Follow-ups start a new thread until an Own user ID is set (conversation threads need OWN-USER-ID).'),
    setOwnUserId: l10n.t('Set Own User ID…'),
    emptyTitle: l10n.t('Ask Knowledge Desk'),
    emptyText: l10n.t('Answers are generated from your knowledge base, with numbered sources you can open.'),
    // Composer
    questionPlaceholder: l10n.t('Ask a question about your knowledge base…'),
    question: l10n.t('Question'),
    send: l10n.t('Send'),
    sendTitle: l10n.t('Send (Enter)'),
    stop: l10n.t('Stop'),
    stopTitle: l10n.t('Stop the answer (Escape)'),
    composeHelp: l10n.t('Enter to send · Shift+Enter for a new line · Escape to stop an answer'),
    /** {0}: characters in the question, {1}: the most that can be sent. */
    questionCount: l10n.t('{0} / {1} characters'),
    /** {0}: characters in the question, {1}: the most that can be sent. */
    questionTooLong: l10n.t('The question is {0} characters long; at most {1} can be sent. Shorten it, then send it.'),
    // Options
    options: l10n.t('Options'),
    scope: l10n.t('Scope'),
    choose: l10n.t('Choose…'),
    wholeKnowledgeBase: l10n.t('Whole knowledge base'),
    folder: l10n.t('Folder'),
    document: l10n.t('Document'),
    /** {0}: Folder or Document, {1}: its name, {2}: its id. */
    scopeItemTitle: l10n.t('{0} {1} ({2})'),
    /** {0}: a folder's or document's name. */
    removeFromScope: l10n.t('Remove {0} from the scope'),
    remove: l10n.t('Remove'),
    sources: l10n.t('Sources'),
    sourceDocuments: l10n.t('Documents'),
    sourceQna: l10n.t('Q&A'),
    sourceWeb: l10n.t('Web'),
    hashtags: l10n.t('Hashtags'),
    hashtagsPlaceholder: l10n.t('e.g. policy, 経費'),
    hashtagsOperator: l10n.t('Documents must have'),
    anyOfThem: l10n.t('any of them'),
    allOfThem: l10n.t('all of them'),
    model: l10n.t('Model'),
    modelPlaceholder: l10n.t('Service default'),
    temperature: l10n.t('Temperature'),
    temperatureHelp: l10n.t('0 is focused and repeatable; higher is more varied.'),
    summaryWholeKnowledgeBase: l10n.t('whole knowledge base'),
    summaryDocuments: l10n.t('documents'),
    summaryWeb: l10n.t('web'),
    summaryDefaultSources: l10n.t('default sources'),
    /** {0}: the temperature, e.g. 0.3. */
    summaryTemperature: l10n.t('temperature {0}'),
    // A turn
    /** {0}: the question (its start). */
    questionLabel: l10n.t('Question: {0}'),
    answering: l10n.t('Answering…'),
    emptyAnswer: l10n.t('The service sent an empty answer.'),
    stopped: l10n.t('Stopped. The answer above is incomplete.'),
    answerFailed: l10n.t('The answer failed.'),
    retry: l10n.t('Retry'),
    suggestedFollowUp: l10n.t('Suggested follow-up'),
    followUpTitle: l10n.t('Ask this next, in the same conversation'),
    modelTitle: l10n.t('Model that produced this answer'),
    feedbackGroup: l10n.t('Was this answer helpful?'),
    helpful: l10n.t('Helpful'),
    notHelpful: l10n.t('Not helpful'),
    /** {0}: Helpful or Not helpful. */
    feedbackPressed: l10n.t('{0} (press again to cancel)'),
    /** {0}: Helpful or Not helpful. */
    feedbackPressedTitle: l10n.t('{0}: press again to cancel'),
    /** {0}: the button's label, {1}: how many gave it. */
    feedbackCount: l10n.t('{0}, {1} in all'),
    // Sources
    /** {0}: the citation number. */
    sourceMarker: l10n.t('Source {0}'),
    /** {0}: how many sources. */
    sourcesCount: l10n.t('Sources ({0})'),
    /** {0}: the source's title. */
    openSource: l10n.t('Open {0}'),
    /** {0}: the source's title, {1}: the page number. */
    openSourcePage: l10n.t('Open {0}, page {1}'),
    /** {0}: the citation number, {1}: its title, {2}: its kind and page. */
    sourceLabel: l10n.t('Source {0}: {1}, {2}'),
    sourceListHelp: l10n.t('Up and Down arrows move between sources; Enter opens one.'),
    kindDocument: l10n.t('Document'),
    kindQna: l10n.t('Q&A'),
    kindWeb: l10n.t('Web'),
    /** {0}: a page number. */
    pageNumber: l10n.t('page {0}'),
    // Said by screen readers once an answer has finished (never while it streams).
    /** {0}: the answer's text. */
    announceAnswer: l10n.t('Answer finished: {0}'),
    announceOneSource: l10n.t('1 source.'),
    /** {0}: how many sources. */
    announceSources: l10n.t('{0} sources.'),
    announceStopped: l10n.t('Answer stopped. What arrived is kept.'),
    announceEmpty: l10n.t('Answer finished, but the service sent no text.'),
  };
}

export type ChatStrings = ReturnType<typeof chatStrings>;
