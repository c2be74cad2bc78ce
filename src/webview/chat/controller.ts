// The chat page: shows the conversation the host sends, streams answers into it, and sends the
// person's questions, Stop, citation clicks and option changes back. Options and the unsent
// question live in webview state (they survive hiding the panel and a restart).
import {
  chatStateSchema,
  defaultChatOptions,
  type ChatCitation,
  type ChatOptions,
  type ChatProtocol,
  type Conversation,
  type ConversationSummary,
  type Turn,
  type ChatSnapshot,
  type ChatState,
} from '../../features/answers/chat/protocol';
import type { ChatStrings } from '../../features/answers/chat/chatStrings';
import { createH } from '../shared/dom';
import type { Messenger } from '../shared/messenger';
import type { Sanitizer } from '../shared/sanitize';
import { pageStrings } from '../shared/strings';
import { ChatLayout } from './layout';
import type { BlockRenderer } from './streamRenderer';
import type * as Drive from './drive';
import type { DriveTarget } from './drive';
import { TurnView, type TurnDeps } from './turnView';

export class ChatController {
  private readonly layout: ChatLayout;
  private readonly deps: TurnDeps;
  private conversation: Conversation | null = null;
  private conversations: ConversationSummary[] = [];
  private views = new Map<string, TurnView>();
  private initialized = false;
  /** The connection this panel asks (the host says it in init); kept in the state for a restart. */
  private connection: ChatState['connection'];
  /** Sent an ask, waiting for the host's turnStarted (Send stays disabled meanwhile). */
  private asking: ReturnType<typeof setTimeout> | undefined;
  private readonly totals = { fullRenders: 0, blockRenders: 0, deltas: 0 };
  private readonly s: ChatStrings;

  constructor(
    private readonly doc: Document,
    private readonly messenger: Messenger<ChatProtocol>,
    sanitizer: Sanitizer,
    renderer: BlockRenderer,
  ) {
    const h = createH(doc);
    const s = (this.s = pageStrings<ChatStrings>(doc));
    this.deps = {
      h,
      doc,
      s,
      renderer,
      sanitizer,
      actions: {
        openCitation: (turn, citation) => this.openCitation(turn, citation),
        followUp: (turn) => turn.fuQuestion && this.ask(turn.fuQuestion),
        retry: (turn) => this.ask(turn.question, turn.id),
        runAction: (command) => messenger.notify('runAction', { command }),
        feedback: (turn, positive) => messenger.notify('feedback', { turnId: turn.id, positive }),
      },
    };
    this.layout = new ChatLayout(h, doc, s, {
      send: () => this.send(),
      stop: () => this.stop(),
      newChat: () => messenger.notify('newChat', {}),
      exportChat: () => messenger.notify('exportChat', {}),
      switchTo: (id) => messenger.notify('switchConversation', { conversationId: id }),
      deleteConversation: () => this.conversation && messenger.notify('deleteConversation', { conversationId: this.conversation.id }),
      setIdentity: () => messenger.notify('setIdentity', {}),
      draftChanged: () => this.persist(),
      changed: (options) => this.optionsChanged(options),
      chooseScope: () => messenger.notify('chooseScope', {}),
      toggled: () => this.persist(),
    });
    this.layout.transcript.addEventListener('click', (e) => this.onTranscriptClick(e));
  }

  /** Mounts the page into `app` and tells the host it is ready. */
  start(app: HTMLElement): void {
    const saved = this.messenger.getState(chatStateSchema);
    this.connection = saved?.connection;
    this.layout.options.value = saved?.options ?? defaultChatOptions();
    this.layout.options.open = saved?.optionsOpen ?? false;
    this.layout.setDraft(saved?.draft ?? '');
    app.replaceChildren(this.layout.root);
    app.removeAttribute('aria-busy');
    const m = this.messenger;
    m.on('init', (p) => {
      this.initialized = true;
      this.connection = p.connection;
      this.conversations = p.conversations;
      this.setIdentity(p.ownUserIdSet);
      this.show(p.conversation);
    });
    m.on('conversation', ({ conversation }) => this.initialized && this.show(conversation));
    m.on('conversations', ({ conversations }) => {
      this.conversations = conversations;
      this.updateSwitcher();
    });
    m.on('options', ({ conversationId, options, focus }) => {
      if (!this.conversation || conversationId !== this.conversation.id) return;
      this.conversation.options = options;
      this.layout.options.value = options;
      if (focus) {
        this.layout.options.open = true;
        this.layout.input.focus();
      }
      this.persist();
    });
    m.on('identity', ({ ownUserIdSet }) => this.setIdentity(ownUserIdSet));
    m.on('turnStarted', ({ conversationId, turn, replaces }) => this.turnStarted(conversationId, turn, replaces));
    m.on('delta', ({ requestId, seq, text, replaced }) => this.delta(requestId, seq, text, replaced));
    m.on('turnFinished', ({ conversationId, turn }) => this.turnFinished(conversationId, turn));
    m.on('feedback', ({ turnId, feedback, offered }) => {
      this.views.get(turnId)?.setFeedback(feedback, offered);
      if (!offered) for (const v of this.views.values()) v.setFeedback(v.data.feedback ?? null, false);
    });
    m.on('notice', (n) => {
      if (n?.kind === 'warning') this.doneAsking();
      if (n?.unsent && !this.layout.input.value.trim()) {
        this.layout.setDraft(n.unsent);
        this.persist();
      }
      this.layout.showNotice(n);
    });
    // Only the test build answers the tests' snapshot and drive requests (drive.ts, src/testBuild.d.ts).
    if (globalThis.__KD_TEST__) (require('./drive') as typeof Drive).answerTests(m, this.driven());
    m.start();
    this.layout.input.focus();
  }

  private stats(): ChatSnapshot['stats'] {
    const s = { ...this.totals };
    for (const v of this.views.values()) {
      s.fullRenders += v.answer.stats.fullRenders;
      s.blockRenders += v.answer.stats.blockRenders;
      s.deltas += v.answer.stats.deltas;
    }
    return s;
  }

  private show(conversation: Conversation): void {
    for (const v of this.views.values()) this.addTotals(v);
    this.conversation = conversation;
    this.views = new Map(conversation.turns.map((t) => [t.id, new TurnView(t, this.deps)]));
    this.layout.options.value = conversation.options;
    this.layout.showTurns([...this.views.values()].map((v) => v.element));
    this.layout.setStreaming(!!this.streamingView());
    this.updateSwitcher();
    this.persist();
  }

  private addTotals(v: TurnView): void {
    this.totals.fullRenders += v.answer.stats.fullRenders;
    this.totals.blockRenders += v.answer.stats.blockRenders;
    this.totals.deltas += v.answer.stats.deltas;
  }

  private turnStarted(conversationId: string, turn: Turn, replaces?: string): void {
    if (!this.conversation || conversationId !== this.conversation.id) return;
    this.doneAsking();
    const view = new TurnView(turn, this.deps);
    const old = replaces ? this.views.get(replaces) : undefined;
    if (old) {
      this.addTotals(old);
      old.element.replaceWith(view.element);
      this.views = new Map([...this.views].map(([id, v]) => (id === replaces ? [turn.id, view] : [id, v])));
      this.layout.scrollToEnd(true);
    } else {
      this.views.set(turn.id, view);
      this.layout.appendTurn(view.element);
    }
    this.conversation.turns = [...this.views.values()].map((v) => v.data);
    this.layout.setStreaming(turn.status === 'streaming');
  }

  private delta(requestId: string, seq: number, text: string, replaced: boolean): void {
    const view = this.views.get(requestId);
    if (!view || !view.streaming || seq <= view.seq) return; // another conversation, or already shown
    if (seq > view.seq + 1 && !replaced) {
      this.messenger.notify('resync', {});
      return;
    }
    view.applyDelta(text, replaced, seq);
    this.layout.scrollToEnd();
  }

  private turnFinished(conversationId: string, turn: Turn): void {
    if (!this.conversation || conversationId !== this.conversation.id) return;
    const view = this.views.get(turn.id);
    if (!view) return;
    view.finish(turn);
    this.conversation.turns = [...this.views.values()].map((v) => v.data);
    this.layout.setStreaming(!!this.streamingView());
    this.layout.scrollToEnd();
    const said = view.announcement();
    if (said) this.layout.announce(said);
  }

  private send(): void {
    const text = this.layout.input.value.trim();
    if (!text) return;
    if (this.ask(text)) {
      this.layout.setDraft('');
      this.persist();
    }
  }

  /** Asks in the shown conversation; false while an answer is still arriving, or when the question is too long. */
  private ask(question: string, retryOf?: string): boolean {
    if (!this.initialized || this.streamingView() || this.asking) return false;
    // Too long: not sent (the service would refuse it), said in words; the question stays in the box to be shortened.
    if (this.layout.refusesLength(question)) return false;
    this.layout.showNotice(null);
    this.messenger.notify('ask', { conversationId: this.conversation?.id ?? null, question, options: this.layout.options.value, retryOf });
    this.layout.sendButton.disabled = true;
    this.asking = setTimeout(() => this.doneAsking(), 10_000);
    return true;
  }

  private doneAsking(): void {
    clearTimeout(this.asking);
    this.asking = undefined;
    this.layout.sendButton.disabled = false;
  }

  private stop(): void {
    const view = this.streamingView();
    if (view) this.messenger.notify('abort', { requestId: view.id });
  }

  private openCitation(turn: Turn, citation: ChatCitation): void {
    this.messenger.notify('openCitation', { turnId: turn.id, citation });
  }

  /** A marker [n] in an answer: focus its source in the list below the answer. */
  private onTranscriptClick(e: Event): void {
    const link = (e.target as Element | null)?.closest?.('a.kd-cite-link') as HTMLAnchorElement | null;
    if (!link) return;
    e.preventDefault();
    const turnId = link.closest('.kd-turn')?.getAttribute('data-turn-id');
    const view = turnId ? this.views.get(turnId) : undefined;
    view?.revealSource(Number(link.dataset.index));
  }

  private optionsChanged(options: ChatOptions): void {
    this.persist();
    if (this.conversation) this.messenger.notify('optionsChanged', { conversationId: this.conversation.id, options });
  }

  private setIdentity(ownUserIdSet: boolean): void {
    this.layout.showHint(!ownUserIdSet);
  }

  private updateSwitcher(): void {
    this.layout.setConversations(this.conversations, this.conversation?.id ?? null, this.conversation?.title ?? this.s.untitledChat);
  }

  private streamingView(): TurnView | undefined {
    for (const v of this.views.values()) if (v.streaming) return v;
    return undefined;
  }

  /** What the tests' snapshot and drive requests read and act on (drive.ts; the test build only). */
  private driven(): DriveTarget {
    return {
      doc: this.doc,
      layout: this.layout,
      strings: this.s,
      state: () => ({
        ready: this.initialized,
        conversation: this.conversation,
        views: [...this.views.values()],
        streaming: this.streamingView(),
        stats: this.stats(),
      }),
      find: (turnId) => (turnId ? this.views.get(turnId) : [...this.views.values()].at(-1)),
      setOptions: (options) => {
        this.layout.options.value = { ...this.layout.options.value, ...options };
        this.optionsChanged(this.layout.options.value);
      },
      switchTo: (id) => this.messenger.notify('switchConversation', { conversationId: id }),
    };
  }

  private persist(): void {
    this.messenger.setState(chatStateSchema, {
      connection: this.connection,
      conversationId: this.conversation?.id,
      options: this.layout.options.value,
      draft: this.layout.input.value.slice(0, 20_000),
      optionsOpen: this.layout.options.open,
    });
  }
}
