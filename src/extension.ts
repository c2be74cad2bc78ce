import type * as vscode from 'vscode';
import { Container } from './container';
import { AiFeature } from './features/ai/aiFeature';
import { AnswersFeature } from './features/answers/answersFeature';
import { AnswersViewers } from './features/answers/answersViewers';
import { ConnectionFeature } from './features/connection/connectionFeature';
import { EntitiesFeature } from './features/entities/entitiesFeature';
import { JobsFeature } from './features/jobs/jobsFeature';
import { KnowledgeBaseFeature } from './features/knowledgeBase/knowledgeBaseFeature';
import { PromoteFeature } from './features/promote/promoteFeature';
import { KnowledgeTestsFeature } from './features/knowledgeTests/knowledgeTestsFeature';
import { QnaFeature } from './features/qna/qnaFeature';
import { QnaWebviews } from './features/qna/qnaWebviews';
import { shareL10nBundle } from './platform/l10n';
import type * as TestApi from './testApi';
import type { ActivationTimings, KnowledgeDeskTestApi } from './testApi';
import { openWalkthroughOnFirstLaunch } from './platform/walkthrough';

/** How src/boot.ts loaded this bundle (dist/main.js); absent when something loads it directly. */
export interface BootInfo {
  mainLoadMs: number;
  codeCache: NonNullable<ActivationTimings['codeCache']>;
  saveCodeCache(): { written: boolean; error?: string };
}

export function activate(context: vscode.ExtensionContext, boot?: BootInfo): KnowledgeDeskTestApi | undefined {
  const started = performance.now();
  const startedCpu = process.cpuUsage();
  const timings: ActivationTimings = {
    activationMs: 0,
    activationCpuMs: 0,
    steps: {},
    stepsCpu: {},
    mainLoadMs: boot?.mainLoadMs,
    codeCache: boot?.codeCache,
  };
  // Each step's cost is kept (bench, log): activation time should be explainable, not a single number.
  const timed = <T>(name: string, build: () => T): T => {
    const t = performance.now();
    const cpu = process.cpuUsage();
    const built = build();
    timings.steps[name] = performance.now() - t;
    const used = process.cpuUsage(cpu);
    timings.stepsCpu[name] = (used.user + used.system) / 1000;
    return built;
  };
  shareL10nBundle();
  const container = timed('container', () => new Container(context));
  context.subscriptions.push(container);
  const connection = timed('connection', () => new ConnectionFeature(container));
  const knowledgeBase = timed('knowledgeBase', () => new KnowledgeBaseFeature(container));
  const qnaWebviews = timed('qnaWebviews', () => new QnaWebviews(container));
  const qna = timed('qna', () => new QnaFeature(container, qnaWebviews.opener));
  const answers = timed('answers', () => new AnswersFeature(container));
  const answersViewers = timed('answersViewers', () => new AnswersViewers(container));
  const jobs = timed('jobs', () => new JobsFeature(container));
  const entities = timed('entities', () => new EntitiesFeature(container));
  const ai = timed('ai', () => new AiFeature(container));
  const knowledgeTests = timed('knowledgeTests', () => new KnowledgeTestsFeature(container));
  const promote = timed('promote', () => new PromoteFeature(container));
  context.subscriptions.push(
    connection,
    knowledgeBase,
    qnaWebviews,
    qna,
    answers,
    answersViewers,
    jobs,
    entities,
    ai,
    knowledgeTests,
    promote,
  );

  const firstConnected = container.connection.onDidChangeStatus((s) => {
    if (s.state !== 'connected') return;
    timings.firstConnectedMs = performance.now() - started;
    firstConnected.dispose();
  });
  context.subscriptions.push(firstConnected);
  // Get started: the walkthrough opens by itself once after the install (it connects nothing).
  void openWalkthroughOnFirstLaunch(context.globalState, container.log('walkthrough'));
  // Nothing is started here: the connection is checked (and for the Local region the local service
  // started) on the first use of Knowledge Desk in this window, see ConnectionManager.use().
  timings.activationMs = performance.now() - started;
  const cpu = process.cpuUsage(startedCpu);
  timings.activationCpuMs = (cpu.user + cpu.system) / 1000;
  const steps = Object.entries(timings.steps)
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join(', ');
  const log = container.log('activation');
  const load = boot ? `; code loaded in ${boot.mainLoadMs.toFixed(1)} ms, code cache ${boot.codeCache}` : '';
  log.info(`activated in ${timings.activationMs.toFixed(1)} ms (${steps})${load}`);
  if (boot && boot.codeCache !== 'hit') {
    // Written once the window is idle, after activation compiled more functions (they go into the cache too).
    const timer = setTimeout(() => {
      const saved = boot.saveCodeCache();
      if (saved.error) log.warn(`code cache not written: ${saved.error}`);
    }, 3000);
    timer.unref();
    context.subscriptions.push({ dispose: () => clearTimeout(timer) });
  }
  // Only the test build returns an API (src/testApi.ts, src/testBuild.d.ts); other builds do not contain it.
  const features = { connection, knowledgeBase, qna, qnaWebviews, answers, answersViewers, jobs, entities, ai, knowledgeTests };
  return globalThis.__KD_TEST__ ? (require('./testApi') as typeof TestApi).createTestApi(container, features, timings) : undefined;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
