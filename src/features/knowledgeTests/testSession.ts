import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import { DEFAULT_CONCURRENCY } from '../../ai/knowledgeTestRunner';
import { chatLinkUri } from '../../ai/chatLinks';
import type { ObservedCitation } from '../../core/knowledgeTests/evaluate';
import { CommandIds } from '../../platform/commandIds';
import { shortDateTimeText } from '../../platform/intlFormat';
import { Disposable } from '../../platform/lifecycle';
import type { Log } from '../../platform/logger';
import { fileDescription, testDescription } from './historyView';
import { HISTORY_KEY, recordRun, restoreHistory, type HistoryState, type Status } from './testHistory';
import { runTests, type FinishedRun } from './testRunHandler';
import { KnowledgeTestTree } from './testTree';
import { planProfiles } from './profilePlan';

export const CONTROLLER_ID = 'knowledgeDesk.knowledgeTests';

/** Where a run's requests go: the active connection, or one named connection (syncConnections). */
export interface ConnectionTarget {
  label: string;
  client: () => Promise<ApiClient>;
  isDefault: boolean;
}

const time = (ms: number): string => shortDateTimeText(new Date(ms));

/**
 * The Test Explorer's "Knowledge tests": the controller, its items (testTree.ts), a run profile per connection
 * target, and the history in workspaceState, shown in each item's description and tooltip. Created on first need
 * (knowledgeTestsFeature.ts), so a workspace without knowledge tests gets no controller.
 */
export class KnowledgeTestSession extends Disposable {
  readonly ctrl: vscode.TestController;
  readonly tree: KnowledgeTestTree;
  private readonly onDidFinishRunEmitter = this._register(new vscode.EventEmitter<FinishedRun>());
  readonly onDidFinishRun = this.onDidFinishRunEmitter.event;
  readonly profiles: vscode.TestRunProfile[] = [];
  /** "Connection: <name>" profiles by connection id, kept to the connection list by syncConnections. */
  readonly connectionProfiles = new Map<string, vscode.TestRunProfile>();
  private history: HistoryState;

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: Log,
    targets: ConnectionTarget[],
    /** knowledgeDesk.tests.bulkFrom: from this many tests a run is one bulk job; 0 never. */
    private readonly bulkFrom: () => number = () => 0,
  ) {
    super();
    this.history = restoreHistory(state.get(HISTORY_KEY));
    this.ctrl = this._register(vscode.tests.createTestController(CONTROLLER_ID, vscode.l10n.t('Knowledge tests')));
    this.tree = this._register(new KnowledgeTestTree(this.ctrl, log, (item) => this.decorate(item)));
    this.ctrl.resolveHandler = async (item) => {
      if (!item) await this.tree.discoverAll();
    };
    this.ctrl.refreshHandler = async () => {
      await this.tree.rediscover();
    };
    for (const target of targets) this.addProfile(target);
    this._register({ dispose: () => this.connectionProfiles.forEach((p) => p.dispose()) });
  }

  /**
   * One profile per connection besides the active connection's: added, relabelled on a rename and disposed on
   * a removal. A profile's runs look the connection up by id when they start, so a renamed one keeps working.
   */
  syncConnections(connections: readonly { id: string; name: string }[], client: (id: string) => Promise<ApiClient>): void {
    const labelOf = (name: string): string => vscode.l10n.t('Connection: {0}', name);
    const current = new Map([...this.connectionProfiles].map(([id, p]) => [id, p.label]));
    const plan = planProfiles(
      current,
      connections.map((c) => ({ id: c.id, label: labelOf(c.name) })),
    );
    for (const id of plan.remove) {
      this.connectionProfiles.get(id)?.dispose();
      this.connectionProfiles.delete(id);
    }
    for (const { id, label } of plan.relabel) this.connectionProfiles.get(id)!.label = label;
    for (const { id, label } of plan.add) {
      const profile = this.createProfile({ label, client: () => client(id), isDefault: false }, () => profile.label);
      this.connectionProfiles.set(id, profile);
    }
  }

  /** A run profile whose runs go to `target`'s client. */
  addProfile(target: ConnectionTarget): vscode.TestRunProfile {
    const profile = this.createProfile(target, () => target.label);
    this.profiles.push(profile);
    return this._register(profile);
  }

  private createProfile(target: ConnectionTarget, label: () => string): vscode.TestRunProfile {
    return this.ctrl.createRunProfile(
      target.label,
      vscode.TestRunProfileKind.Run,
      (request, token) =>
        runTests(this.ctrl, request, token, label(), target.client, {
          tree: this.tree,
          log: this.log,
          outputLink: outputLink,
          commandLink: commandLink,
          linkCommands: [CommandIds.answers.openCitation, CommandIds.answers.openDocument, CommandIds.qna.open],
          concurrency: () => DEFAULT_CONCURRENCY,
          bulkFrom: this.bulkFrom,
          finished: (run) => this.finished(run),
        }),
      target.isDefault,
    );
  }

  get historyState(): HistoryState {
    return this.history;
  }

  private finished(run: FinishedRun): void {
    const results: Record<string, { status: Status; message?: string }> = {};
    for (const t of run.tests) if (t.status !== 'skipped') results[t.id] = { status: t.status, message: t.messages[0]?.message };
    this.history = recordRun(this.history, { time: run.time, results });
    void this.state.update(HISTORY_KEY, this.history);
    for (const file of this.tree.fileItems()) {
      this.decorate(file);
      file.children.forEach((c) => this.decorate(c));
    }
    this.log.info(`run of ${run.tests.length} knowledge test(s) on ${run.profile} finished`);
    this.onDidFinishRunEmitter.fire(run);
  }

  private decorate(item: vscode.TestItem): void {
    if (this.tree.entry(item)) {
      item.description = testDescription(this.history, item.id, time);
    } else {
      item.description = fileDescription(this.history, item.id);
    }
  }
}

/** The output's link: the extension's own URI, which its URI handler opens in the citation viewer (or the Q&A). */
function outputLink(c: ObservedCitation): string | undefined {
  const scheme = vscode.env.uriScheme;
  if (c.faqId) return chatLinkUri(scheme, { kind: 'qna', id: c.faqId, label: c.title ?? c.faqId });
  if (!c.knowledgeBaseId) return undefined;
  return chatLinkUri(scheme, {
    kind: 'document',
    kbId: c.knowledgeBaseId,
    pageNo: c.pageNo ?? undefined,
    label: c.title ?? c.knowledgeBaseId,
  });
}

/** The peek's link: a command link to the citation viewer with the citation as the chat hands it over. */
function commandLink(c: ObservedCitation): string | undefined {
  if (c.faqId) return `command:${CommandIds.qna.open}?${encodeURIComponent(JSON.stringify([{ id: c.faqId }]))}`;
  if (!c.knowledgeBaseId) return undefined;
  return `command:${CommandIds.answers.openCitation}?${encodeURIComponent(JSON.stringify([{ citation: c }]))}`;
}
