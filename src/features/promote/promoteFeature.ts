// Promote between connections (issue 27): Copy to Connection… and Compare with Connection… on the Q&A tree (its
// selection, or all) and on the Knowledge Base tree (documents and folders, or the whole top level), and in the
// palette. The diff of both projects' Q&As opens in VS Code's diff editor, read-only, from memory.
import * as vscode from 'vscode';
import type * as ReadDocsModule from '../../api/promote/readDocs';
import type { DocRoot } from '../../api/promote/readDocs';
import type { Container } from '../../container';
import { CommandIds } from '../../platform/commandIds';
import { Disposable } from '../../platform/lifecycle';
import { ReadOnlyDocuments, safeDocumentName } from '../../platform/readOnlyDocuments';
import { kbNodeOf } from '../../platform/tree/kbNodeElement';
import { qaRowsOf } from '../../platform/tree/qaRowElement';
import type * as FlowModule from './promoteFlow';
import type { PromoteFlow, PromoteResult } from './promoteFlow';
import type { PromoteSession } from './promoteSession';
import type * as SessionsModule from './promoteSessions';

/* eslint-disable @typescript-eslint/no-require-imports -- the API's compare and apply load on first use, not at activation */
const lazy = {
  flow: (): typeof FlowModule => require('./promoteFlow'),
  sessions: (): typeof SessionsModule => require('./promoteSessions'),
  readDocs: (): typeof ReadDocsModule => require('../../api/promote/readDocs'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

const SCHEME = 'knowledgedesk-promote';

export class PromoteFeature extends Disposable {
  private readonly diffTexts = this._register(new ReadOnlyDocuments(SCHEME));
  /** The diff documents of each session whose diff was opened: refreshed after each apply. */
  private readonly diffsOf = new Map<PromoteSession, { left: vscode.Uri; right: vscode.Uri }>();
  private flowOnce?: PromoteFlow;
  private diffs = 0;

  constructor(private readonly c: Container) {
    super();
    this._register(
      c.commands({
        [CommandIds.promote.copyQnas]: (clicked?: unknown, selected?: unknown) => this.qnas('copy', clicked, selected),
        [CommandIds.promote.compareQnas]: (clicked?: unknown, selected?: unknown) => this.qnas('compare', clicked, selected),
        [CommandIds.promote.copyDocuments]: (clicked?: unknown, selected?: unknown) => this.documents('copy', clicked, selected),
        [CommandIds.promote.compareDocuments]: (clicked?: unknown, selected?: unknown) => this.documents('compare', clicked, selected),
      }),
    );
  }

  private get flow(): PromoteFlow {
    return (this.flowOnce ??= new (lazy.flow().PromoteFlow)(this.c, {
      openDiff: (session) => this.openDiff(session),
      applied: (session) => this.refreshDiff(session),
    }));
  }

  /** The Q&As chosen in the tree, or all of them (from the palette, or a group row). */
  async qnas(mode: 'copy' | 'compare', clicked?: unknown, selected?: unknown): Promise<PromoteResult | undefined> {
    const rows = qaRowsOf(clicked, selected);
    const ends = await this.flow.ends();
    if (!ends) return undefined;
    return this.flow.run(lazy.sessions().qnaSession(ends, rows.length ? rows.map((r) => r.id) : undefined), mode);
  }

  /** The documents and folders chosen in the tree, or everything at the top level. */
  async documents(mode: 'copy' | 'compare', clicked?: unknown, selected?: unknown): Promise<PromoteResult | undefined> {
    const chosen = (Array.isArray(selected) && selected.length ? selected : [clicked]).flatMap((x) => kbNodeOf(x) ?? []);
    const ends = await this.flow.ends();
    if (!ends) return undefined;
    const { rootOf } = lazy.readDocs();
    const roots: DocRoot[] = (chosen.length ? chosen : await ends.source.kbNodes.listAll({ parentFolderIds: [null] })).map(rootOf);
    return this.flow.run(lazy.sessions().docsSession(ends, roots), mode);
  }

  private async openDiff(session: PromoteSession): Promise<void> {
    if (!session.csv) return;
    const csv = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading both projects for the diff…'), cancellable: true },
      (_p, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort(new vscode.CancellationError()));
        return session.csv!(abort.signal);
      },
    );
    const n = ++this.diffs;
    const uri = (name: string) => this.diffTexts.uriOf(`/${safeDocumentName(name)}.csv`, String(n));
    const left = uri(session.targetName);
    const right = uri(session.sourceName);
    this.setTexts({ left, right }, csv);
    this.diffsOf.set(session, { left, right });
    await vscode.commands.executeCommand(
      'vscode.diff',
      left,
      right,
      vscode.l10n.t('{0} ↔ {1} (Q&As)', session.targetName, session.sourceName),
      { preview: false },
    );
  }

  /**
   * After an apply (and a Retry Failed) an open diff shows both projects as they are now: compared and read again,
   * and its documents told they changed. A diff closed meanwhile is forgotten instead.
   */
  private async refreshDiff(session: PromoteSession): Promise<void> {
    const diff = this.diffsOf.get(session);
    if (!diff || !session.csv) return;
    const open = (uri: vscode.Uri) => vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
    if (!open(diff.left) && !open(diff.right)) {
      this.diffsOf.delete(session);
      return;
    }
    const signal = new AbortController().signal;
    await session.compare(signal, () => undefined);
    const csv = await session.csv(signal);
    this.setTexts(diff, csv);
  }

  /** Without the export's byte order mark (there for Excel): both sides start with the same plain header line. */
  private setTexts(diff: { left: vscode.Uri; right: vscode.Uri }, csv: { source: string; target: string }): void {
    const plain = (text: string) => text.replace(/^\uFEFF/, '');
    this.diffTexts.set(diff.left, plain(csv.target));
    this.diffTexts.set(diff.right, plain(csv.source));
  }
}
