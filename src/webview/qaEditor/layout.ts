// The editor page around the form: header with actions and feedback, banners, progress, answer preview.
import type { EditorAction, QaRecord } from '../../features/qna/editor/protocol';
import type { H } from '../shared/dom';
import { icon, type IconName } from '../shared/icons';
import type { Sanitizer } from '../shared/sanitize';
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
  private readonly notice: HTMLElement;
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

  constructor(
    private readonly h: H,
    doc: Document,
    private readonly sanitizer: Sanitizer,
    onAction: ActionHandler,
  ) {
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
    this.title = h('h1', { class: 'kd-title', attrs: { id: 'qa-title' } }, 'New Q&A');
    this.statusBadge = h('span', { class: 'kd-badge', attrs: { hidden: true } });
    this.dirtyBadge = h('span', { class: 'kd-badge kd-badge-dirty', attrs: { hidden: true } }, 'Unsaved changes');
    this.meta = h('div', { class: 'kd-meta' });
    const isMac = /Mac/.test(doc.defaultView?.navigator.platform ?? '');
    const toolbar = h(
      'div',
      { class: 'kd-toolbar', attrs: { role: 'group', 'aria-label': 'Q&A actions' } },
      button('save', 'Save', 'save', 'kd-primary', `Save (${isMac ? '⌘S' : 'Ctrl+S'})`),
      button('toggle', 'Turn Off', 'power'),
      button('copyId', 'Copy ID', 'copy'),
      button('reload', 'Reload', 'refresh', 'kd-secondary', 'Discard unsaved changes and load the Q&A from the service'),
      button('delete', 'Delete', 'trash', 'kd-secondary kd-danger'),
    );
    this.progress = h('div', { class: 'kd-progress', attrs: { hidden: true, role: 'progressbar', 'aria-label': 'Working' } });
    this.errorText = h('span', { class: 'kd-banner-text' });
    this.errorBanner = dismissibleBanner(h, 'kd-banner-error', 'alert', this.errorText, () => this.showError(null));
    this.noticeText = h('span', { class: 'kd-banner-text' });
    this.noticeAction = h('button', {
      class: 'kd-link-button',
      attrs: { type: 'button', hidden: true },
      on: { click: () => this.noticeCallback?.() },
    });
    this.notice = h(
      'div',
      { class: 'kd-banner kd-banner-info', attrs: { role: 'status', hidden: true } },
      this.noticeText,
      this.noticeAction,
    );
    this.formHost = h('section', { class: 'kd-main-col', attrs: { 'aria-labelledby': 'qa-title' } });
    this.preview = h('div', { class: 'kd-rendered kd-preview', attrs: { id: 'qa-preview', 'aria-live': 'polite', tabindex: 0 } });
    this.previewNote = h('div', { class: 'kd-description', attrs: { hidden: true } });
    this.settingsHost = card(h, 'qa-settings-title', 'Details');
    this.helpfulCount = h('span', { class: 'kd-count' }, '0');
    this.notHelpfulCount = h('span', { class: 'kd-count' }, '0');
    const helpful = button('helpful', 'Helpful', 'thumbsUp');
    helpful.append(this.helpfulCount);
    const notHelpful = button('notHelpful', 'Not helpful', 'thumbsDown');
    notHelpful.append(this.notHelpfulCount);
    // Feedback is recorded with the question as the search query (docs/api.md#qa-feedback).
    this.feedbackGroup = h(
      'div',
      { class: 'kd-feedback', attrs: { role: 'group', 'aria-label': 'Feedback', hidden: true } },
      helpful,
      notHelpful,
      button('clearFeedback', 'Clear mine', 'clear', 'kd-secondary', 'Cancel the feedback you gave'),
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
          card(h, 'qa-preview-title', 'Answer preview', this.preview, this.previewNote),
          this.settingsHost,
        ),
      ),
    );
  }

  /** Header, toolbar and feedback for a saved Q&A (record) or a new one (null). */
  showRecord(record: QaRecord | null, loading: boolean): void {
    const existing = !!record || loading;
    this.title.textContent = record ? record.values.question : loading ? 'Loading Q&A…' : 'New Q&A';
    this.statusBadge.hidden = !record;
    if (record) {
      const on = record.values.status === 'on';
      this.statusBadge.textContent = on ? 'On' : 'Off';
      this.statusBadge.className = `kd-badge ${on ? 'kd-badge-on' : 'kd-badge-off'}`;
      this.setLabel(
        'toggle',
        on ? 'Turn Off' : 'Turn On',
        on ? 'Stop using this Q&A in search (saved at once)' : 'Use this Q&A in search (saved at once)',
      );
    }
    const meta = record
      ? [
          `ID ${record.id}`,
          record.createdDate && `Created ${record.createdDate}`,
          record.lastUpdatedDate && `Updated ${record.lastUpdatedDate}`,
          record.values.folder && `Folder ${record.values.folder}`,
        ]
      : [];
    this.meta.textContent = meta.filter(Boolean).join('  ·  ');
    this.meta.hidden = !meta.length;
    for (const a of ['toggle', 'copyId', 'reload', 'delete'] as const) this.buttons.get(a)!.hidden = !existing;
    this.feedbackGroup.hidden = !record;
    if (record) this.showFeedback(record);
  }

  showFeedback(record: Pick<QaRecord, 'userFeedback' | 'agentFeedback'>): void {
    const a = record.agentFeedback;
    const u = record.userFeedback;
    const up = `${a.positiveCount + u.positiveCount} helpful (agents ${a.positiveCount}, users ${u.positiveCount})`;
    const down = `${a.negativeCount + u.negativeCount} not helpful (agents ${a.negativeCount}, users ${u.negativeCount})`;
    this.helpfulCount.textContent = String(a.positiveCount + u.positiveCount);
    this.notHelpfulCount.textContent = String(a.negativeCount + u.negativeCount);
    this.buttons.get('helpful')!.title = `Mark as helpful. So far: ${up}`;
    this.buttons.get('notHelpful')!.title = `Mark as not helpful. So far: ${down}`;
    this.buttons.get('helpful')!.setAttribute('aria-label', `Helpful, ${up}`);
    this.buttons.get('notHelpful')!.setAttribute('aria-label', `Not helpful, ${down}`);
    this.feedbackSummary = `${up}; ${down}`;
  }

  get feedbackText(): string {
    return this.feedbackGroup.hidden ? '' : this.feedbackSummary;
  }

  setDirty(dirty: boolean): void {
    this.dirtyBadge.hidden = !dirty;
  }

  setBusy(busy: boolean, label?: string): void {
    this.progress.hidden = !busy;
    this.progress.setAttribute('aria-label', label ? `${label}…` : 'Working');
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
    this.notice.hidden = !message;
    this.noticeAction.hidden = !action;
    this.noticeAction.textContent = action?.label ?? '';
    this.noticeCallback = action?.run;
  }

  /** The answer as readers will see it: sanitized HTML, or plain text kept as typed. */
  renderPreview(answer: string): void {
    this.blockedImages = 0;
    if (!answer.trim()) {
      this.preview.replaceChildren(this.h('p', { class: 'kd-placeholder' }, 'The answer appears here as you type.'));
    } else if (/<\/?[a-z][\w-]*(\s[^>]*)?>/i.test(answer)) {
      this.preview.replaceChildren(this.sanitizer.sanitizeToFragment(answer));
      this.blockedImages = this.sanitizer.lastReport.blockedImages;
    } else {
      this.preview.replaceChildren(this.h('p', { class: 'kd-plain' }, answer));
    }
    this.previewNote.hidden = !this.blockedImages;
    this.previewNote.textContent = this.blockedImages
      ? `${this.blockedImages} image${this.blockedImages > 1 ? 's' : ''} not shown: remote images are blocked (setting knowledgeDesk.webview.allowRemoteImages).`
      : '';
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
