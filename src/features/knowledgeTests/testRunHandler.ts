import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import { runKnowledgeTestsInBulk } from '../../ai/bulkTestRunner';
import { runOne, type TestOutcome } from '../../ai/knowledgeTestRunner';
import type { KnowledgeTest } from '../../core/knowledgeTests/testSchema';
import { pool } from '../../core/pool';
import type { Log } from '../../platform/logger';
import { toUserFacing } from '../../platform/errorMessages';
import type { Status } from './testHistory';
import { citationsMarkdown, failureMessages, outputText, type CitationLink } from './testMessages';
import type { KnowledgeTestTree } from './testTree';

/** One finished test as the run reported it (what integration tests observe through onDidFinishRun). */
export interface FinishedTest {
  id: string;
  status: Status | 'skipped';
  output: string;
  messages: Array<{ message: string; expected?: string; actual?: string; line: number; markdown?: string }>;
}

export interface FinishedRun {
  profile: string;
  time: number;
  tests: FinishedTest[];
  /** The bulk job the run's generative-answer tests went through (knowledgeDesk.tests.bulkFrom), if one did. */
  bulkJob?: string;
}

export interface RunDeps {
  tree: KnowledgeTestTree;
  log: Log;
  /** The output's links to the citation viewer (the extension's URI handler) and the peek's command links. */
  outputLink: CitationLink;
  commandLink: CitationLink;
  /** The commands the peek's links run (a trusted Markdown message runs only these). */
  linkCommands: string[];
  concurrency: () => number;
  /** From this many tests a run goes as one bulk job (0: never). */
  bulkFrom?: () => number;
  /** Called once per run with every test's result, before the run ends (the history records it). */
  finished: (run: FinishedRun) => void;
}

/**
 * Runs the tests of a request through one connection's client: progress per test (enqueued, started,
 * passed/failed/errored), at most `concurrency` requests at once, and cancel aborts the requests in flight
 * (the run token's cancellation becomes the AbortSignal every request takes).
 */
export async function runTests(
  ctrl: vscode.TestController,
  request: vscode.TestRunRequest,
  token: vscode.CancellationToken,
  profile: string,
  client: () => Promise<ApiClient>,
  deps: RunDeps,
): Promise<void> {
  await deps.tree.discoverAll();
  const run = ctrl.createTestRun(request, profile);
  const time = Date.now();
  const items = testsOf(request, deps.tree);
  for (const item of items) run.enqueued(item);
  const abort = new AbortController();
  const cancel = token.onCancellationRequested(() => abort.abort(new vscode.CancellationError()));
  if (token.isCancellationRequested) abort.abort(new vscode.CancellationError());
  const done = new Map<vscode.TestItem, FinishedTest>();
  let bulkJob: string | undefined;
  try {
    let api: ApiClient;
    try {
      api = await client();
    } catch (error) {
      const message = new vscode.TestMessage(vscode.l10n.t('Not connected: {0}', toUserFacing(error).message));
      for (const item of items) {
        run.errored(item, message);
        done.set(item, { id: item.id, status: 'errored', output: '', messages: [{ message: String(message.message), line: 0 }] });
      }
      return;
    }
    const bulkFrom = deps.bulkFrom?.() ?? 0;
    if (bulkFrom > 0 && items.length >= bulkFrom) {
      const byTest = new Map<KnowledgeTest, vscode.TestItem>(items.map((item) => [deps.tree.entry(item)!.test, item]));
      const toRun = items.map((item) => ({ file: deps.tree.entry(item)!.uri.fsPath, test: deps.tree.entry(item)!.test }));
      await runKnowledgeTestsInBulk(api, toRun, {
        concurrency: deps.concurrency(),
        signal: abort.signal,
        log: (line) => deps.log.info(line),
        onBulkProgress: (p) => (bulkJob = p.id),
        onStart: (t) => run.started(byTest.get(t.test)!),
        onOutcome: (o) => {
          const item = byTest.get(o.test)!;
          done.set(item, report(run, item, deps.tree.entry(item)!.uri, o, deps));
        },
      }).catch((error: unknown) => {
        if (!abort.signal.aborted) throw error;
      });
      return;
    }
    await pool(items, deps.concurrency(), abort.signal, async (item) => {
      const entry = deps.tree.entry(item)!;
      run.started(item);
      let outcome: TestOutcome;
      try {
        outcome = await runOne(api, { file: entry.uri.fsPath, test: entry.test }, abort.signal);
      } catch (error) {
        if (abort.signal.aborted) return; // skipped below, with the tests never started
        throw error;
      }
      done.set(item, report(run, item, entry.uri, outcome, deps));
    }).catch((error: unknown) => {
      if (!abort.signal.aborted) throw error;
    });
  } finally {
    for (const item of items) {
      if (done.has(item)) continue;
      run.skipped(item);
      done.set(item, { id: item.id, status: 'skipped', output: '', messages: [] });
    }
    cancel.dispose();
    deps.finished({ profile, time, tests: items.map((i) => done.get(i)!), ...(bulkJob ? { bulkJob } : {}) });
    run.end();
  }
}

function report(run: vscode.TestRun, item: vscode.TestItem, uri: vscode.Uri, outcome: TestOutcome, deps: RunDeps): FinishedTest {
  const at = (line: number): vscode.Location => new vscode.Location(uri, new vscode.Position(Math.max(0, line - 1), 0));
  const output = outputText(outcome, deps.outputLink);
  run.appendOutput(output, at(outcome.test.start.line), item);
  const failures = failureMessages(outcome);
  const finished: FinishedTest = { id: item.id, status: outcome.status, output, messages: failures.map((f) => ({ ...f })) };
  if (outcome.status === 'passed') {
    run.passed(item, outcome.durationMs);
    return finished;
  }
  const messages = failures.map((f) => {
    const m = f.expected !== undefined ? vscode.TestMessage.diff(f.message, f.expected, f.actual ?? '') : new vscode.TestMessage(f.message);
    m.location = at(f.line);
    return m;
  });
  const markdown = citationsMarkdown(outcome, deps.commandLink);
  if (markdown) {
    const md = new vscode.MarkdownString(markdown);
    md.isTrusted = { enabledCommands: deps.linkCommands };
    const m = new vscode.TestMessage(md);
    // At the first failure's line, ahead of the diffs: the peek VS Code opens on a failure shows the last message.
    const line = failures[0]?.line ?? outcome.test.start.line;
    m.location = at(line);
    messages.unshift(m);
    finished.messages.push({ message: markdown, line, markdown });
  }
  if (outcome.status === 'errored') run.errored(item, messages, outcome.durationMs);
  else run.failed(item, messages, outcome.durationMs);
  return finished;
}

/** The test items of a request: the tests asked for (a file stands for its tests), less the excluded ones. */
export function testsOf(request: vscode.TestRunRequest, tree: KnowledgeTestTree): vscode.TestItem[] {
  const excluded = new Set((request.exclude ?? []).map((i) => i.id));
  const out: vscode.TestItem[] = [];
  const seen = new Set<string>();
  const visit = (item: vscode.TestItem): void => {
    if (excluded.has(item.id) || seen.has(item.id)) return;
    seen.add(item.id);
    if (tree.entry(item)) out.push(item);
    else item.children.forEach(visit);
  };
  (request.include ?? tree.fileItems()).forEach(visit);
  return out;
}
