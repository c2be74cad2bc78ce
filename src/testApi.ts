// The integration tests' view of the running extension, in the test build only: extension.ts require()s this
// file behind `globalThis.__KD_TEST__` (src/testBuild.d.ts) and returns what it builds from activate(), in the
// way the Azure extensions keep their src/testApi.ts. Other builds return nothing and contain none of it.
import type { Container } from './container';
import type { AiFeature } from './features/ai/aiFeature';
import type { AnswersFeature } from './features/answers/answersFeature';
import type { AnswersViewers } from './features/answers/answersViewers';
import type { ConnectionFeature } from './features/connection/connectionFeature';
import type { EntitiesFeature } from './features/entities/entitiesFeature';
import type { JobsFeature } from './features/jobs/jobsFeature';
import type { KnowledgeBaseFeature } from './features/knowledgeBase/knowledgeBaseFeature';
import type { KnowledgeTestsFeature } from './features/knowledgeTests/knowledgeTestsFeature';
import type { QnaFeature } from './features/qna/qnaFeature';
import type { QnaWebviews } from './features/qna/qnaWebviews';
import { getContext } from './platform/contextKeys';
import type { TestProbe } from './platform/testProbe';
import { WindowUserInput, type UserInput } from './platform/userInput';

/** What activation took, step by step (also in the log). */
export interface ActivationTimings {
  activationMs: number;
  activationCpuMs: number;
  firstConnectedMs?: number;
  steps: Record<string, number>;
  /** Loading dist/main.js by dist/extension.js, before activate() ran; and whether the code cache served it. */
  mainLoadMs?: number;
  codeCache?: 'hit' | 'miss' | 'rejected' | 'off';
}

/** What activate() returns in the test build: what integration tests observe and drive. */
export interface KnowledgeDeskTestApi {
  /** What tests observe (errors shown, what pages drew …). */
  probe: TestProbe;
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
    ai: AiFeature;
    knowledgeTests: KnowledgeTestsFeature;
  };
  timings: ActivationTimings;
  /** Value of a context key this extension set (the test bundle has its own module instances). */
  contextKey(key: string): unknown;
  /** Answers the extension's prompts from `ui` (test/integration/support/scriptedUserInput.ts); undefined: the window's again. */
  setUserInput(ui: UserInput | undefined): void;
}

export function createTestApi(
  container: Container,
  features: KnowledgeDeskTestApi['features'],
  timings: ActivationTimings,
): KnowledgeDeskTestApi {
  if (!container.probe) throw new Error('the test build has no test probe'); // l10n-ignore: a build fault
  return {
    probe: container.probe,
    container,
    features,
    timings,
    contextKey: getContext,
    setUserInput: (ui) => (container.ui = ui ?? new WindowUserInput()),
  };
}
