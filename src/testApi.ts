// The integration tests' view of the running extension, in the test build only: extension.ts require()s this
// file behind `globalThis.__KD_TEST__` (src/testBuild.d.ts) and returns what it builds from activate(), in the
// way the Azure extensions keep their src/testApi.ts. Other builds return nothing and contain none of it.
import * as vscode from 'vscode';
import type { Container } from './container';
import type { AiFeature } from './features/ai/aiFeature';
import type { AnswersFeature } from './features/answers/answersFeature';
import type { AnswersViewers } from './features/answers/answersViewers';
import { ConnectionManager } from './platform/connection/connectionManager';
import type { LocalServiceHost } from './platform/connection/localServiceHost';
import type { Logger, Log } from './platform/logger';
import type { Secrets } from './platform/secrets';
import { AiServices } from './features/ai/aiServices';
import type { McpProviderDeps } from './features/ai/mcpProvider';
import type { LocalWriterSource } from './platform/localWriter/localWriterSource';
import type { IgnoredWorkspaceValue, Settings } from './platform/settings';
import type { ConnectionFeature } from './features/connection/connectionFeature';
import type { EntitiesFeature } from './features/entities/entitiesFeature';
import type { JobsFeature } from './features/jobs/jobsFeature';
import type { KnowledgeBaseFeature } from './features/knowledgeBase/knowledgeBaseFeature';
import type { KnowledgeTestsFeature } from './features/knowledgeTests/knowledgeTestsFeature';
import type { QnaFeature } from './features/qna/qnaFeature';
import type { QnaWebviews } from './features/qna/qnaWebviews';
import { getContext } from './platform/contextKeys';
import { DisposableStore } from './platform/lifecycle';
import { WindowUserInput, type UserInput } from './platform/userInput';
import { onDidCreatePanelHost, type WebviewPanelHost } from './platform/webview/webviewPanel';
import type { PageProtocol } from './platform/webview/protocol';
import { entitiesTestView, type EntitiesTestView } from './testApiEntities';
import { knowledgeBaseTestView, type KnowledgeBaseTestView } from './testApiKnowledgeBase';
import {
  aiTestView,
  chatTestView,
  citationsTestView,
  jobsTestView,
  knowledgeTestsTestView,
  qnaEditorsTestView,
  analyticsTestView,
  qnaTestView,
  type AiTestView,
  type ChatTestView,
  type CitationsTestView,
  type JobsTestView,
  type KnowledgeTestsTestView,
  type QnaTestView,
} from './testApiFeatures';
import type { AnalyticsPanels } from './features/qna/analytics/analyticsPanel';
import type { QaEditorPanels } from './features/qna/editor/qaEditorPanels';
import { ProbeKeys, TestProbe, type Ring } from './testProbe';

/** What activation took, step by step (also in the log). */
export interface ActivationTimings {
  activationMs: number;
  activationCpuMs: number;
  firstConnectedMs?: number;
  steps: Record<string, number>;
  /** CPU time of each step: on a busy machine a step's wall time mostly measures waiting for a core. */
  stepsCpu: Record<string, number>;
  /** Loading dist/main.js by dist/extension.js, before activate() ran; and whether the code cache served it. */
  mainLoadMs?: number;
  codeCache?: 'hit' | 'miss' | 'rejected' | 'off';
}

/** The features activate() built (the facade's views read them; tests never reach them directly). */
export interface ActivatedFeatures {
  connection: ConnectionFeature;
  knowledgeBase: KnowledgeBaseFeature;
  qna: QnaFeature;
  qnaWebviews: QnaWebviews;
  answers: AnswersFeature;
  answersViewers: AnswersViewers;
  jobs: JobsFeature;
  entities: EntitiesFeature;
  ai: AiFeature;
  knowledgeTests: KnowledgeTestsFeature;
}

/** What activate() returns in the test build: what integration tests observe and drive. */
export interface KnowledgeDeskTestApi {
  /** What tests observe (errors shown, what pages drew …): the product's events, recorded. */
  probe: TestProbe;
  /** The window's connection: its state and client, as the views read them. */
  connection: Pick<
    ConnectionManager,
    | 'status'
    | 'isUsed'
    | 'getClient'
    | 'onDidChangeStatus'
    | 'onDidChangeClient'
    | 'store'
    | 'active'
    | 'loaded'
    | 'createClient'
    | 'endpoints'
  >;
  /** A connection manager as the first start after an upgrade builds it: this window's settings, keys and service, over `globalState`. */
  connectionManagerOver(globalState: vscode.Memento): ConnectionManager;
  /** The MCP server definition's inputs, as the provider reads them (a new reader each call). */
  mcpDeps(): McpProviderDeps;
  /** The Local region's service: where it listens (url, key), whether it runs, its data folder. */
  localService: Pick<LocalServiceHost, 'current' | 'isStarted' | 'dataDir'>;
  /** Which language model, if any, writes the local service's answers. */
  localWriter: Pick<LocalWriterSource, 'mode' | 'current'>;
  secrets: Secrets;
  /** The extension's settings and log (tests that build a second window's services need them whole). */
  settings: Settings;
  logger: Logger;
  log(component: string): Log;
  context: vscode.ExtensionContext;
  /** The chat panel and its saved conversations. */
  chat: ChatTestView;
  /** The citation viewers. */
  citations: CitationsTestView;
  /** The @knowledge participant, the tools and the MCP definition. */
  ai: AiTestView;
  /** The Q&A and Candidates views. */
  qna: QnaTestView;
  /** The open Q&A editors, by Q&A id. */
  qnaEditors: Pick<QaEditorPanels, 'get' | 'onDidSave' | 'restore' | 'panels'>;
  /** The Q&A analytics panels. */
  analytics: Pick<AnalyticsPanels, 'restore' | 'all'>;
  /** The Jobs view, its status bar and notifications. */
  jobs: JobsTestView;
  /** The Test Explorer's knowledge tests. */
  knowledgeTests: KnowledgeTestsTestView;
  /** Entity recognition, as the editor shows it. */
  entities: EntitiesTestView;
  /** The connection's status bar item, as shown. */
  connectionStatusBar: Readonly<vscode.StatusBarItem>;
  /** Settings a workspace may not set: check again, what was found, and the notices shown (onDidNotify). */
  workspaceSettings: { check(): Promise<void>; readonly found: readonly IgnoredWorkspaceValue[]; notices: Ring<string> };
  /** The Knowledge Base view, as VS Code and a user see it. */
  knowledgeBase: KnowledgeBaseTestView;
  timings: ActivationTimings;
  /** Value of a context key this extension set (the test bundle has its own module instances). */
  contextKey(key: string): unknown;
  /** Answers the extension's prompts from `ui` (test/integration/support/scriptedUserInput.ts); undefined: the window's again. */
  setUserInput(ui: UserInput | undefined): void;
  /** Has the local service wait `ms` between answer stream lines (0: no pause), to see a chat answer mid-stream. */
  setStreamDelay(ms: number): Promise<void>;
}

export function createTestApi(container: Container, activated: ActivatedFeatures, timings: ActivationTimings): KnowledgeDeskTestApi {
  const probe = new TestProbe();
  const subscriptions = new DisposableStore();
  container.context.subscriptions.push(subscriptions);
  subscriptions.add(container.onDidShowError((e) => probe.errorsShown.push(e)));
  subscriptions.add(onDidCreatePanelHost((panel) => recordPanel(probe, panel)));
  const { knowledgeBase, connection, entities, ...features } = activated;
  const guard = connection.workspaceSettings;
  subscriptions.add(guard.onDidNotify((n) => probe.record(guard, ProbeKeys.notices, n)));
  subscriptions.add(knowledgeBase.onDidFinishBatch((b) => probe.record(knowledgeBase, ProbeKeys.uploadBatches, b)));
  const { teacher, recognizer } = entities;
  subscriptions.add(teacher.onDidTeach((t) => probe.record(teacher, ProbeKeys.taughtPhrases, t)));
  subscriptions.add(recognizer.onDidNotice((n) => probe.record(recognizer, ProbeKeys.notices, n)));
  return {
    probe,
    connection: container.connection,
    connectionManagerOver: (state) =>
      new ConnectionManager(container.settings, container.secrets, container.localProjects, container.logger, state),
    mcpDeps: () => new AiServices(container, features.ai.chatLinks).mcpDeps(new vscode.EventEmitter<void>().event),
    localService: container.localService,
    localWriter: container.localWriter,
    secrets: container.secrets,
    settings: container.settings,
    logger: container.logger,
    log: (component) => container.log(component),
    context: container.context,
    chat: chatTestView(features.answers),
    citations: citationsTestView(features.answersViewers),
    ai: aiTestView(features.ai),
    qna: qnaTestView(features.qna),
    qnaEditors: qnaEditorsTestView(features.qnaWebviews),
    analytics: analyticsTestView(features.qnaWebviews),
    jobs: jobsTestView(features.jobs),
    knowledgeTests: knowledgeTestsTestView(features.knowledgeTests),
    knowledgeBase: knowledgeBaseTestView(knowledgeBase, probe),
    entities: entitiesTestView(entities, probe),
    connectionStatusBar: connection.statusBar.item,
    workspaceSettings: {
      check: () => guard.check(),
      found: guard.found,
      notices: probe.ring<string>(guard, ProbeKeys.notices),
    },
    timings,
    contextKey: getContext,
    setUserInput: (ui) => (container.ui = ui ?? new WindowUserInput()),
    setStreamDelay: async (ms) => {
      const endpoint = container.localService.current;
      if (!endpoint && ms === 0) return; // no service, no delay to take back
      if (!endpoint) throw new Error('the local service is not running'); // l10n-ignore: a test's fault
      const res = await fetch(`${endpoint.url}/_local/stream-delay`, {
        method: 'POST',
        headers: { 'API-KEY': endpoint.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ms }),
      });
      if (!res.ok) throw new Error(`/_local/stream-delay answered ${res.status}`); // l10n-ignore: a test's fault
    },
  };
}

/** Records a panel's events; its own events (a subclass's) once its constructor has run. */
function recordPanel(probe: TestProbe, panel: WebviewPanelHost<PageProtocol, unknown>): void {
  const events = new DisposableStore();
  events.add(panel.onDidRender((r) => probe.record(panel, ProbeKeys.rendered, r)));
  events.add(panel.onDidReportProblem((p) => probe.record(panel, ProbeKeys.pageProblems, p)));
  events.add(panel.onDidSendRequest((r) => probe.record(panel, ProbeKeys.requests, r)));
  queueMicrotask(() => {
    const own = panel as Partial<Record<'onDidRetarget' | 'onDidOpenCitation' | 'onDidLoad', vscode.Event<unknown>>>;
    if (own.onDidRetarget) events.add(own.onDidRetarget(() => probe.ring(panel, ProbeKeys.rendered).clear()));
    if (own.onDidOpenCitation) events.add(own.onDidOpenCitation((c) => probe.record(panel, ProbeKeys.citationsOpened, c)));
    if (own.onDidLoad) events.add(own.onDidLoad((d) => probe.record(panel, ProbeKeys.loaded, d)));
  });
  events.add(panel.onDidDispose(() => events.dispose()));
}
