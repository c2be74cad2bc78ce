// Every command id, view id and context key the extension uses, in one place (no vscode: a unit test
// checks them against package.json). Features import from here instead of writing the strings.

export const CommandIds = {
  connect: 'knowledgeDesk.connect',
  selectRegion: 'knowledgeDesk.selectRegion',
  setApiKey: 'knowledgeDesk.setApiKey',
  clearApiKey: 'knowledgeDesk.clearApiKey',
  setNluKey: 'knowledgeDesk.setNluKey',
  clearNluKey: 'knowledgeDesk.clearNluKey',
  setIdentity: 'knowledgeDesk.setIdentity',
  checkConnection: 'knowledgeDesk.checkConnection',
  showLog: 'knowledgeDesk.showLog',
  restartLocalService: 'knowledgeDesk.restartLocalService',
  chooseLocalWriterModel: 'knowledgeDesk.chooseLocalWriterModel',
  addConnection: 'knowledgeDesk.addConnection',
  renameConnection: 'knowledgeDesk.renameConnection',
  removeConnection: 'knowledgeDesk.removeConnection',
  switchConnection: 'knowledgeDesk.switchConnection',
  kb: {
    refresh: 'knowledgeDesk.kb.refresh',
    search: 'knowledgeDesk.kb.search',
    filterHashtags: 'knowledgeDesk.kb.filterHashtags',
    clearFilter: 'knowledgeDesk.kb.clearFilter',
    sort: 'knowledgeDesk.kb.sort',
    uploadHere: 'knowledgeDesk.kb.uploadHere',
    // View title: VS Code hands a title-bar command the view's focused element, so the title bar has commands
    // of its own that take no element (the ones above act on the element of a context menu).
    uploadToTopLevel: 'knowledgeDesk.kb.uploadToTopLevel',
    uploadToKnowledgeBase: 'knowledgeDesk.uploadToKnowledgeBase',
    uploadFromCloud: 'knowledgeDesk.kb.uploadFromCloud',
    uploadFromCloudToFolder: 'knowledgeDesk.kb.uploadFromCloudToFolder',
    replaceFile: 'knowledgeDesk.kb.replaceFile',
    move: 'knowledgeDesk.kb.move',
    delete: 'knowledgeDesk.kb.delete',
    copyId: 'knowledgeDesk.kb.copyId',
    showDetails: 'knowledgeDesk.kb.showDetails',
    loadMore: 'knowledgeDesk.kb.loadMore',
    newFolder: 'knowledgeDesk.kb.newFolder',
    newFolderAtTopLevel: 'knowledgeDesk.kb.newFolderAtTopLevel',
    rename: 'knowledgeDesk.kb.rename',
    deleteFolder: 'knowledgeDesk.kb.deleteFolder',
    editHashtags: 'knowledgeDesk.kb.editHashtags',
    turnOff: 'knowledgeDesk.kb.turnOff',
    turnOn: 'knowledgeDesk.kb.turnOn',
    openOriginal: 'knowledgeDesk.kb.openOriginal',
  },
  qna: {
    search: 'knowledgeDesk.qna.search',
    new: 'knowledgeDesk.qna.new',
    open: 'knowledgeDesk.qna.open',
    showAnalytics: 'knowledgeDesk.qna.showAnalytics',
    refresh: 'knowledgeDesk.qna.refresh',
    filterText: 'knowledgeDesk.qna.filterText',
    filterStatus: 'knowledgeDesk.qna.filterStatus',
    filterHashtags: 'knowledgeDesk.qna.filterHashtags',
    filterOrigin: 'knowledgeDesk.qna.filterOrigin',
    groupByFolder: 'knowledgeDesk.qna.groupByFolder',
    ungroup: 'knowledgeDesk.qna.ungroup',
    clearFilter: 'knowledgeDesk.qna.clearFilter',
    toggle: 'knowledgeDesk.qna.toggle',
    thumbsUp: 'knowledgeDesk.qna.thumbsUp',
    thumbsDown: 'knowledgeDesk.qna.thumbsDown',
    cancelFeedback: 'knowledgeDesk.qna.cancelFeedback',
    copyId: 'knowledgeDesk.qna.copyId',
    delete: 'knowledgeDesk.qna.delete',
    loadMore: 'knowledgeDesk.qna.loadMore',
    importFile: 'knowledgeDesk.qna.importFile',
    uploadFile: 'knowledgeDesk.qna.uploadFile',
    exportCsv: 'knowledgeDesk.qna.exportCsv',
  },
  candidates: {
    refresh: 'knowledgeDesk.candidates.refresh',
    loadMore: 'knowledgeDesk.candidates.loadMore',
    status: 'knowledgeDesk.candidates.status',
    order: 'knowledgeDesk.candidates.order',
    promote: 'knowledgeDesk.candidates.promote',
    addFromSelection: 'knowledgeDesk.candidates.addFromSelection',
  },
  answers: {
    ask: 'knowledgeDesk.answers.ask',
    askSelection: 'knowledgeDesk.answers.askSelection',
    askAboutFolderOrDocument: 'knowledgeDesk.answers.askAboutFolderOrDocument',
    newChat: 'knowledgeDesk.answers.newChat',
    exportChat: 'knowledgeDesk.answers.exportChat',
    openCitation: 'knowledgeDesk.answers.openCitation',
    openDocument: 'knowledgeDesk.answers.openDocument',
    showRetrieval: 'knowledgeDesk.answers.showRetrieval',
  },
  entities: {
    recognize: 'knowledgeDesk.entities.recognize',
    recognizeNextPart: 'knowledgeDesk.entities.recognizeNextPart',
    clear: 'knowledgeDesk.entities.clear',
    list: 'knowledgeDesk.entities.list',
    teachPhrase: 'knowledgeDesk.entities.teachPhrase',
  },
  jobs: {
    refresh: 'knowledgeDesk.jobs.refresh',
    startBuild: 'knowledgeDesk.jobs.startBuild',
    startGenerate: 'knowledgeDesk.jobs.startGenerate',
    cancel: 'knowledgeDesk.jobs.cancel',
    openResult: 'knowledgeDesk.jobs.openResult',
    saveResult: 'knowledgeDesk.jobs.saveResult',
    deleteResult: 'knowledgeDesk.jobs.deleteResult',
    runBulk: 'knowledgeDesk.jobs.runBulk',
    loadMoreBulk: 'knowledgeDesk.jobs.loadMoreBulk',
  },
  tests: {
    showHistory: 'knowledgeDesk.tests.showHistory',
    generateFromQnas: 'knowledgeDesk.tests.generateFromQnas',
  },
  promote: {
    copyQnas: 'knowledgeDesk.promote.copyQnas',
    compareQnas: 'knowledgeDesk.promote.compareQnas',
    copyDocuments: 'knowledgeDesk.promote.copyDocuments',
    compareDocuments: 'knowledgeDesk.promote.compareDocuments',
  },
} as const;

type Leaves<T> = T extends string ? T : { [K in keyof T]: Leaves<T[K]> }[keyof T];
export type CommandId = Leaves<typeof CommandIds>;

/** Tree views contributed in package.json. */
export const ViewIds = {
  knowledgeBase: 'knowledgeDesk.knowledgeBase',
  qna: 'knowledgeDesk.qna',
  candidates: 'knowledgeDesk.candidates',
  jobs: 'knowledgeDesk.jobs',
} as const;

/** Context keys set with setContext() and read in `when` clauses of package.json. */
export const ContextKeys = {
  hasKey: 'knowledgeDesk.hasKey',
  connectionState: 'knowledgeDesk.connectionState',
  region: 'knowledgeDesk.region',
  kbFiltered: 'knowledgeDesk.kb.filtered',
  kbDeleteUnsupported: 'knowledgeDesk.kb.deleteUnsupported',
  // One per optional operation, true once the current region's deployment answered 404/405 for it
  // (src/api/offers.ts; set by src/platform/offerContext.ts, re-read when the region changes).
  kbNoFolderCreate: 'knowledgeDesk.kb.noFolderCreate',
  kbNoFolderRename: 'knowledgeDesk.kb.noFolderRename',
  kbNoFolderDelete: 'knowledgeDesk.kb.noFolderDelete',
  kbNoNodeUpdate: 'knowledgeDesk.kb.noNodeUpdate',
  kbNoToggle: 'knowledgeDesk.kb.noToggle',
  kbNoDownload: 'knowledgeDesk.kb.noDownload',
  qnaFiltered: 'knowledgeDesk.qna.filtered',
  qnaByFolder: 'knowledgeDesk.qna.byFolder',
  entitiesHasEntities: 'knowledgeDesk.entities.hasEntities',
  entitiesHasNextPart: 'knowledgeDesk.entities.hasNextPart',
  /** Read by the walkthrough's completionEvents (onContext:…), set by src/platform/walkthrough.ts. */
  walkthroughUploaded: 'knowledgeDesk.walkthrough.uploaded',
  walkthroughCitationOpened: 'knowledgeDesk.walkthrough.citationOpened',
  walkthroughImported: 'knowledgeDesk.walkthrough.imported',
  /**
   * True while the language model tools are registered (knowledgeDesk.ai.enabled on, and not replaced by the MCP
   * server definition): their `when`, so VS Code lists each tool once. One positive key on purpose: VS Code 1.100
   * fails to send the tool list to extensions when a tool's `when` holds a negation (a circular structure).
   */
  aiLmTools: 'knowledgeDesk.ai.lmTools',
} as const;

/** The Get Started walkthrough: `<publisher>.<name>#<id>`, as workbench.action.openWalkthrough takes it. */
export const WALKTHROUGH_ID = 'knowledge-desk.knowledge-desk#gettingStarted';
