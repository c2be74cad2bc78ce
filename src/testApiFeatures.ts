// The test facade's views of the chat, the citation viewer, the AI registrations, the Q&A and Jobs views, the
// Q&A editor and the Test Explorer (src/testApi.ts, the test build only): what a user or VS Code sees of them and
// the events they fire, rather than the features' own objects, so a test cannot call into a feature's insides.
import type * as vscode from 'vscode';
import type { AiFeature } from './features/ai/aiFeature';
import { AiServices, type AiWindow } from './features/ai/aiServices';
import type { AnswersFeature } from './features/answers/answersFeature';
import type { AnswersViewers } from './features/answers/answersViewers';
import type { ChatPanel } from './features/answers/chat/chatPanel';
import type { ConversationStore } from './features/answers/chat/conversationStore';
import type { CitationPanels } from './features/answers/citations/citationPanel';
import type { JobNotification } from './features/jobs/jobNotifier';
import type { JobsFeature } from './features/jobs/jobsFeature';
import type { JobsPoll } from './features/jobs/jobsMonitor';
import type { JobsStore } from './features/jobs/jobsStore';
import type { JobsElement, JobsTreeProvider } from './features/jobs/jobsTree';
import type { KnowledgeTestsFeature } from './features/knowledgeTests/knowledgeTestsFeature';
import type { KnowledgeTestSession } from './features/knowledgeTests/testSession';
import type { CandidatesView } from './features/qna/candidatesView';
import type { AnalyticsPanels } from './features/qna/analytics/analyticsPanel';
import type { QaEditorPanels } from './features/qna/editor/qaEditorPanels';
import type { QnaFeature } from './features/qna/qnaFeature';
import type { QnaTreeProvider } from './features/qna/qnaTreeProvider';
import type { QnaFilter } from './features/qna/qnaTreeModel';
import type { QnaWebviews } from './features/qna/qnaWebviews';

/** The chat panel and its saved conversations. */
export interface ChatTestView {
  /** The open chat panel, if any. */
  readonly current: ChatPanel | undefined;
  /** The chat panel pinned to that connection, if open (a chat that stays on its connection after a switch). */
  panelOf(connectionId: string): ChatPanel | undefined;
  /** The saved conversations, as read back. */
  conversations: Pick<ConversationStore, 'list' | 'findTurn'>;
  /** Closes the panel and forgets every conversation: what a first chat in a new workspace finds. */
  forgetAll(): Promise<void>;
  /** What VS Code does after a restart: a panel of the chat's view type and the page's saved state. */
  restore: AnswersFeature['restore'];
}

/** The citation viewers open now, the newest last. */
export type CitationsTestView = Pick<CitationPanels, 'panels' | 'last' | 'restore'>;

/** The @knowledge participant, the language model tools and the MCP server definition. */
export interface AiTestView {
  /** What is registered with VS Code now. */
  readonly registered: Readonly<AiFeature['registered']>;
  /** The participant's handler, as the chat UI calls it. */
  chatHandler: vscode.ChatRequestHandler;
  /** Opens a chat link (a citation anchor) as VS Code does when it is clicked. */
  openLink(uri: vscode.Uri): Promise<void>;
  /** The product's services over another window's connection, settings and secrets. */
  servicesOver(window: AiWindow): AiServices;
}

/** The Q&A view and the Candidates view, as VS Code and a user see them. */
export interface QnaTestView {
  tree: Pick<QnaTreeProvider, 'getChildren' | 'getTreeItem' | 'onDidChangeTreeData'>;
  candidates: Pick<CandidatesView, 'getChildren' | 'getTreeItem' | 'onDidChangeTreeData'>;
  view: Pick<vscode.TreeView<unknown>, 'description'>;
  /** The filter the view applies, and whether any is set. */
  readonly filter: Readonly<QnaFilter>;
  readonly filtered: boolean;
}

/** The Jobs view, its status bar and notifications: what they show and the events they fire. */
export interface JobsTestView {
  tree: Pick<JobsTreeProvider, 'getChildren' | 'getTreeItem' | 'bulkResult' | 'onDidChangeTreeData'>;
  view: Pick<vscode.TreeView<JobsElement>, 'reveal' | 'visible'>;
  /** What the last polls found. */
  results: Readonly<Pick<JobsStore, 'bulk' | 'bulkResult' | 'rareResults'>>;
  /** Something runs, or was just started and not seen yet. */
  readonly active: boolean;
  /** The poller: a timer set, a poll in flight, whether it has a reason to poll, and its re-check. */
  polling: { readonly scheduled: boolean; readonly inFlight: boolean; wanted(): boolean; update(): void };
  onDidPoll: vscode.Event<JobsPoll>;
  /** The status-bar text at each change (undefined: hidden). */
  onDidChangeStatusText: vscode.Event<string | undefined>;
  onDidNotify: vscode.Event<JobNotification>;
}

/** The Test Explorer's session: its tests, run profiles, history and finished runs. */
export type KnowledgeTestsSessionView = Pick<
  KnowledgeTestSession,
  'tree' | 'profiles' | 'connectionProfiles' | 'historyState' | 'onDidFinishRun'
>;

export interface KnowledgeTestsTestView {
  /** The session once a test file (or the Test Explorer) brought it, else undefined. */
  readonly active: KnowledgeTestsSessionView | undefined;
  /** The session, created now if none is. */
  session(): KnowledgeTestsSessionView;
}

export function chatTestView(answers: AnswersFeature): ChatTestView {
  return {
    get current() {
      return answers.current;
    },
    panelOf: (id) => answers.panelOf(id),
    conversations: {
      list: () => answers.store.list(),
      findTurn: (id) => answers.store.findTurn(id),
    },
    forgetAll: async () => {
      answers.current?.dispose();
      for (const c of answers.store.list()) answers.store.delete(c.id);
      await answers.store.save();
    },
    restore: (panel, state) => answers.restore(panel, state),
  };
}

export function citationsTestView(viewers: AnswersViewers): CitationsTestView {
  return {
    get panels() {
      return viewers.citations.panels;
    },
    get last() {
      return viewers.citations.last;
    },
    restore: (panel, state) => viewers.citations.restore(panel, state),
  };
}

export function aiTestView(ai: AiFeature): AiTestView {
  return {
    get registered() {
      return { ...ai.registered };
    },
    chatHandler: (...args) => ai.chatHandler(...args),
    openLink: (uri) => ai.chatLinks.handleUri(uri),
    servicesOver: (window) => new AiServices(window, ai.chatLinks),
  };
}

export function qnaTestView(qna: QnaFeature): QnaTestView {
  return {
    tree: qna.tree,
    candidates: qna.candidates,
    view: qna.view,
    get filter() {
      return qna.model.filter;
    },
    get filtered() {
      return qna.model.filtered;
    },
  };
}

export function qnaEditorsTestView(webviews: QnaWebviews): Pick<QaEditorPanels, 'get' | 'onDidSave' | 'restore' | 'panels'> {
  return {
    get: (faqId) => webviews.editor.get(faqId),
    onDidSave: webviews.editor.onDidSave,
    restore: (panel, state) => webviews.editor.restore(panel, state),
    get panels() {
      return webviews.editor.panels;
    },
  };
}

/** The analytics panels: restored as VS Code would after a restart, and those open. */
export function analyticsTestView(webviews: QnaWebviews): Pick<AnalyticsPanels, 'restore' | 'all'> {
  return {
    restore: (panel, state) => webviews.analytics.restore(panel, state),
    get all() {
      return webviews.analytics.all;
    },
  };
}

export function jobsTestView(jobs: JobsFeature): JobsTestView {
  return {
    tree: jobs.tree,
    view: jobs.view,
    results: {
      get bulk() {
        return jobs.store.bulk;
      },
      get rareResults() {
        return jobs.store.rareResults;
      },
      bulkResult: (id) => jobs.store.bulkResult(id),
    },
    get active() {
      return jobs.active;
    },
    polling: {
      get scheduled() {
        return jobs.poller.scheduled;
      },
      get inFlight() {
        return jobs.poller.polling;
      },
      wanted: () => jobs.monitor.shouldPoll(),
      update: () => jobs.poller.update(),
    },
    onDidPoll: jobs.monitor.onDidPoll,
    onDidChangeStatusText: jobs.status.onDidChangeText,
    onDidNotify: jobs.notifier.onDidNotify,
  };
}

export function knowledgeTestsTestView(tests: KnowledgeTestsFeature): KnowledgeTestsTestView {
  return {
    get active() {
      return tests.active;
    },
    session: () => tests.session(),
  };
}
