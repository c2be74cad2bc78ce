// Copy to Connection… / Compare with Connection…: choose the other connection, compare (cancellable), preview,
// apply with progress and cancel, then a summary with Retry Failed, which compares again first so nothing that
// arrived meanwhile is copied twice.
import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import type { ItemOutcome } from '../../api/promote/itemOutcomes';
import type { Container } from '../../container';
import { toAbortSignal } from '../../platform/cancellation';
import { checkedClientOf } from '../../platform/connection/connectionClient';
import { CONNECTION_PICK_OPTIONS, connectionItems } from '../../platform/connection/connectionItems';
import { toUserFacing } from '../../platform/errorMessages';
import { previewItems, previewTitle, showPreview } from './promotePreview';
import type { PromoteRow, PromoteSession } from './promoteSession';

export interface Ends {
  source: ApiClient;
  target: ApiClient;
  sourceName: string;
  targetName: string;
}

export interface PromoteResult {
  outcomes: Map<string, ItemOutcome>;
}

export class PromoteFlow {
  constructor(
    private readonly c: Container,
    private readonly diff: {
      openDiff: (session: PromoteSession) => Promise<void>;
      /** After each apply: an open diff of the session shows the target as it is now. */
      applied: (session: PromoteSession) => Promise<void>;
    },
  ) {}

  /** The other connection, checked; undefined when the person cancelled or it failed (said in a message). */
  async ends(): Promise<Ends | undefined> {
    const store = this.c.connection.store;
    const active = store.active;
    const others = store.connections.filter((x) => x.id !== active.id);
    if (!others.length) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('There is no other connection to copy to. Add one with "{0}".', vscode.l10n.t('Knowledge Desk: Add Connection')),
      );
      return undefined;
    }
    // Each listed with where it goes and its state, as Switch Connection lists them: one without a key shows it.
    const c = this.c;
    // Those that answer first: Enter on the first item should not pick a connection without a key.
    const items = connectionItems(
      { manager: c.connection, secrets: c.secrets, settings: c.settings, localProjects: c.localProjects },
      others,
      true,
    ).then((list) => [...list.filter((i) => i.state === 'connected'), ...list.filter((i) => i.state !== 'connected')]);
    const picked = await this.c.ui.showQuickPick(items, {
      ...CONNECTION_PICK_OPTIONS,
      title: vscode.l10n.t('From {0} to…', active.name),
      placeHolder: vscode.l10n.t('The connection to compare with or copy to'),
    });
    if (!picked) return undefined;
    const source = await this.c.connection.getClient();
    try {
      const target = await checkedClientOf(this.c.connection, this.c.secrets, this.c.logger, picked.connection);
      return { source, target, sourceName: active.name, targetName: picked.connection.name };
    } catch (error) {
      void vscode.window.showErrorMessage(toUserFacing(error).message);
      return undefined;
    }
  }

  /** Compares, previews and applies; returns what was applied (undefined when nothing was). */
  async run(session: PromoteSession, mode: 'copy' | 'compare', only?: ReadonlySet<string>): Promise<PromoteResult | undefined> {
    let rows = await this.compare(session);
    if (!rows) return undefined;
    if (only) rows = rows.filter((r) => r.kind === 'same' || only.has(r.key));
    const changes = rows.filter((r) => r.kind !== 'same');
    if (!changes.length) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          '{0}: {1} and {2} are the same ({3} compared).',
          session.heading,
          session.sourceName,
          session.targetName,
          rows.length,
        ),
      );
      return undefined;
    }
    const title = previewTitle(session.heading, session.sourceName, session.targetName, rows);
    let picked: PromoteRow[] | undefined;
    for (;;) {
      const answer = await showPreview(this.c.ui, title, previewItems(rows, mode === 'copy'), {
        mode,
        target: session.targetName,
        withDiff: !!session.csv,
      });
      if (answer !== 'diff') {
        picked = answer?.picked;
        break;
      }
      await this.diff.openDiff(session);
    }
    if (!picked?.length) return undefined;
    const deletes = picked.filter((r) => r.kind === 'onlyInTarget').length;
    if (deletes) {
      const yes = vscode.l10n.t('Delete in {0}', session.targetName);
      const answer = await this.c.ui.showWarningMessage(
        vscode.l10n.t('Delete {0} {1} that only {2} has? This cannot be undone.', deletes, session.what, session.targetName),
        { modal: true },
        yes,
      );
      if (answer !== yes) return undefined;
    }
    return this.apply(session, picked, deletes > 0);
  }

  private async compare(session: PromoteSession): Promise<PromoteRow[] | undefined> {
    return vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Comparing {0} of {1} with {2}', session.what, session.sourceName, session.targetName),
        cancellable: true,
      },
      async (progress, token) => {
        const abort = toAbortSignal(token);
        try {
          return await session.compare(abort.signal!, (message) => progress.report({ message }));
        } catch (error) {
          if (token.isCancellationRequested) return undefined;
          throw error;
        } finally {
          abort.dispose();
        }
      },
    );
  }

  private async apply(session: PromoteSession, picked: PromoteRow[], deleteOnlyInTarget: boolean): Promise<PromoteResult> {
    const outcomes = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Copying {0} to {1}', session.what, session.targetName),
        cancellable: true,
      },
      async (progress, token) => {
        const abort = toAbortSignal(token);
        let last = 0;
        try {
          return await session.apply(new Set(picked.map((r) => r.key)), {
            deleteOnlyInTarget,
            signal: abort.signal!,
            onProgress: (done, total) => {
              progress.report({ message: `${done}/${total}`, increment: ((done - last) / Math.max(1, total)) * 100 });
              last = done;
            },
          });
        } finally {
          abort.dispose();
        }
      },
    );
    this.summarize(session, outcomes);
    // Not awaited: reading both projects again must not hold the command (a test waits for the documents instead).
    void this.diff.applied(session).catch((error) => this.c.log('promote').warn(`refreshing the diff: ${toUserFacing(error).message}`));
    return { outcomes };
  }

  private summarize(session: PromoteSession, outcomes: Map<string, ItemOutcome>): void {
    const count = (s: ItemOutcome['status']) => [...outcomes.values()].filter((o) => o.status === s).length;
    const [done, failed, cancelled] = [count('done'), count('failed'), count('cancelled')];
    const text = vscode.l10n.t(
      '{0} to {1}: {2} done, {3} failed, {4} cancelled.',
      session.heading,
      session.targetName,
      done,
      failed,
      cancelled,
    );
    const retry = vscode.l10n.t('Retry Failed');
    const show = failed || cancelled ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(text, ...(failed || cancelled ? [retry] : [])).then((choice) => {
      if (choice !== retry) return;
      const again = new Set([...outcomes].filter(([, o]) => o.status !== 'done').map(([k]) => k));
      void this.run(session, 'copy', again).catch((error) => void vscode.window.showErrorMessage(toUserFacing(error).message));
    });
    for (const [key, o] of outcomes) if (o.status === 'failed') this.c.log('promote').warn(`${key}: ${o.message}`);
  }
}
