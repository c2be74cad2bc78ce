import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { FileNode } from '../../src/api/schemas/kbNodes';
import type { RareStatus } from '../../src/api/schemas/jobs';
import type { JobNotification } from '../../src/features/jobs/jobNotifier';
import type { JobsTestView } from '../../src/testApiFeatures';
import type { JobsPoll } from '../../src/features/jobs/jobsMonitor';
import type { JobsElement } from '../../src/features/jobs/jobsTree';
import {
  EXTENSION_ID,
  getApi,
  resetWorkbench,
  runCommand,
  runFailingCommand,
  screenshot,
  scriptInput,
  useService,
  waitFor,
} from './support/host';

/** What the Jobs view's events reported since the suite began: the product's events, not its fields. */
class JobsEvents {
  /** JobsMonitor.onDidPoll: each poll as it ended. */
  readonly polls: JobsPoll[] = [];
  /** JobsStatusBar.onDidChangeText: the status-bar text at each change (undefined: hidden). */
  readonly texts: Array<string | undefined> = [];
  /** JobNotifier.onDidNotify: the notifications shown when jobs finished. */
  readonly notes: JobNotification[] = [];
  private readonly subscriptions: vscode.Disposable[];

  constructor(jobs: JobsTestView) {
    this.subscriptions = [
      jobs.onDidPoll((p) => this.polls.push(p)),
      jobs.onDidChangeStatusText((t) => this.texts.push(t)),
      jobs.onDidNotify((n) => this.notes.push(n)),
    ];
  }

  /** The RARE status of the last poll. */
  get rare(): RareStatus | undefined {
    return this.polls.at(-1)?.rare;
  }

  /** The status-bar text now (undefined: hidden, as it is before any change). */
  get statusBar(): string | undefined {
    return this.texts.at(-1);
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}
let events: JobsEvents;

const RARE_HEADER = 'sample_id,question,answer,information,source_document,page_no';
const JOB_TIMEOUT = 240_000;

const run = runCommand;

const runFailing = runFailingCommand;

const state = (_jobs: JobsTestView, job: 'build' | 'generate'): string => {
  const s = events.rare;
  if (!s) return 'unknown';
  if (job === 'build') return s.build_status || (s.job_type === 'build' ? s.job_status : undefined) || 'idle';
  return s.job_type === 'generate' ? s.job_status || 'idle' : 'idle';
};

const FINAL = ['completed', 'failed', 'cancelled'];

/** What a wait on a job saw last, for timeout messages. */
const jobDetail = (jobs: JobsTestView) => (): string =>
  JSON.stringify({
    rare: events.rare,
    bulk: jobs.results.bulk.map((b) => ({ id: b.id, status: b.status, processed: b.processed, total: b.total })),
    pollError: events.polls.at(-1)?.error,
    polls: events.polls.length,
  });

/**
 * The states the view showed for a job until it reached a final state: recorded at each of the feature's own
 * polls (JobsMonitor.onDidPoll, after which it redraws), not by sampling on a timer.
 */
async function follow(
  jobs: JobsTestView,
  job: 'build' | 'generate',
  onState?: (s: string) => Promise<void> | void,
  timeout = JOB_TIMEOUT,
): Promise<string[]> {
  const seen: string[] = [];
  let handled: Promise<void> = Promise.resolve();
  let reachedFinal!: () => void;
  const final = new Promise<void>((resolve) => (reachedFinal = resolve));
  const look = (): void => {
    const s = state(jobs, job);
    if (seen[seen.length - 1] === s) return;
    seen.push(s);
    handled = handled.then(() => onState?.(s));
    if (FINAL.includes(s) && seen.length > 1) reachedFinal();
  };
  // After JobsEvents' own listener (subscribed first), so `state` reads this poll's status.
  const sub = jobs.onDidPoll(look);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Timed out after ${timeout} ms following the ${job}: ${seen.join(' → ')}; state: ${jobDetail(jobs)()}`)),
      timeout,
    );
  });
  try {
    look();
    await Promise.race([final, timedOut]);
    await handled;
    return seen;
  } finally {
    sub.dispose();
    clearTimeout(timer);
  }
}

function children(jobs: JobsTestView, parent?: JobsElement): JobsElement[] {
  return jobs.tree.getChildren(parent);
}

function group(jobs: JobsTestView, g: 'rare' | 'bulk'): JobsElement {
  return children(jobs).find((e) => e.kind === 'group' && e.group === g)!;
}

function description(jobs: JobsTestView, e: JobsElement): string {
  return String(jobs.tree.getTreeItem(e).description ?? '');
}

function rareRows(jobs: JobsTestView): { build: JobsElement; generate: JobsElement; results: JobsElement } {
  const rows = children(jobs, group(jobs, 'rare'));
  const find = (pred: (e: JobsElement) => boolean, what: string): JobsElement => {
    const e = rows.find(pred);
    assert.ok(e, `${what} row missing; rows: ${JSON.stringify(rows.map((r) => jobs.tree.getTreeItem(r).label))}`);
    return e;
  };
  return {
    build: find((e) => e.kind === 'job' && e.job === 'build', 'Build'),
    generate: find((e) => e.kind === 'job' && e.job === 'generate', 'Generate'),
    results: find((e) => e.kind === 'rareResults', 'Results'),
  };
}

const ws = (): vscode.Uri => vscode.workspace.workspaceFolders![0].uri;

async function uploadAndWait(
  api: KnowledgeDeskTestApi,
  files: Array<{ file: { path: string } | { data: string }; fileName: string }>,
): Promise<string[]> {
  const client = await api.connection.getClient();
  const ids: string[] = [];
  for (const f of files) ids.push(...(await client.kbNodes.upload({ ...f, isOverwrite: true })).map((n) => n.id));
  await waitFor(
    async () => {
      const nodes: FileNode[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await client.kbNodes.search({ nodeType: ['file'], limit: 100, offset });
        nodes.push(...(page.nodes as FileNode[]));
        if (page.nodes.length < 100) break;
      }
      return ids.every((id) => nodes.some((n) => n.id === id && ['completed', 'post_completed'].includes(n.processState)));
    },
    `${files.length} document(s) processed`,
    120_000,
  );
  return ids;
}

/**
 * A screenshot with the views above Jobs hidden for a moment, so the Jobs view has the side bar's
 * height; the layout is put back afterwards. (Resizing commands act on the focused part, which in a
 * headless window may be the editor: they narrowed the side bar instead of widening it.) The driver shoots
 * once the Jobs view shows the selected row.
 */
async function jobsScreenshot(name: string): Promise<void> {
  const others = ['knowledgeDesk.knowledgeBase', 'knowledgeDesk.qna'];
  for (const id of others) await vscode.commands.executeCommand(`${id}.toggleVisibility`);
  await vscode.commands.executeCommand('knowledgeDesk.jobs.focus');
  try {
    await screenshot(name, {
      waitForSelector: '.pane:has(.pane-header h3.title:text-is("Jobs")) .monaco-list-row.selected',
    });
  } finally {
    for (const id of others) await vscode.commands.executeCommand(`${id}.toggleVisibility`);
  }
}

/** The 40 documents that make a build slow enough to cancel; returns their ids. */
async function uploadManyPolicies(api: KnowledgeDeskTestApi): Promise<string[]> {
  const many = Array.from({ length: 40 }, (_, i) => ({
    file: {
      data: `# Policy ${i}\n\n${'Employees submit expense reports within thirty days of the purchase. '.repeat(40)}\n\n## 規程 ${i}\n\n${'経費は購入から三十日以内に精算してください。'.repeat(40)}\n`,
    },
    fileName: `policy-${String(i).padStart(2, '0')}.md`,
  }));
  return uploadAndWait(api, many);
}

describe('Jobs', function () {
  this.timeout(JOB_TIMEOUT + 60_000);
  let api: KnowledgeDeskTestApi;
  let jobs: JobsTestView;
  /** The two sample documents every job here works on (read only: no test changes them). */
  const samples: string[] = [];
  /** Documents and workspace files a test added; afterEach removes them. */
  let added: string[] = [];
  const files = (): vscode.Uri[] => ['bulk-questions.csv', 'rare-result.csv'].map((name) => vscode.Uri.joinPath(ws(), name));

  /** The service's RARE build is completed (a build runs here when none has completed yet). */
  async function completedBuild(): Promise<void> {
    if (events.rare?.build_status === 'completed') return;
    await run(api, 'knowledgeDesk.jobs.startBuild', ['Use defaults']);
    const seen = await follow(jobs, 'build');
    assert.equal(seen.at(-1), 'completed', `fixture build: ${seen.join(' → ')}`);
  }

  /** A RARE result in the view (generated here after a completed build). */
  async function rareResult(): Promise<JobsElement> {
    const listed = children(jobs, rareRows(jobs).results).find((e) => e.kind === 'rareResult');
    if (listed) return listed;
    await completedBuild();
    await run(api, 'knowledgeDesk.jobs.startGenerate', ['Use defaults']);
    const seen = await follow(jobs, 'generate');
    assert.equal(seen.at(-1), 'completed', `fixture generate: ${seen.join(' → ')}`);
    return waitFor(
      () => children(jobs, rareRows(jobs).results).find((e) => e.kind === 'rareResult'),
      'the fixture RARE result in the view',
      15_000,
      jobDetail(jobs),
    );
  }

  /** Bulk processing of a three-question CSV written to the workspace; resolves with the finished run. */
  async function bulkRun(): Promise<{
    id: string;
    notified: number;
    done: NonNullable<ReturnType<JobsTestView['results']['bulkResult']>>;
  }> {
    const [csv] = files();
    const text = [
      'question,model,search_type',
      'How do I submit an expense report?,local-extractive,hybrid',
      '経費精算の締め切りはいつですか？,local-extractive,hybrid',
      '"How many days of paid leave do employees get, per year?",local-extractive,hybrid',
    ].join('\n');
    await vscode.workspace.fs.writeFile(csv, Buffer.from(text + '\n', 'utf8'));
    const notified = events.notes.length;
    const started = (await run(api, 'knowledgeDesk.jobs.runBulk', ['Generative answer (ga)'], csv, [csv])) as {
      id: string;
      status?: string;
    };
    assert.ok(started.id);
    const row = await waitFor(() => jobs.results.bulkResult(started.id), 'the new run in the view', 15_000, jobDetail(jobs));
    assert.ok(children(jobs, group(jobs, 'bulk')).some((e) => e.kind === 'bulkResult' && e.result.id === started.id));
    assert.match(String(jobs.tree.getTreeItem(jobs.tree.bulkResult(row)).description), /^ga · (queued|running|completed)/);
    const done = await waitFor(
      () => {
        const r = jobs.results.bulkResult(started.id);
        return r && FINAL.includes(r.status ?? '') ? r : undefined;
      },
      'the bulk run to finish',
      JOB_TIMEOUT,
      jobDetail(jobs),
    );
    return { id: started.id, notified, done };
  }

  /** Starts a build on 40 more documents and cancels it; resolves once the view shows it cancelled. */
  async function cancelledBuild(): Promise<{ notified: number; startedAs: string }> {
    added.push(...(await uploadManyPolicies(api)));
    const notified = events.notes.length;
    await run(api, 'knowledgeDesk.jobs.startBuild', ['Use defaults']);
    const startedAs = state(jobs, 'build');
    assert.ok(['queued', 'running'].includes(startedAs), `build ${startedAs} right after the start`);
    assert.equal(jobs.tree.getTreeItem(rareRows(jobs).build).contextValue, `rareJob.build.${startedAs}`);
    await run(api, 'knowledgeDesk.jobs.cancel', []);
    // The cancel is cooperative; the service may already report it in the cancel's own answer.
    await waitFor(() => state(jobs, 'build') === 'cancelled', 'the build to be cancelled', JOB_TIMEOUT, jobDetail(jobs));
    return { notified, startedAs };
  }

  before(async function () {
    this.timeout(180_000);
    api = await getApi();
    jobs = api.jobs;
    events = new JobsEvents(jobs);
    await useService(api, 60_000);
    const root = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    samples.push(
      ...(await uploadAndWait(api, [
        { file: { path: path.join(root, 'samples/knowledge-base/Handbook/employee-handbook.pdf') }, fileName: 'employee-handbook.pdf' },
        { file: { path: path.join(root, 'samples/knowledge-base/経費/経費精算ガイド.md') }, fileName: '経費精算ガイド.md' },
      ])),
    );
  });

  beforeEach(async () => {
    await resetWorkbench(api);
    await vscode.commands.executeCommand('knowledgeDesk.jobs.focus');
    await waitFor(() => jobs.view.visible, 'the Jobs view visible');
    await vscode.commands.executeCommand('knowledgeDesk.jobs.refresh');
    // A job still running (a test that failed half-way) would change what the next test sees.
    await waitFor(() => !jobs.active, 'no job running', JOB_TIMEOUT, jobDetail(jobs));
  });

  afterEach(async () => {
    await resetWorkbench(api);
    const client = await api.connection.getClient();
    for (const id of added) await client.kbNodes.delete(id).catch(() => undefined);
    added = [];
    for (const file of files()) await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
  });

  after(async () => {
    events.dispose();
    const client = await api.connection.getClient();
    for (const id of samples) await client.kbNodes.delete(id).catch(() => undefined);
  });

  // The service keeps its RARE state for good (it has no reset): this first test is about a service that
  // has never built, which is what a fresh test host has, and it comes before any test here that builds.
  it('shows idle build and generate rows and polls while the view is visible', async () => {
    const rows = rareRows(jobs);
    assert.equal(description(jobs, rows.build), 'idle', `a service that has never built; status: ${jobDetail(jobs)()}`);
    assert.equal(description(jobs, rows.generate), 'idle · needs a completed build');
    assert.equal(jobs.tree.getTreeItem(rows.build).contextValue, 'rareJob.build.idle');
    const bulk = children(jobs, group(jobs, 'bulk'));
    assert.deepEqual(
      bulk.map((e) => e.kind),
      ['message'],
    );
    assert.equal(events.statusBar, undefined, 'no status-bar item while nothing runs');
    // Two polls with no action in between: at least one came from the view's own timer.
    const before = events.polls.length;
    await waitFor(() => events.polls.length > before + 1, 'the view to poll on its own', 20_000, jobDetail(jobs));
  });

  it('refuses Start Generate before a build, showing the service’s error', async () => {
    // Without a completed build: a service that never built, or one whose last build was cancelled.
    if (events.rare?.build_status === 'completed') await cancelledBuild();
    assert.notEqual(events.rare?.build_status, 'completed');
    assert.equal(description(jobs, rareRows(jobs).generate), 'idle · needs a completed build');
    const message = await runFailing(api, 'knowledgeDesk.jobs.startGenerate', ['Use defaults']);
    assert.match(message, /build/i);
    assert.doesNotMatch(message, /not available in the local service/i);
    assert.equal(state(jobs, 'generate'), 'idle');
  });

  it('starts a build with the defaults: queued → running → completed, the status bar showing progress', async () => {
    const notified = events.notes.length;
    const history = events.texts.length;
    await run(api, 'knowledgeDesk.jobs.startBuild', ['Use defaults']);
    let shot = false;
    const seen = await follow(jobs, 'build', async (s) => {
      if (s === 'running' && !shot) {
        shot = true;
        await jobs.view.reveal(rareRows(jobs).build, { select: true, focus: false });
        await jobsScreenshot('jobs-running');
      }
    });
    assert.deepEqual(
      seen.filter((s) => s !== 'idle'),
      ['queued', 'running', 'completed'],
      `states seen: ${seen.join(' → ')}`,
    );
    // From the entry before the start on: the history skips a text equal to the one before it.
    const shown = events.texts.slice(Math.max(0, history - 1)).filter((t) => t !== undefined);
    assert.ok(
      shown.some((t) => /^\$\(sync~spin\) Knowledge Desk: build (\d+(\.\d)?%|\d+\/\d+|running)$/.test(t)),
      `status bar showed: ${JSON.stringify(shown)}`,
    );
    assert.ok(
      shown.some((t) => /build queued/.test(t)),
      `status bar showed: ${JSON.stringify(shown)}`,
    );
    await waitFor(
      () => events.notes.slice(notified).some((n) => n.message === 'Build completed'),
      '"Build completed" notification',
      15_000,
      () => JSON.stringify(events.notes.slice(notified)),
    );
    await waitFor(() => events.statusBar === undefined, 'the status-bar item hidden again', 15_000, jobDetail(jobs));
    assert.match(description(jobs, rareRows(jobs).build), /^completed/);
  });

  it('generates after the build: completed, a result appears, Open CSV shows the result columns', async () => {
    await completedBuild();
    const notified = events.notes.length;
    const resultsBefore = new Set(jobs.results.rareResults.map((r) => JSON.stringify(r)));
    await run(api, 'knowledgeDesk.jobs.startGenerate', ['Use defaults']);
    const seen = await follow(jobs, 'generate');
    assert.equal(seen[seen.length - 1], 'completed', `states seen: ${seen.join(' → ')}`);
    const note = await waitFor(
      () => events.notes.slice(notified).find((n) => n.message.startsWith('Generate completed')),
      '"Generate completed" notification',
      15_000,
      () => JSON.stringify(events.notes.slice(notified)),
    );
    assert.match(note.message, /^Generate completed — \d+ (questions|samples)$/);
    assert.equal(note.action, 'Open Result');
    const results = await waitFor(
      () => {
        const listed = children(jobs, rareRows(jobs).results).filter((e) => e.kind === 'rareResult');
        return listed.length && jobs.results.rareResults.some((r) => !resultsBefore.has(JSON.stringify(r))) ? listed : undefined;
      },
      'the new RARE result in the view',
      15_000,
      jobDetail(jobs),
    );
    const item = jobs.tree.getTreeItem(results[0]);
    assert.match(String(item.label), /^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    assert.match(String(item.description), /^\d+ samples?$/);
    const doc = (await run(api, 'knowledgeDesk.jobs.openResult', [], results[0])) as vscode.TextDocument;
    assert.equal(doc.lineAt(0).text, RARE_HEADER);
    // Read-only and named after the result: closing it never asks to save an "Untitled" file.
    assert.equal(doc.uri.scheme, 'knowledge-desk-result');
    assert.match(doc.uri.path, /^\/rare\/rare-result-\d{8}-\d{4}-\w+\.csv$/);
    assert.equal(doc.isDirty, false);
    assert.ok(doc.lineCount > 1, 'the CSV has rows');
    assert.equal(vscode.window.activeTextEditor?.document, doc);
    // Save Result As… writes the spreadsheet-safe version.
    const target = files()[1];
    await run(api, 'knowledgeDesk.jobs.saveResult', [], results[0], target);
    const saved = Buffer.from(await vscode.workspace.fs.readFile(target)).toString('utf8');
    assert.ok(saved.startsWith(`\uFEFF${RARE_HEADER}\r\n`));
  });

  it('runs bulk processing on a CSV from the Explorer, follows it and opens the result', async () => {
    const { notified, done } = await bulkRun();
    assert.equal(done.status, 'completed', `bulk run ended ${done.status}: ${done.error_message ?? ''}`);
    assert.equal(done.processed, 3);
    assert.equal(done.total, 3);
    const note = await waitFor(
      () => events.notes.slice(notified).find((n) => n.message.startsWith('Bulk processing finished')),
      'bulk notification',
      15_000,
      () => JSON.stringify(events.notes.slice(notified)),
    );
    assert.equal(note.message, 'Bulk processing finished: 3 rows');
    const element = jobs.tree.bulkResult(done);
    assert.equal(jobs.tree.getTreeItem(element).description, 'ga · completed · 3/3');
    assert.match(String(jobs.tree.getTreeItem(element).label), /^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    assert.match(String(jobs.tree.getTreeItem(element).contextValue), /^bulkResult\.completed\.hasFile$/);
    const doc = (await run(api, 'knowledgeDesk.jobs.openResult', [], element)) as vscode.TextDocument;
    assert.match(doc.uri.path, /^\/bulk\/bulk-ga-\d{8}-\d{4}-\w+\.csv$/);
    assert.equal(doc.isDirty, false);
    const header = doc.lineAt(0).text.split(',');
    assert.deepEqual(header.slice(0, 3), ['question', 'model', 'search_type']);
    for (const col of ['answer', 'confidence', 'sources']) assert.ok(header.includes(col), `result column ${col} in ${header.join(',')}`);
    assert.ok(doc.getText().includes('経費精算の締め切りはいつですか？'));
    await jobs.view.reveal(element, { select: true, focus: false });
    await jobsScreenshot('jobs-results');
  });

  it('deletes a result after confirmation', async () => {
    // Its own bulk run, and a RARE result (generated here if the service has none yet).
    const { done } = await bulkRun();
    assert.equal(done.status, 'completed', `fixture bulk run ended ${done.status}: ${done.error_message ?? ''}`);
    const rare = await rareResult();
    const before = jobs.results.bulk.length;
    const target = children(jobs, group(jobs, 'bulk')).find((e) => e.kind === 'bulkResult' && e.result.id === done.id)!;
    assert.ok(target, 'the fixture run in the view');
    const kept = await run(api, 'knowledgeDesk.jobs.deleteResult', ['Cancel'], target);
    assert.equal(kept, false);
    assert.equal(jobs.results.bulk.length, before);
    const input = scriptInput(api, [
      (p: { kind: string; options: unknown }) => (assert.match(String(p.options), /Delete the bulk processing result/), 'Delete'),
    ]);
    try {
      assert.equal(await vscode.commands.executeCommand('knowledgeDesk.jobs.deleteResult', target), true);
    } finally {
      input.restore();
    }
    assert.equal(jobs.results.bulk.length, before - 1);
    assert.equal(jobs.results.bulkResult(done.id), undefined, 'the deleted run is gone from the view');
    const rareCount = jobs.results.rareResults.length;
    await run(api, 'knowledgeDesk.jobs.deleteResult', ['Delete'], rare);
    assert.equal(jobs.results.rareResults.length, rareCount - 1);
  });

  it('cancels a running build', async () => {
    // Enough documents that the build cannot finish before the cancel arrives.
    const { notified } = await cancelledBuild();
    await waitFor(
      () => events.notes.slice(notified).some((n) => n.message === 'Build cancelled'),
      '"Build cancelled" notification',
      15_000,
      () => JSON.stringify(events.notes.slice(notified)),
    );
    assert.equal(description(jobs, rareRows(jobs).build), 'cancelled');
    const message = await runFailing(api, 'knowledgeDesk.jobs.cancel', []);
    assert.match(message, /No answer-generation job is running/);
  });

  it('stops polling when nothing runs and the view is hidden', async () => {
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor(() => !jobs.view.visible, 'the Jobs view hidden');
    await waitFor(() => !jobs.polling.scheduled && !jobs.polling.inFlight, 'polling to stop', 15_000, jobDetail(jobs));
    // A poll starts only from the poller's timer or from pollNow (the view shown, a command, a connection
    // change): with no timer scheduled, nothing in flight and shouldPoll() false, none can come on its own.
    assert.equal(jobs.polling.wanted(), false, 'hidden and idle: no reason to poll');
    assert.equal(jobs.active, false, 'nothing runs');
    const count = events.polls.length;
    // What hiding the view does again (update): it must not schedule anything either.
    jobs.polling.update();
    assert.equal(jobs.polling.scheduled, false, 'update() while hidden and idle schedules no poll');
    assert.equal(jobs.polling.inFlight, false);
    assert.equal(events.polls.length, count, 'no poll while hidden and idle');
    assert.equal(events.statusBar, undefined);
    await vscode.commands.executeCommand('knowledgeDesk.jobs.focus');
    await waitFor(() => events.polls.length > count, 'a poll as soon as the view is shown again', 15_000, jobDetail(jobs));
    await waitFor(
      () => jobs.polling.scheduled || jobs.polling.inFlight,
      'polling to go on while the view is visible',
      15_000,
      jobDetail(jobs),
    );
  });
});
