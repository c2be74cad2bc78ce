// The frame of the chat page: header (conversations, New Chat, Export), the follow-up hint, the
// transcript, and the composer (notice, options, question box, Send/Stop).
import type { ChatStrings } from '../../features/answers/chat/chatStrings';
import type { ConversationSummary, ChatSnapshot } from '../../features/answers/chat/protocol';
import type { H } from '../shared/dom';
import { format } from '../shared/strings';
import { icon } from '../shared/icons';
import { OptionsPanel, type OptionsEvents } from './optionsPanel';
import { QuestionCounter } from './questionCounter';
import { dismissibleBanner } from '../shared/widgets';

export interface LayoutEvents extends OptionsEvents {
  send(): void;
  stop(): void;
  newChat(): void;
  exportChat(): void;
  switchTo(id: string): void;
  deleteConversation(): void;
  setIdentity(): void;
  draftChanged(text: string): void;
}

export class ChatLayout {
  readonly root: HTMLElement;
  readonly transcript: HTMLElement;
  readonly options: OptionsPanel;
  readonly input: HTMLTextAreaElement;
  readonly sendButton: HTMLButtonElement;
  readonly stopButton: HTMLButtonElement;
  readonly hint: HTMLElement;
  /** Visually hidden polite live region: says a finished answer once (never the streamed chunks). */
  readonly announcer: HTMLElement;
  /** How many times the live region was set (snapshots; tests check it is once per finished answer). */
  announcements = 0;
  private readonly switcher: HTMLSelectElement;
  private readonly empty: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly noticeText: HTMLElement;
  private readonly deleteButton: HTMLButtonElement;
  private readonly header: HTMLElement;
  private readonly composer: HTMLElement;
  /** The question's count near the limit, and why it cannot be sent past it. */
  readonly counter: QuestionCounter;
  private scrollPending = false;
  /** The transcript shows its end (updated on scroll, so streaming never has to measure). */
  private atEnd = true;

  constructor(
    private readonly h: H,
    private readonly doc: Document,
    private readonly s: ChatStrings,
    events: LayoutEvents,
  ) {
    const iconButton = (name: Parameters<typeof icon>[1], label: string, action: string, run: () => void): HTMLButtonElement =>
      h(
        'button',
        {
          class: 'kd-icon-button',
          attrs: { type: 'button', title: label, 'aria-label': label, 'data-action': action },
          on: { click: run },
        },
        icon(doc, name),
      );
    const textButton = (
      name: Parameters<typeof icon>[1],
      text: string,
      title: string,
      action: string,
      run: () => void,
    ): HTMLButtonElement =>
      h(
        'button',
        { class: 'kd-button kd-secondary kd-small', attrs: { type: 'button', 'data-action': action, title }, on: { click: run } },
        icon(doc, name),
        text,
      );
    this.switcher = h('select', {
      class: 'kd-input kd-select kd-switcher',
      attrs: { 'aria-label': s.conversation, title: s.recentConversations },
      on: { change: () => events.switchTo(this.switcher.value) },
    });
    this.deleteButton = iconButton('trash', s.deleteConversation, 'deleteConversation', () => events.deleteConversation());
    const header = (this.header = h(
      'header',
      { class: 'kd-chat-header' },
      this.switcher,
      h(
        'div',
        { class: 'kd-chat-actions' },
        textButton('add', s.newChat, s.newChatTitle, 'newChat', () => events.newChat()),
        textButton('save', s.exportChat, s.exportChatTitle, 'exportChat', () => events.exportChat()),
        this.deleteButton,
      ),
    ));
    this.hint = h(
      'div',
      { class: 'kd-hint', attrs: { role: 'note', hidden: true } },
      h('span', null, s.threadHint),
      h(
        'button',
        { class: 'kd-link-button', attrs: { type: 'button', 'data-action': 'setIdentity' }, on: { click: () => events.setIdentity() } },
        s.setOwnUserId,
      ),
    );
    this.empty = h('div', { class: 'kd-chat-empty' }, h('h1', null, s.emptyTitle), h('p', { class: 'kd-muted' }, s.emptyText));
    this.transcript = h('main', { class: 'kd-transcript', attrs: { 'aria-label': s.conversation, tabindex: -1 } }, this.empty);
    this.announcer = h('div', { class: 'kd-visually-hidden', attrs: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' } });
    this.transcript.addEventListener(
      'scroll',
      () => {
        const t = this.transcript;
        this.atEnd = t.scrollHeight - t.scrollTop - t.clientHeight < 40;
      },
      { passive: true },
    );
    this.options = new OptionsPanel(h, doc, s, events);
    this.input = h('textarea', {
      class: 'kd-input kd-composer-input',
      attrs: {
        id: 'chat-question',
        rows: 2,
        placeholder: s.questionPlaceholder,
        'aria-label': s.question,
        'aria-describedby': 'chat-question-count chat-compose-help',
        maxlength: 20000,
      },
      on: {
        input: () => {
          this.counter.update();
          events.draftChanged(this.input.value);
        },
      },
    });
    this.counter = new QuestionCounter(h, doc, s, this.input);
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
        e.preventDefault();
        events.send();
      }
    });
    this.sendButton = h(
      'button',
      { class: 'kd-button kd-send', attrs: { type: 'button', 'data-action': 'send', title: s.sendTitle } },
      s.send,
    );
    this.sendButton.addEventListener('click', () => events.send());
    this.stopButton = h(
      'button',
      { class: 'kd-button kd-secondary kd-stop', attrs: { type: 'button', 'data-action': 'stop', hidden: true, title: s.stopTitle } },
      h('span', { class: 'kd-stop-square', attrs: { 'aria-hidden': 'true' } }),
      s.stop,
    );
    this.stopButton.addEventListener('click', () => events.stop());
    this.noticeText = h('span', { class: 'kd-banner-text' });
    this.notice = dismissibleBanner(h, 'kd-banner-info kd-notice', 'status', this.noticeText, () => this.showNotice(null));
    const composer = (this.composer = h(
      'footer',
      { class: 'kd-composer' },
      this.notice,
      this.options.element,
      h('div', { class: 'kd-compose-row' }, this.input, h('div', { class: 'kd-compose-buttons' }, this.sendButton, this.stopButton)),
      this.counter.element,
      h('div', { class: 'kd-description kd-compose-help', attrs: { id: 'chat-compose-help' } }, s.composeHelp),
    ));
    this.root = h('div', { class: 'kd-chat' }, header, this.hint, this.transcript, composer, this.announcer);
    // Escape stops a streaming answer from anywhere in the page (the focus may be on a source or a button).
    this.root.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || e.isComposing || this.stopButton.hidden || e.defaultPrevented) return;
      e.preventDefault();
      events.stop();
    });
  }

  /** What the frame shows (snapshots); where it is: the page itself must never scroll, nor the header leave the top. */
  describe(): Omit<ChatSnapshot, 'ready' | 'conversationId' | 'title' | 'streaming' | 'turns' | 'focused' | 'stats'> {
    return {
      conversations: this.conversationCount,
      hintShown: !this.hint.hidden,
      notice: this.noticeMessage,
      options: this.options.value,
      optionsOpen: this.options.open,
      draft: this.input.value,
      questionCount: this.counter.text,
      frame: {
        pageScrollTop: (this.doc.scrollingElement?.scrollTop ?? 0) + (this.doc.body.scrollTop || 0),
        headerTop: this.header.getBoundingClientRect().top,
        composerBottom: this.composer.getBoundingClientRect().bottom,
        viewportHeight: this.doc.defaultView?.innerHeight ?? 0,
      },
      announced: this.announcer.textContent ?? '',
      announcements: this.announcements,
    };
  }

  /** Puts `text` in the question box (a restored draft, or empty after sending). */
  setDraft(text: string): void {
    this.input.value = text;
    this.counter.update();
  }

  /** True when `question` is too long to send; the notice then says so, in words. */
  refusesLength(question: string): boolean {
    const refusal = this.counter.refusal(question);
    if (refusal) this.showNotice({ message: refusal, kind: 'warning' });
    return !!refusal;
  }

  setConversations(list: ConversationSummary[], currentId: string | null, currentTitle: string): void {
    const h = this.h;
    const items =
      list.some((c) => c.id === currentId) || !currentId
        ? list
        : [{ id: currentId, title: currentTitle, updatedAt: Date.now(), turns: 0 }, ...list];
    this.switcher.replaceChildren(
      ...items.map((c) =>
        h(
          'option',
          { attrs: { value: c.id, selected: c.id === currentId } },
          // A conversation without a question has the store's placeholder title: named in the display language.
          c.turns ? c.title : format(this.s.emptyConversation, this.s.untitledChat),
        ),
      ),
    );
    if (currentId) this.switcher.value = currentId;
    this.deleteButton.disabled = !items.length;
  }

  get conversationCount(): number {
    return this.switcher.options.length;
  }

  /** Shows the turns' elements (or the empty state). */
  showTurns(elements: HTMLElement[]): void {
    this.transcript.replaceChildren(...(elements.length ? elements : [this.empty]));
    this.scrollToEnd(true);
  }

  appendTurn(element: HTMLElement): void {
    this.empty.remove();
    this.transcript.append(element);
    this.scrollToEnd(true);
  }

  /** Keeps the newest text in view while it streams, at most once a frame, unless the user scrolled up. */
  scrollToEnd(force = false): void {
    const t = this.transcript;
    if (force) this.atEnd = true;
    if (!this.atEnd || this.scrollPending) return;
    this.scrollPending = true;
    const win = this.doc.defaultView;
    const run = (): void => {
      this.scrollPending = false;
      t.scrollTop = t.scrollHeight;
    };
    if (win?.requestAnimationFrame) win.requestAnimationFrame(run);
    else run();
  }

  setStreaming(streaming: boolean): void {
    // The button about to be hidden may have the focus (pressed from the keyboard): keep it in the composer.
    const active = this.doc.activeElement;
    const refocus = streaming ? active === this.sendButton && this.stopButton : active === this.stopButton && this.input;
    this.sendButton.hidden = streaming;
    this.stopButton.hidden = !streaming;
    if (refocus) refocus.focus();
    this.root.classList.toggle('kd-is-streaming', streaming);
  }

  /** Says `text` once through the live region (cleared first, so the same words are said again). */
  announce(text: string): void {
    this.announcer.textContent = '';
    this.announcements++;
    const win = this.doc.defaultView;
    const set = (): void => void (this.announcer.textContent = text);
    // Set in the next frame: screen readers notice a change of an existing region, not a replaced one.
    if (win?.requestAnimationFrame) win.requestAnimationFrame(set);
    else set();
  }

  showHint(show: boolean): void {
    this.hint.hidden = !show;
  }

  showNotice(notice: { message: string; kind: 'info' | 'warning' } | null): void {
    this.noticeText.textContent = notice?.message ?? '';
    this.notice.hidden = !notice;
    this.notice.className = `kd-banner kd-notice ${notice?.kind === 'warning' ? 'kd-banner-warning' : 'kd-banner-info'}`;
  }

  get noticeMessage(): string | null {
    return this.notice.hidden ? null : this.noticeText.textContent;
  }
}
