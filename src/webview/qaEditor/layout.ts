// The editor page around the form: header with actions and feedback, banners, progress, answer preview.
import type { EditorAction, QaRecord } from '../../features/qna/editor/protocol';
import type { QaEditorStrings } from '../../features/qna/editor/qaEditorStrings';
import type { H } from '../shared/dom';
import { icon, type IconName } from '../shared/icons';
import type { Sanitizer } from '../shared/sanitize';
import { format, formatDateTime, formatNumber, pageStrings } from '../shared/strings';
import { card, dismissibleBanner, pageHeader } from '../shared/widgets';

export type ActionHandler = (action: EditorAction) => void;

export class EditorLayout {
  readonly root: HTMLElement;
  readonly formHost: HTMLElement;
  readonly settingsHost: HTMLElement;
  readonly preview: HTMLElement;
  private readonly title: HTMLElement;
  private readonly statusBadge: HTMLElement;
  private readonly dirtyBadge: HTMLElement;
  private readonly meta: HTMLElement;
  private readonly progress: HTMLElement;
  private readonly errorBanner: HTMLElement;
  private readonly errorText: HTMLElement;
  /** Always present and a live region (role=status): a notice shown inside it is announced. */
  private readonly notice: HTMLElement;
  private readonly noticeBox: HTMLElement;
  private readonly noticeText: HTMLElement;
  private readonly noticeAction: HTMLButtonElement;
  private readonly previewNote: HTMLElement;
  private readonly feedbackGroup: HTMLElement;
  private readonly helpfulCount: HTMLElement;
  private readonly notHelpfulCount: HTMLElement;
  private feedbackSummary = '';
  private readonly buttons = new Map<EditorAction, HTMLButtonElement>();
  private noticeCallback: (() => void) | undefined;
  blockedImages = 0;
  private readonly s: QaEditorStrings;

  constructor(
    private readonly h: H,
    private readonly doc: Document,
    private readonly sanitizer: Sanitizer,
    onAction: ActionHandler,
  ) {
    const s = (this.s = pageStrings<QaEditorStrings>(doc));
    const button = (action: EditorAction, label: string, iconName: IconName, cls = 'kd-secondary', tip?: string): HTMLButtonElement => {
      const b = h(
        'button',
        {
          class: `kd-button ${cls}`,
          attrs: { type: 'button', title: tip ?? label, 'data-action': action },
          on: { click: () => onAction(action) },
        },
        icon(doc, iconName),
        h('span', { class: 'kd-button-label' }, label),
      );
      this.buttons.set(action, b);
      return b;
    };
    this.title = h('h1', { class: 'kd-title', attrs: { id: 'qa-title' } }, s.newQa);
    this.statusBadge = h('span', { class: 'kd-badge', attrs: { hidden: true } });
    this.dirtyBadge = h('span', { class: 'kd-badge kd-badge-dirty', attrs: { hidden: true } }, s.unsavedChanges);
    this.meta = h('div', { class: 'kd-meta' });
    const isMac = /Mac/.test(doc.defaultView?.navigator.platform ?? '');
    const toolbar = h(
      'div',
      { class: 'kd-toolbar', attrs: { role: 'group', 'aria-label': s.actions } },
      button('save', s.save, 'save', 'kd-primary', format(s.saveTip, isMac ? '⌘S' : 'Ctrl+S')), // l10n-ignore: key names
      button('toggle', s.turnOff, 'power', 'kd-secondary', s.turnOffTip),
      button('copyId', s.copyId, 'copy'),
      button('reload', s.reload, 'refresh', 'kd-secondary', s.reloadTip),
      button('delete', s.delete, 'trash', 'kd-secondary kd-danger'),
    );
    this.progress = h('div', { class: 'kd-progress', attrs: { hidden: true, role: 'progressbar', 'aria-label': s.working } });
    this.errorText = h('span', { class: 'kd-banner-text' });
    this.errorBanner = dismissibleBanner(h, 'kd-banner-error', 'alert', this.errorText, () => this.showError(null));
    this.noticeText = h('span', { class: 'kd-banner-text' });
    this.noticeAction = h('button', {
      class: 'kd-link-button',
      attrs: { type: 'button', hidden: true },
      on: { click: () => this.noticeCallback?.() },
    });
    this.noticeBox = h('div', { class: 'kd-banner kd-banner-info', attrs: { hidden: true } }, this.noticeText, this.noticeAction);
    this.notice = h('div', { class: 'kd-notice', attrs: { role: 'status', id: 'qa-notice' } }, this.noticeBox);
    this.formHost = h('section', { class: 'kd-main-col', attrs: { 'aria-labelledby': 'qa-title' } });
    // Focusable so it can be scrolled from the keyboard; not a live region (it would read the answer at every keystroke).
    this.preview = h('div', {
      class: 'kd-rendered kd-preview',
      attrs: { id: 'qa-preview', tabindex: 0, role: 'region', 'aria-labelledby': 'qa-preview-title' },
    });
    this.previewNote = h('div', { class: 'kd-description', attrs: { hidden: true } });
    this.settingsHost = card(h, 'qa-settings-title', s.details);
    this.helpfulCount = h('span', { class: 'kd-count', attrs: { 'aria-hidden': 'true' } }, '0');
    this.notHelpfulCount = h('span', { class: 'kd-count', attrs: { 'aria-hidden': 'true' } }, '0');
    const helpful = button('helpful', s.helpful, 'thumbsUp');
    helpful.append(this.helpfulCount);
    const notHelpful = button('notHelpful', s.notHelpful, 'thumbsDown');
    notHelpful.append(this.notHelpfulCount);
    // Feedback is recorded with the question as the search query (docs/api.md#qa-feedback).
    this.feedbackGroup = h(
      'div',
      { class: 'kd-feedback', attrs: { role: 'group', 'aria-label': s.feedback, hidden: true } },
      helpful,
      notHelpful,
      button('clearFeedback', s.clearFeedback, 'clear', 'kd-secondary', s.clearFeedbackTip),
    );
    const actions = h('div', { class: 'kd-actions' }, toolbar, this.feedbackGroup);
    this.root = h(
      'div',
      { class: 'kd-page' },
      this.progress,
      pageHeader(h, [this.title, this.statusBadge, this.dirtyBadge], this.meta, actions),
      this.errorBanner,
      this.notice,
      h(
        'div',
        { class: 'kd-columns' },
        this.formHost,
        h(
          'aside',
          { class: 'kd-side-col' },
          card(h, 'qa-preview-title', s.answerPreview, this.preview, this.previewNote),
          this.settingsHost,
        ),
      ),
    );
  }

  /** Header, toolbar and feedback for a saved Q&A (record) or a new one (null). */
  showRecord(record: QaRecord | null, loading: boolean): void {
    const existing = !!record || loading;
    const s = this.s;
    this.title.textContent = record ? record.values.question : loading ? s.loadingQa : s.newQa;
    this.statusBadge.hidden = !record;
    if (record) {
      const on = record.values.status === 'on';
      this.statusBadge.textContent = on ? s.statusOn : s.statusOff;
      this.statusBadge.className = `kd-badge ${on ? 'kd-badge-on' : 'kd-badge-off'}`;
      this.setLabel('toggle', on ? s.turnOff : s.turnOn, on ? s.turnOffTip : s.turnOnTip);
    }
    const meta = record
      ? [
          `ID ${record.id}`, // the same in every language
          record.createdDate && format(s.metaCreated, this.date(record.createdDate)),
          record.lastUpdatedDate && format(s.metaUpdated, this.date(record.lastUpdatedDate)),
          record.values.folder && format(s.metaFolder, record.values.folder),
        ]
      : [];
    this.meta.textContent = meta.filter(Boolean).join('  ·  ');
    this.meta.hidden = !meta.length;
    for (const a of ['toggle', 'copyId', 'reload', 'delete'] as const) this.buttons.get(a)!.hidden = !existing;
    this.feedbackGroup.hidden = !record;
    if (record) this.showFeedback(record);
  }

  showFeedback(record: Pick<QaRecord, 'userFeedback' | 'agentFeedback'>): void {
    const s = this.s;
    const n = (v: number): string => formatNumber(v, undefined, this.doc);
    const a = record.agentFeedback;
    const u = record.userFeedback;
    const up = format(s.helpfulCounts, n(a.positiveCount + u.positiveCount), n(a.positiveCount), n(u.positiveCount));
    const down = format(s.notHelpfulCounts, n(a.negativeCount + u.negativeCount), n(a.negativeCount), n(u.negativeCount));
    this.helpfulCount.textContent = n(a.positiveCount + u.positiveCount);
    this.notHelpfulCount.textContent = n(a.negativeCount + u.negativeCount);
    this.buttons.get('helpful')!.title = format(s.helpfulTip, up);
    this.buttons.get('notHelpful')!.title = format(s.notHelpfulTip, down);
    this.buttons.get('helpful')!.setAttribute('aria-label', format(s.helpfulLabel, up));
    this.buttons.get('notHelpful')!.setAttribute('aria-label', format(s.notHelpfulLabel, down));
    this.feedbackSummary = [up, down].join('; ');
  }

  get feedbackText(): string {
    return this.feedbackGroup.hidden ? '' : this.feedbackSummary;
  }

  setDirty(dirty: boolean): void {
    this.dirtyBadge.hidden = !dirty;
  }

  setBusy(busy: boolean, label?: string): void {
    this.progress.hidden = !busy;
    this.progress.setAttribute('aria-label', label ?? this.s.working);
    for (const b of this.buttons.values()) b.disabled = busy;
    this.root.setAttribute('aria-busy', String(busy));
  }

  showError(message: string | null): void {
    this.errorText.textContent = message ?? '';
    this.errorBanner.hidden = !message;
  }

  get errorMessage(): string | null {
    return this.errorBanner.hidden ? null : this.errorText.textContent;
  }

  /** An info line, optionally with one action (e.g. "Discard" after restoring a draft). */
  showNotice(message: string | null, action?: { label: string; run(): void }): void {
    this.noticeText.textContent = message ?? '';
    this.noticeBox.hidden = !message;
    this.noticeAction.hidden = !action;
    this.noticeAction.textContent = action?.label ?? '';
    this.noticeCallback = action?.run;
  }

  /** The answer as readers will see it: sanitized HTML, or plain text kept as typed. */
  renderPreview(answer: string): void {
    this.blockedImages = 0;
    if (!answer.trim()) {
      this.preview.replaceChildren(this.h('p', { class: 'kd-placeholder' }, this.s.previewEmpty));
    } else if (/<\/?[a-z][\w-]*(\s[^>]*)?>/i.test(answer)) {
      this.preview.replaceChildren(this.sanitizer.sanitizeToFragment(answer));
      this.blockedImages = this.sanitizer.lastReport.blockedImages;
    } else {
      this.preview.replaceChildren(this.h('p', { class: 'kd-plain' }, answer));
    }
    this.previewNote.hidden = !this.blockedImages;
    this.previewNote.textContent = !this.blockedImages
      ? ''
      : this.blockedImages === 1
        ? this.s.blockedImageOne
        : format(this.s.blockedImagesMany, formatNumber(this.blockedImages, undefined, this.doc));
  }

  /** The notice shown now ('' when none). */
  get noticeMessage(): string {
    return this.noticeBox.hidden ? '' : (this.noticeText.textContent ?? '');
  }

  /** A date of the service in the display language; a day without a time stays a day; what is not a date, as sent. */
  private date(value: string): string {
    const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
    const time = Date.parse(value);
    if (Number.isNaN(time)) return value;
    return formatDateTime(time, day ? { dateStyle: 'medium', timeZone: 'UTC' } : { dateStyle: 'medium', timeStyle: 'short' }, this.doc);
  }

  button(action: EditorAction): HTMLButtonElement {
    return this.buttons.get(action)!;
  }

  private setLabel(action: EditorAction, label: string, tip: string): void {
    const b = this.buttons.get(action)!;
    b.querySelector('.kd-button-label')!.textContent = label;
    b.title = tip;
  }
}
