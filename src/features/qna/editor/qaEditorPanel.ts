import * as vscode from 'vscode';
import type { PanelConnection } from '../../../platform/webview/protocol';
import type { FaqResource } from '../../../api/resources/faq';
import { formatNumber } from '../../../platform/l10n';
import { hostSetup, reportError, titleWithConnection, type PanelBasics } from '../../../platform/webview/panelErrors';
import { WebviewPanelHost } from '../../../platform/webview/webviewPanel';
import { qaEditorProtocol, type QaDraft, type QaEditorProtocol, type QaRecord, type QaTarget, type SaveResult } from './protocol';
import { changedFields, hasErrors, normalizeDraft, registerBody, validateDraft, type RegisterBody, type UpdateFields } from './qaDraft';
import { qaEditorStrings } from './qaEditorStrings';
import { editorTitle, ellipsis, recordFromDetail } from './qaRecord';

export type QaEditorTarget =
  | { kind: 'new'; prefill?: { question?: string; answer?: string; similarQuestions?: string[]; hashtags?: string[] } }
  /** `connectionId`: opened by a panel pinned to that connection (a chat's Q&A citation, issue 27); else the active one. */
  | { kind: 'existing'; id: string; connectionId?: string };

export interface QaSaveEvent {
  id: string;
  change: 'created' | 'updated' | 'status' | 'feedback';
}

/** What an editor needs from the extension (built once by QaEditorPanels). */
export interface EditorContext extends PanelBasics {
  faq(): Promise<FaqResource>;
  confirm(message: string, action: string): Promise<boolean>;
  /** The shared hashtag picker (platform/pickers/hashtagPicker.ts): the chosen list, undefined when cancelled. */
  pickHashtags(current: readonly string[]): Promise<string[] | undefined>;
  allowRemoteImages(): boolean;
  saved(panel: QaEditorPanel, event: QaSaveEvent): void;
  deleted(panel: QaEditorPanel, id: string): void;
  /** The connection it works on, for the page state (a restart reopens it there). */
  connection?(): PanelConnection;
}

/** The last request a panel sent to the service (tests check that an update carries only changed fields). */
export type SentRequest =
  { op: 'register'; body: RegisterBody } | { op: 'update'; body: UpdateFields & { id: string } } | { op: 'delete'; id: string };

/** One Q&A editor: a new Q&A (until saved) or an existing one, by id. */
export class QaEditorPanel extends WebviewPanelHost<QaEditorProtocol, SentRequest> {
  private record: QaRecord | undefined;
  private loading: Promise<void> | undefined;
  private dirty = false;
  private typedQuestion = '';
  private readonly savedEmitter = this._register(new vscode.EventEmitter<QaSaveEvent>());
  /** This editor saved, toggled or rated its Q&A (QaEditorPanels.onDidSave has every editor's). */
  readonly onDidSave = this.savedEmitter.event;

  constructor(
    panel: vscode.WebviewPanel,
    private readonly ctx: EditorContext,
    private target: QaTarget,
    private readonly prefill?: Partial<QaDraft>,
  ) {
    super(panel, {
      ...hostSetup(ctx),
      page: {
        name: 'qaEditor',
        title: vscode.l10n.t('Q&A'),
        styles: ['qaEditor.css'],
        images: ctx.allowRemoteImages() ? 'remote' : 'local',
        strings: qaEditorStrings(),
      },
      protocol: qaEditorProtocol,
      label: 'Q&A editor page',
    });
    const ch = this.channel;
    ch.handle('save', ({ draft }) => this.save(draft));
    ch.handle('delete', () => this.remove());
    ch.handle('toggle', () => this.run('Turn Q&A on/off', vscode.l10n.t('Turning the Q&A on or off…'), () => this.toggle()));
    ch.handle('copyId', () => this.copyId());
    ch.handle('feedback', ({ isPositive }) =>
      this.run('Q&A feedback', vscode.l10n.t('Sending your feedback…'), () => this.feedback(isPositive)),
    );
    ch.handle('reload', () => this.run('Reload Q&A', vscode.l10n.t('Loading the Q&A…'), async () => ({ record: await this.fetch() })));
    ch.handle('chooseHashtags', async ({ current }) => ({ hashtags: (await this.ctx.pickHashtags(current)) ?? null }));
    ch.onNotification('dirty', ({ dirty, question }) => {
      this.dirty = dirty;
      this.typedQuestion = question;
      this.updateTitle();
    });
    this.updateTitle();
    if (target.kind === 'existing') void this.load();
  }

  get id(): string | undefined {
    return this.target.kind === 'existing' ? this.target.id : undefined;
  }

  get current(): QaRecord | undefined {
    return this.record;
  }

  get isDirty(): boolean {
    return this.dirty;
  }

  /** Reads the Q&A again from the service and shows it (edited fields keep the user's text). */
  load(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const record = await this.fetch();
        this.channel.notify('record', { record });
      } catch (error) {
        // Closed before the answer came: nobody is waiting for it, so no error either.
        if (this.isDisposed) return;
        const shown = reportError(this.ctx.errors, 'Open Q&A', error);
        if (shown) this.channel.notify('error', { message: vscode.l10n.t('Could not load the Q&A: {0}', shown.message) });
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  protected onPageReady(): void {
    const prefill = this.target.kind === 'new' && this.prefill ? this.prefill : null;
    this.channel.notify('init', {
      target: this.target,
      record: this.record ?? null,
      prefill,
      loading: !!this.loading,
      connection: this.ctx.connection?.(),
    });
  }

  private async fetch(): Promise<QaRecord> {
    const id = this.requireId();
    const detail = await (await this.ctx.faq()).get(id, { format: 'html' });
    this.record = recordFromDetail(detail);
    this.updateTitle();
    return this.record;
  }

  private async save(draft: QaDraft): Promise<SaveResult> {
    const fieldErrors = validateDraft(
      draft,
      { isNew: this.target.kind === 'new' },
      { strings: qaEditorStrings(), formatNumber: (n) => formatNumber(n) },
    );
    if (hasErrors(fieldErrors)) return { outcome: 'invalid', fieldErrors };
    return this.run('Save Q&A', vscode.l10n.t('Saving the Q&A…'), async () => {
      const faq = await this.ctx.faq();
      if (this.target.kind === 'new') {
        const body = registerBody(draft);
        this.sentEmitter.fire({ op: 'register', body });
        const { id } = await faq.register(body);
        this.target = { kind: 'existing', id };
        const record = await this.fetchOr(draft);
        this.saved({ id, change: 'created' });
        return { outcome: 'saved', record, created: true };
      }
      const id = this.requireId();
      if (!this.record) await this.fetch();
      const changes = changedFields(this.record!.values, draft);
      if (!Object.keys(changes).length) return { outcome: 'unchanged' };
      this.sentEmitter.fire({ op: 'update', body: { id, ...changes } });
      await faq.update({ id, ...changes });
      const record = await this.fetchOr(draft);
      this.saved({ id, change: 'updated' });
      return { outcome: 'saved', record, created: false };
    });
  }

  /** After a write: the service's version, or (if reading it fails) the draft as sent. */
  private async fetchOr(draft: QaDraft): Promise<QaRecord> {
    try {
      return await this.fetch();
    } catch (error) {
      this.ctx.log.warn(`reading the Q&A back after saving failed: ${String(error)}`);
      const counts = { positiveCount: 0, negativeCount: 0 };
      const base = this.record ?? { id: this.requireId(), userFeedback: counts, agentFeedback: counts, agentEditor: [], agentViewer: [] };
      this.record = { ...base, id: this.requireId(), values: { ...normalizeDraft(draft), memo: '' } };
      return this.record;
    }
  }

  private async toggle(): Promise<{ record: QaRecord }> {
    const id = this.requireId();
    const status = this.record?.values.status === 'off' ? 'on' : 'off';
    this.sentEmitter.fire({ op: 'update', body: { id, status } });
    await (await this.ctx.faq()).update({ id, status });
    const record = await this.fetch();
    this.saved({ id, change: 'status' });
    return { record };
  }

  private async feedback(
    isPositive: boolean | null,
  ): Promise<{ userFeedback: QaRecord['userFeedback']; agentFeedback: QaRecord['agentFeedback'] }> {
    const id = this.requireId();
    if (!this.record) await this.fetch();
    const res = await (await this.ctx.faq()).feedback({ query: this.record!.values.question, id, isPositive });
    // The answer carries the agents' counts only (docs/api.md#qa-feedback); read the Q&A again for both.
    const counts = res.result?.faqTrainSearchResult;
    const record = await this.fetch().catch((error: unknown) => {
      if (!counts) throw error;
      return (this.record = {
        ...this.record!,
        agentFeedback: counts.agentFeedback,
        userFeedback: counts.userFeedback ?? this.record!.userFeedback,
      });
    });
    this.saved({ id, change: 'feedback' });
    return { userFeedback: record.userFeedback, agentFeedback: record.agentFeedback };
  }

  private async remove(): Promise<{ deleted: boolean }> {
    const id = this.requireId();
    const question = this.record?.values.question ?? id;
    const confirmed = await this.ctx.confirm(
      vscode.l10n.t('Delete the Q&A "{0}"? This cannot be undone.', ellipsis(question, 60)),
      vscode.l10n.t('Delete'),
    );
    if (!confirmed) return { deleted: false };
    return this.run('Delete Q&A', vscode.l10n.t('Deleting the Q&A…'), async () => {
      this.sentEmitter.fire({ op: 'delete', id });
      await (await this.ctx.faq()).delete(id);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Deleted the Q&A "{0}"', ellipsis(question)), 4000);
      this.ctx.deleted(this, id);
      setTimeout(() => this.dispose(), 0); // after the answer reaches the page
      return { deleted: true };
    });
  }

  private async copyId(): Promise<{ copied: boolean }> {
    const id = this.requireId();
    await vscode.env.clipboard.writeText(id);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the ID of the Q&A: {0}', id), 3000);
    return { copied: true };
  }

  /**
   * Busy indicator (`label`, shown), and failures through the normal error path (log + notification, with
   * `what` in the log) as well as inline.
   */
  private async run<T>(what: string, label: string, fn: () => Promise<T>): Promise<T> {
    this.channel.notify('busy', { busy: true, label });
    try {
      return await fn();
    } catch (error) {
      reportError(this.ctx.errors, what, error);
      throw error;
    } finally {
      this.channel.notify('busy', { busy: false });
    }
  }

  private saved(e: QaSaveEvent): void {
    this.savedEmitter.fire(e);
    this.ctx.saved(this, e);
  }

  private requireId(): string {
    if (this.target.kind !== 'existing') throw new Error(vscode.l10n.t('This Q&A has not been saved yet.'));
    return this.target.id;
  }

  /** Also when its connection was renamed or removed (QaEditorPanels). */
  updateTitle(): void {
    if (this.isDisposed) return;
    const question = this.dirty || !this.record ? this.typedQuestion || this.record?.values.question || '' : this.record.values.question;
    const title = this.target.kind === 'existing' && !question ? vscode.l10n.t('Q&A') : editorTitle(question, this.dirty);
    this.panel.title = titleWithConnection(title, this.ctx);
  }
}
