// Every text of the Q&A editor page (src/webview/qaEditor), in the display language. The panel renders them
// into the page (WebviewPage.strings); the page only imports the type. @vscode/l10n, not vscode: this builder
// also runs in plain Node in unit tests (src/platform/l10n.ts hands @vscode/l10n the bundle at activation).
// The draft's error messages are here too: qaDraft.ts fills them on the page and on the host alike.
import * as l10n from '@vscode/l10n';

export function qaEditorStrings() {
  return {
    // Header and toolbar
    newQa: l10n.t('New Q&A'),
    loadingQa: l10n.t('Loading Q&A…'),
    unsavedChanges: l10n.t('Unsaved changes'),
    statusOn: l10n.t('On'),
    statusOff: l10n.t('Off'),
    actions: l10n.t('Q&A actions'),
    save: l10n.t('Save'),
    /** {0}: the shortcut, e.g. Ctrl+S. */
    saveTip: l10n.t('Save ({0})'),
    turnOff: l10n.t('Turn Off'),
    turnOn: l10n.t('Turn On'),
    turnOffTip: l10n.t('Stop using this Q&A in search (saved at once)'),
    turnOnTip: l10n.t('Use this Q&A in search (saved at once)'),
    copyId: l10n.t('Copy ID'),
    reload: l10n.t('Reload'),
    reloadTip: l10n.t('Discard unsaved changes and load the Q&A from the service'),
    delete: l10n.t('Delete'),
    working: l10n.t('Working…'),
    metaCreated: l10n.t('Created {0}'),
    metaUpdated: l10n.t('Updated {0}'),
    metaFolder: l10n.t('Folder {0}'),
    // Feedback
    feedback: l10n.t('Feedback'),
    helpful: l10n.t('Helpful'),
    notHelpful: l10n.t('Not helpful'),
    clearFeedback: l10n.t('Clear mine'),
    clearFeedbackTip: l10n.t('Cancel the feedback you gave'),
    /** {0}: agents' and users' votes together, {1}: agents', {2}: users'. */
    helpfulCounts: l10n.t('{0} helpful (agents {1}, users {2})'),
    notHelpfulCounts: l10n.t('{0} not helpful (agents {1}, users {2})'),
    /** {0}: helpfulCounts. */
    helpfulTip: l10n.t('Mark as helpful. So far: {0}'),
    notHelpfulTip: l10n.t('Mark as not helpful. So far: {0}'),
    helpfulLabel: l10n.t('Helpful, {0}'),
    notHelpfulLabel: l10n.t('Not helpful, {0}'),
    // Notices
    restored: l10n.t('Restored your unsaved changes.'),
    discardChanges: l10n.t('Discard changes'),
    copiedId: l10n.t('Copied the ID to the clipboard.'),
    deleted: l10n.t('Deleted. This editor closes.'),
    feedbackCleared: l10n.t('Your feedback was cleared.'),
    feedbackRecorded: l10n.t('Thanks: your feedback was recorded.'),
    nothingToSave: l10n.t('Nothing to save: no field changed.'),
    created: l10n.t('Created the Q&A.'),
    saved: l10n.t('Saved.'),
    hashtagsChosenNone: l10n.t('No hashtags chosen.'),
    hashtagsChosenOne: l10n.t('1 hashtag chosen.'),
    hashtagsChosenMany: l10n.t('{0} hashtags chosen.'),
    // Preview
    answerPreview: l10n.t('Answer preview'),
    previewEmpty: l10n.t('The answer appears here as you type.'),
    blockedImageOne: l10n.t('1 image not shown: remote images are blocked (setting knowledgeDesk.webview.allowRemoteImages).'),
    blockedImagesMany: l10n.t('{0} images not shown: remote images are blocked (setting knowledgeDesk.webview.allowRemoteImages).'),
    // The form
    questionAndAnswer: l10n.t('Question and answer'),
    details: l10n.t('Details'),
    question: l10n.t('Question'),
    questionPlaceholder: l10n.t('How do I reset my password?'),
    answer: l10n.t('Answer'),
    answerPlaceholder: l10n.t('The answer, as HTML or plain text'),
    answerDescription: l10n.t('HTML or plain text. The preview shows it as readers will see it, with anything unsafe removed.'),
    similarQuestions: l10n.t('Similar questions'),
    /** {0}: the most similar questions a Q&A may have. */
    similarDescription: l10n.t('Other wordings that share this answer (up to {0}). Enter adds a row; Up and Down move between rows.'),
    similarPlaceholder: l10n.t('Another way to ask the same question'),
    /** {0}: the row's number. */
    similarItem: l10n.t('Similar question {0}'),
    removeSimilar: l10n.t('Remove similar question {0}'),
    addSimilar: l10n.t('Add similar question'),
    remove: l10n.t('Remove'),
    memo: l10n.t('Memo'),
    memoPlaceholder: l10n.t('A note for other agents (optional)'),
    memoDescription: l10n.t(
      'Shared with agents. The service stores the memo when the Q&A is created but never returns it, so it cannot be shown or edited later.',
    ),
    status: l10n.t('Status'),
    statusOnText: l10n.t('On: used in search'),
    statusOffText: l10n.t('Off: stored, not used in search'),
    hashtags: l10n.t('Hashtags'),
    hashtagPlaceholder: l10n.t('Add a hashtag, then Enter'),
    hashtagDescription: l10n.t('Enter or a comma adds one. Left arrow reaches the hashtags; Delete removes the one focused.'),
    /** {0}: the hashtag without #. */
    removeHashtag: l10n.t('Remove hashtag {0}'),
    chooseHashtags: l10n.t('Choose…'),
    chooseHashtagsTip: l10n.t('Choose from the hashtags in use'),
    folder: l10n.t('Folder'),
    folderPlaceholder: l10n.t('Folder name (optional)'),
    visibility: l10n.t('Visibility'),
    otherAgentsView: l10n.t('Other agents may view (besides its editors and viewers)'),
    otherUsersView: l10n.t('Other users may view (besides its viewer list)'),
    // Errors next to the fields (qaDraft.ts; numbers already formatted)
    enterQuestion: l10n.t('Enter the question.'),
    enterAnswer: l10n.t('Enter the answer.'),
    /** {0}: characters, {1}: the limit. */
    questionTooLong: l10n.t('The question is {0} characters long; the limit is {1}.'),
    answerTooLong: l10n.t('The answer is {0} characters long; the limit is {1}.'),
    /** {0}: the row's number, {1}: characters, {2}: the limit. */
    similarTooLong: l10n.t('Similar question {0} is {1} characters long; the limit is {2}.'),
    folderTooLong: l10n.t('The folder name is {0} characters long; the limit is {1}.'),
    memoTooLong: l10n.t('The memo is {0} characters long; the limit is {1}.'),
    /** {0}: how many, {1}: the limit. */
    tooManySimilar: l10n.t('{0} similar questions; at most {1} are allowed.'),
    tooManyHashtags: l10n.t('{0} hashtags; at most {1} are allowed.'),
    /** {0}: the start of the hashtag, {1}: the limit. */
    hashtagTooLong: l10n.t('#{0}… is longer than {1} characters.'),
  };
}

export type QaEditorStrings = ReturnType<typeof qaEditorStrings>;
