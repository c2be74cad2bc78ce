// The Q&A editor page: keeps the draft (in webview state, so it survives hiding the panel and a
// restart), validates before sending, and talks to the host through the typed messenger.
import type {
  EditorAction,
  FieldErrors,
  QaDraft,
  QaEditorProtocol,
  QaRecord,
  QaTarget,
  EditorSnapshot,
} from '../../features/qna/editor/protocol';
import { qaEditorStateSchema } from '../../features/qna/editor/protocol';
import type { PanelConnection } from '../../platform/webview/protocol';
import {
  emptyDraft,
  hasErrors,
  normalizeDraft,
  rebaseDraft,
  sameDraft,
  validateDraft,
  type DraftTexts,
} from '../../features/qna/editor/qaDraft';
import type { QaEditorStrings } from '../../features/qna/editor/qaEditorStrings';
import { createH } from '../shared/dom';
import { formatNumber, pageStrings } from '../shared/strings';
import type { Messenger } from '../shared/messenger';
import type { Sanitizer } from '../shared/sanitize';
import { QaForm } from './form';
import { HashtagChooser } from './hashtagChooser';
import { EditorLayout } from './layout';

export class EditorController {
  private readonly layout: EditorLayout;
  private readonly form: QaForm;
  private target: QaTarget | null = null;
  /** The editor's connection as the host names it, kept in the page state for a restart. */
  private connection: PanelConnection | undefined;
  private record: QaRecord | null = null;
  /** The saved version the draft is compared with (a new Q&A: the empty draft). */
  private base: QaDraft | null = null;
  private fieldErrors: FieldErrors = {};
  private validateLive = false;
  private busy = 0;
  private lastDirty: { dirty: boolean; question: string } | undefined;
  private previewTimer: ReturnType<typeof setTimeout> | undefined;
  /** A draft restored from state while the Q&A itself is still loading. */
  private pendingDraft: QaDraft | undefined;
  private readonly s: QaEditorStrings;
  private readonly draftTexts: DraftTexts;
  private readonly chooser: HashtagChooser;

  constructor(
    private readonly doc: Document,
    private readonly messenger: Messenger<QaEditorProtocol>,
    sanitizer: Sanitizer,
  ) {
    const h = createH(doc);
    this.s = pageStrings<QaEditorStrings>(doc);
    this.draftTexts = { strings: this.s, formatNumber: (n) => formatNumber(n, undefined, doc) };
    this.layout = new EditorLayout(h, doc, sanitizer, (a) => void this.act(a));
    this.form = new QaForm(
      h,
      doc,
      () => this.onEdit(),
      () => void this.chooser.run(() => !!this.base),
    );
    this.chooser = new HashtagChooser(doc, messenger, this.form, this.layout, this.s, () => this.onEdit());
    this.layout.formHost.append(this.form.element);
    this.layout.settingsHost.append(this.form.settings);
  }

  /** Mounts the page into `app` and tells the host it is ready. */
  start(app: HTMLElement): void {
    app.replaceChildren(this.layout.root);
    app.removeAttribute('aria-busy');
    this.setEnabled(false);
    this.layout.showRecord(null, true);
    const m = this.messenger;
    m.on('init', (p) => {
      this.connection = p.connection;
      this.init(p.target, p.record, p.prefill, p.loading);
    });
    m.on('record', ({ record }) => this.target && this.applyRecord(record));
    m.on('busy', ({ busy, label }) => this.layout.setBusy(busy || this.busy > 0, label));
    m.on('error', (e) => this.layout.showError(e?.message ?? null));
    // Only the test build answers the tests' requests (src/testBuild.d.ts): esbuild drops this block elsewhere.
    if (globalThis.__KD_TEST__) {
      m.handle('snapshot', () => this.snapshot());
      m.handle('drive', ({ fill, click, chooseHashtags }) => {
        if (fill) {
          this.form.value = { ...this.form.value, ...fill };
          this.onEdit();
        }
        if (click) void this.act(click);
        if (chooseHashtags) this.form.chooseHashtags.click();
        return this.snapshot();
      });
    }
    this.doc.addEventListener('keydown', (e) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void this.act('save');
      }
    });
    m.start();
  }

  snapshot(): EditorSnapshot {
    return {
      target: this.target,
      draft: this.base ? this.form.value : null,
      dirty: this.isDirty(),
      busy: this.busy > 0,
      fieldErrors: this.fieldErrors,
      error: this.layout.errorMessage,
      previewHtml: this.layout.preview.innerHTML,
      blockedImages: this.layout.blockedImages,
      feedbackText: this.layout.feedbackText,
      notice: this.layout.noticeMessage,
      choosingHashtags: this.chooser.open,
    };
  }

  private init(target: QaTarget, record: QaRecord | null, prefill: Partial<QaDraft> | null, loading: boolean): void {
    const saved = this.messenger.getState(qaEditorStateSchema);
    const restored = saved?.draft && sameTarget(saved.target, target) ? saved.draft : undefined;
    this.target = target;
    this.record = record;
    this.base = record ? record.values : target.kind === 'new' ? emptyDraft() : null;
    const draft = restored ?? (target.kind === 'new' ? { ...emptyDraft(), ...prefill } : record?.values);
    this.form.setNew(target.kind === 'new');
    this.layout.showRecord(record, !record && target.kind === 'existing');
    if (draft) this.form.value = draft;
    this.setEnabled(!!this.base);
    this.pendingDraft = this.base ? undefined : restored;
    if (restored && (this.base ? !sameDraft(normalizeDraft(restored), normalizeDraft(this.base)) : true)) {
      this.layout.showNotice(this.s.restored, { label: this.s.discardChanges, run: () => void this.discard() });
    }
    this.afterChange(draft ?? null);
    if (target.kind === 'new' && !loading) this.form.focus();
  }

  /** A newer version from the service: untouched fields follow it, edited ones keep the user's text. */
  private applyRecord(record: QaRecord, replaceDraft = false): void {
    const oldBase = this.base;
    const firstLoad = !this.record && !oldBase;
    this.record = record;
    this.base = record.values;
    this.form.setNew(false);
    const current = this.form.value;
    const draft = replaceDraft
      ? record.values
      : firstLoad
        ? (this.pendingDraft ?? record.values)
        : rebaseDraft(oldBase ?? record.values, record.values, current);
    this.pendingDraft = undefined;
    this.form.value = draft;
    this.layout.showRecord(record, false);
    this.setEnabled(true);
    this.afterChange(draft);
  }

  private async act(action: EditorAction): Promise<void> {
    if (this.busy || !this.target) return;
    if (action === 'save') return this.save();
    if (this.target.kind !== 'existing') return;
    await this.call(async () => {
      const m = this.messenger;
      switch (action) {
        case 'toggle':
          return this.applyRecord((await m.request('toggle', {})).record);
        case 'reload':
          return this.discard();
        case 'copyId':
          await m.request('copyId', {});
          return this.layout.showNotice(this.s.copiedId);
        case 'delete':
          if ((await m.request('delete', {})).deleted) {
            this.layout.showNotice(this.s.deleted);
            this.setEnabled(false);
          }
          return;
        case 'helpful':
        case 'notHelpful':
        case 'clearFeedback': {
          const counts = await m.request('feedback', { isPositive: action === 'helpful' ? true : action === 'notHelpful' ? false : null });
          if (this.record) this.record = { ...this.record, ...counts };
          this.layout.showFeedback(counts);
          return this.layout.showNotice(action === 'clearFeedback' ? this.s.feedbackCleared : this.s.feedbackRecorded);
        }
      }
    });
  }

  private async save(): Promise<void> {
    const target = this.target!;
    const draft = this.form.value;
    this.validateLive = true;
    this.showErrors(validateDraft(draft, { isNew: target.kind === 'new' }, this.draftTexts));
    if (hasErrors(this.fieldErrors)) {
      this.layout.showNotice(null);
      this.form.focusFirstInvalid();
      return;
    }
    await this.call(async () => {
      const res = await this.messenger.request('save', { draft });
      if (res.outcome === 'invalid') {
        this.showErrors(res.fieldErrors);
        this.form.focusFirstInvalid();
      } else if (res.outcome === 'unchanged') {
        this.layout.showNotice(this.s.nothingToSave);
      } else {
        this.validateLive = false;
        this.target = { kind: 'existing', id: res.record.id };
        this.applyRecord(res.record, true);
        this.layout.showNotice(res.created ? this.s.created : this.s.saved);
      }
    });
  }

  private async discard(): Promise<void> {
    this.layout.showNotice(null);
    if (this.target?.kind === 'new') {
      this.form.value = { ...emptyDraft() };
      this.afterChange(this.form.value);
      return;
    }
    await this.call(async () => this.applyRecord((await this.messenger.request('reload', {})).record, true));
  }

  /** Runs one request: buttons disabled meanwhile; a failure shows above the form (the host also notifies). */
  private async call(fn: () => Promise<void>): Promise<void> {
    this.busy++;
    this.layout.setBusy(true);
    this.layout.showError(null);
    try {
      await fn();
    } catch (error) {
      const e = error as { message?: string; code?: string };
      if (e.code !== 'cancelled') this.layout.showError(e.message ?? String(error));
    } finally {
      this.busy--;
      this.layout.setBusy(this.busy > 0);
    }
  }

  private onEdit(): void {
    const draft = this.form.value;
    if (this.validateLive && this.target) this.showErrors(validateDraft(draft, { isNew: this.target.kind === 'new' }, this.draftTexts));
    clearTimeout(this.previewTimer);
    this.previewTimer = setTimeout(() => this.layout.renderPreview(this.form.value.answer), 120);
    this.persist(draft);
  }

  private afterChange(draft: QaDraft | null): void {
    this.layout.renderPreview(draft?.answer ?? '');
    if (!this.validateLive) this.showErrors({});
    this.persist(draft);
  }

  private persist(draft: QaDraft | null): void {
    if (!this.target) return;
    this.messenger.setState(qaEditorStateSchema, {
      target: this.target,
      ...(draft ? { draft } : {}),
      ...(this.connection ? { connection: this.connection } : {}),
    });
    const dirty = this.isDirty();
    const question = draft?.question ?? '';
    this.layout.setDirty(dirty);
    if (this.lastDirty?.dirty !== dirty || this.lastDirty.question !== question) {
      this.lastDirty = { dirty, question };
      this.messenger.notify('dirty', { dirty, question });
    }
  }

  private isDirty(): boolean {
    return !!this.base && !sameDraft(normalizeDraft(this.form.value), normalizeDraft(this.base));
  }

  private showErrors(errors: FieldErrors): void {
    this.fieldErrors = errors;
    this.form.showErrors(errors);
  }

  private setEnabled(enabled: boolean): void {
    this.form.setDisabled(!enabled);
    this.layout.button('save').disabled = !enabled;
  }
}

function sameTarget(a: QaTarget, b: QaTarget): boolean {
  return a.kind === 'new' ? b.kind === 'new' && a.key === b.key : b.kind === 'existing' && a.id === b.id;
}
