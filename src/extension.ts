import * as vscode from 'vscode';
import { Container } from './container';
import { AnswersFeature } from './features/answers/answersFeature';
import { AnswersViewers } from './features/answers/answersViewers';
import { ConnectionFeature } from './features/connection/connectionFeature';
import { EntitiesFeature } from './features/entities/entitiesFeature';
import { JobsFeature } from './features/jobs/jobsFeature';
import { KnowledgeBaseFeature } from './features/knowledgeBase/knowledgeBaseFeature';
import { QnaFeature } from './features/qna/qnaFeature';
import { QnaWebviews } from './features/qna/qnaWebviews';
import { getContext } from './platform/contextKeys';

/** What activate() returns in development and test modes: the container and features, for integration tests. */
export interface KnowledgeDeskTestApi {
  container: Container;
  features: {
    connection: ConnectionFeature;
    knowledgeBase: KnowledgeBaseFeature;
    qna: QnaFeature;
    qnaWebviews: QnaWebviews;
    answers: AnswersFeature;
    answersViewers: AnswersViewers;
    jobs: JobsFeature;
    entities: EntitiesFeature;
  };
  timings: { activationMs: number; firstConnectedMs?: number };
  /** Value of a context key this extension set (the test bundle has its own module instances). */
  contextKey(key: string): unknown;
}

export function activate(context: vscode.ExtensionContext): KnowledgeDeskTestApi | undefined {
  const started = performance.now();
  const container = new Container(context);
  context.subscriptions.push(container);
  const connection = new ConnectionFeature(container);
  const knowledgeBase = new KnowledgeBaseFeature(container);
  const qnaWebviews = new QnaWebviews(container);
  const qna = new QnaFeature(container, qnaWebviews.editor);
  const answers = new AnswersFeature(container);
  const answersViewers = new AnswersViewers(container);
  const jobs = new JobsFeature(container);
  const entities = new EntitiesFeature(container);
  context.subscriptions.push(connection, knowledgeBase, qnaWebviews, qna, answers, answersViewers, jobs, entities);

  const timings: KnowledgeDeskTestApi['timings'] = { activationMs: 0 };
  const firstConnected = container.connection.onDidChangeStatus((s) => {
    if (s.state !== 'connected') return;
    timings.firstConnectedMs = performance.now() - started;
    firstConnected.dispose();
  });
  context.subscriptions.push(firstConnected);
  // Not awaited: activation stays fast; the status bar shows "connecting" until the check ends.
  void container.connection.refresh();
  timings.activationMs = performance.now() - started;
  container.log('activation').info(`activated in ${timings.activationMs.toFixed(1)} ms`);
  if (context.extensionMode === vscode.ExtensionMode.Production) return undefined;
  return { container, features: { connection, knowledgeBase, qna, qnaWebviews, answers, answersViewers, jobs, entities }, timings, contextKey: getContext };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
