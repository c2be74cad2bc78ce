import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { GenerativeAnswerRequest } from '../../../api/resources/answers';
import { feedbackFailure, sendFeedback } from './answerFeedback';
import type { ChatContext } from './chatContext';
import { chatStrings } from './chatStrings';
import type { CitationOpened } from './citations';
import { CommandIds } from '../../../platform/commandIds';
import { toUserFacing } from '../../../platform/errorMessages';
import { hostSetup, titleWithConnection } from '../../../platform/webview/panelErrors';
import { WebviewPanelHost } from '../../../platform/webview/webviewPanel';
import { buildAnswerRequest } from './answerRequest';
import { runAnswer, type AnswerOutcome } from './answerRunner';
import { ALLOWED_ACTIONS, applyOutcome, tooLongQuestion } from './turnOutcome';
import {
  CHAT_LIMITS,
  chatProtocol,
  type ChatCitation,
  type ChatOptions,
  type ChatProtocol,
  type Conversation,
  type ScopeItem,
  type Turn,
} from './protocol';

interface ActiveStream {
  controller: AbortController;
  conversationId: string;
  turn: Turn;
}

/** The "Ask Knowledge Desk" panel: asks, streams answers to the page, and keeps the conversations. */
export class ChatPanel extends WebviewPanelHost<ChatProtocol, GenerativeAnswerRequest> {
  private readonly active = new Map<string, ActiveStream>();
  private readonly finishedEmitter = this._register(new vscode.EventEmitter<Turn>());
  /** A turn ended (done, stopped or failed). */
  readonly onDidFinishTurn = this.finishedEmitter.event;
  private readonly citationOpenedEmitter = this._register(new vscode.EventEmitter<CitationOpened>());
  /** The user opened a citation (its outcome is set once the viewer opened it or failed). */
  readonly onDidOpenCitation = this.citationOpenedEmitter.event;

  constructor(
    panel: vscode.WebviewPanel,
    private readonly ctx: ChatContext,
  ) {
    const title = vscode.l10n.t('Ask Knowledge Desk');
    super(panel, {
      ...hostSetup(ctx),
      page: { name: 'chat', title, styles: ['chat.css'], images: ctx.allowRemoteImages() ? 'remote' : 'local', strings: chatStrings() },
      protocol: chatProtocol,
    });
    this.updateTitle();
    const ch = this.channel;
    ch.onNotification(
      'ask',
      (p) => void this.ask(p.question, { options: p.options, conversationId: p.conversationId ?? undefined, retryOf: p.retryOf }),
    );
    ch.onNotification('abort', ({ requestId }) => this.abort(requestId));
    ch.onNotification('openCitation', ({ turnId, citation }) => void this.openCitation(turnId, citation));
    ch.onNotification('optionsChanged', ({ conversationId, options }) => ctx.store.setOptions(conversationId, options));
    ch.onNotification('newChat', () => this.newChat());
    ch.onNotification('switchConversation', ({ conversationId }) => this.show(conversationId));
    ch.onNotification('deleteConversation', ({ conversationId }) => this.deleteConversation(conversationId));
    ch.onNotification('exportChat', () => void this.exportChat());
    ch.onNotification('chooseScope', () => void this.chooseScope());
    ch.onNotification('setIdentity', () => void vscode.commands.executeCommand(CommandIds.setIdentity));
    ch.onNotification('runAction', ({ command }) =>
      ALLOWED_ACTIONS.has(command)
        ? void vscode.commands.executeCommand(command)
        : ctx.log.warn(`chat page asked to run ${command}: not allowed`),
    );
    ch.onNotification('resync', () => this.onPageReady());
    ch.onNotification('feedback', ({ turnId, positive }) => void this.feedback(turnId, positive));
  }

  /** Names the connection it asks (titleWithConnection); again after a switch, a rename or its removal. */
  updateTitle(): void {
    if (!this.isDisposed) this.panel.title = titleWithConnection(vscode.l10n.t('Ask Knowledge Desk'), this.ctx);
  }

  get conversation(): Conversation {
    return this.ctx.store.current();
  }

  /** Requests still streaming (their ids). */
  get streaming(): string[] {
    return [...this.active.keys()];
  }

  protected onPageReady(): void {
    const store = this.ctx.store;
    this.channel.notify('init', {
      conversation: store.current(),
      conversations: store.list(),
      ownUserIdSet: this.ctx.ownUserIdSet(),
      connection: this.ctx.connection(),
    });
  }

  /** Asks `question` in the current conversation (or the one named); resolves with the finished turn. */
  async ask(question: string, opts: { options?: ChatOptions; conversationId?: string; retryOf?: string } = {}): Promise<Turn | undefined> {
    const store = this.ctx.store;
    const conversation = store.get(opts.conversationId) ?? store.current();
    if ([...this.active.values()].some((a) => a.conversationId === conversation.id)) {
      this.notice(vscode.l10n.t('An answer is still arriving in this chat: wait for it or press Stop.'), 'warning');
      return undefined;
    }
    // The page refuses it already; this covers every other way in (the service would answer in schema words).
    const tooLong = tooLongQuestion(question);
    if (tooLong) return void this.notice(tooLong, 'warning');
    // Its connection was removed: not asked elsewhere, and not lost (back in the box, with what to do).
    const gone = this.ctx.gone();
    if (gone) return void this.notice(gone, 'warning', question);
    const options = opts.options ?? conversation.options;
    store.setOptions(conversation.id, options);
    const stateful = this.ctx.ownUserIdSet();
    const turn: Turn = {
      id: randomUUID(),
      question: question.trim().slice(0, CHAT_LIMITS.question),
      answer: '',
      citations: [],
      stateful,
      status: 'streaming',
      askedAt: Date.now(),
      seq: 0,
    };
    store.addTurn(conversation.id, turn, opts.retryOf);
    if (store.currentId !== conversation.id) store.select(conversation.id);
    this.notice(null);
    this.channel.notify('turnStarted', { conversationId: conversation.id, turn, replaces: opts.retryOf });
    this.channel.notify('conversations', { conversations: store.list() });
    const request = buildAnswerRequest(turn.question, options, { stateful, threadId: stateful ? conversation.threadId : undefined });
    this.sentEmitter.fire(request);
    const controller = new AbortController();
    this.active.set(turn.id, { controller, conversationId: conversation.id, turn });
    this.ctx.log.info(
      `asking (${stateful ? `thread ${conversation.threadId ?? 'new'}` : 'no thread'}): ${JSON.stringify({ ...request, query: `${turn.question.length} characters` })}`,
    );
    let outcome: AnswerOutcome;
    try {
      const client = await this.ctx.client();
      outcome = await runAnswer(client.answers, request, {
        signal: controller.signal,
        onRaw: this.rawLogger(turn.id),
        onDelta: (text, replaced) => this.delta(turn, text, replaced, controller),
      });
    } catch (error) {
      outcome = { status: 'error', answer: turn.answer, error, deltas: turn.seq, broken: false };
    }
    this.finish(conversation, turn, outcome);
    this.active.delete(turn.id);
    await store.touch(conversation.id);
    if (!this.isDisposed) {
      this.channel.notify('turnFinished', { conversationId: conversation.id, turn });
      this.channel.notify('conversations', { conversations: store.list() });
    }
    this.finishedEmitter.fire(turn);
    return turn;
  }

  /** Stop: the request of `requestId` is aborted; what arrived stays, marked stopped. */
  abort(requestId: string): void {
    const stream = this.active.get(requestId);
    if (!stream) return this.ctx.log.debug(`stop for ${requestId}: not streaming (already finished)`);
    this.ctx.log.info(`stopping the answer ${requestId} after ${stream.turn.seq} chunks`);
    stream.controller.abort(new vscode.CancellationError());
  }

  newChat(): void {
    const conversation = this.ctx.store.create(this.conversation.options);
    this.showConversation(conversation);
  }

  show(conversationId: string): void {
    const conversation = this.ctx.store.select(conversationId);
    if (conversation) this.showConversation(conversation);
  }

  deleteConversation(conversationId: string): void {
    for (const [id, s] of this.active) if (s.conversationId === conversationId) this.abort(id);
    this.ctx.store.delete(conversationId);
    this.showConversation(this.ctx.store.current());
  }

  /** Replaces the scope (Ask About This Folder) and shows the options. */
  setScope(scope: ScopeItem[], focus = true): void {
    const conversation = this.conversation;
    const options = { ...conversation.options, scope };
    this.ctx.store.setOptions(conversation.id, options);
    this.channel.notify('options', { conversationId: conversation.id, options, focus });
  }

  updateIdentity(): void {
    this.channel.notify('identity', { ownUserIdSet: this.ctx.ownUserIdSet() });
  }

  async exportChat(): Promise<void> {
    const conversation = this.conversation;
    if (!conversation.turns.length) return this.notice(vscode.l10n.t('Nothing to export yet: ask a question first.'), 'info');
    await this.ctx.exportConversation(conversation);
  }

  /** A line above the question box; `unsent`: a question not sent, put back in the box. */
  notice(message: string | null, kind: 'info' | 'warning' = 'info', unsent?: string): void {
    if (this.isDisposed) return;
    this.channel.notify('notice', message === null ? null : { message, kind, unsent: unsent?.slice(0, CHAT_LIMITS.question) });
  }

  override dispose(): void {
    for (const s of this.active.values()) s.controller.abort(new vscode.CancellationError());
    super.dispose();
  }

  private showConversation(conversation: Conversation): void {
    this.channel.notify('conversation', { conversation });
    this.channel.notify('conversations', { conversations: this.ctx.store.list() });
  }

  private delta(turn: Turn, text: string, replaced: boolean, controller: AbortController): void {
    if ((replaced ? 0 : turn.answer.length) + text.length > CHAT_LIMITS.answer) {
      this.ctx.log.warn(`answer ${turn.id} is longer than ${CHAT_LIMITS.answer} characters: stopped there`);
      return controller.abort(new vscode.CancellationError());
    }
    turn.answer = replaced ? text : turn.answer + text;
    turn.seq++;
    if (!this.isDisposed) this.channel.notify('delta', { requestId: turn.id, seq: turn.seq, text, replaced });
  }

  private finish(conversation: Conversation, turn: Turn, outcome: AnswerOutcome): void {
    applyOutcome(turn, outcome);
    if (outcome.status === 'done') {
      if (turn.stateful && outcome.result.threadId) this.ctx.store.setThread(conversation.id, outcome.result.threadId);
      this.ctx.log.info(
        `answer ${turn.id}: ${outcome.deltas} chunks, ${turn.answer.length} characters, ${turn.citations.length} citations${turn.model ? `, model ${turn.model}` : ''}`,
      );
    } else if (outcome.status === 'error') {
      this.ctx.log.error(`answer ${turn.id} failed after ${outcome.deltas} chunks`);
      this.ctx.log.error(outcome.error instanceof Error ? outcome.error : String(outcome.error));
    }
  }

  private rawLogger(turnId: string): ((chunk: Uint8Array) => void) | undefined {
    if (!this.ctx.logRawStream()) return undefined;
    const decoder = new TextDecoder('utf-8');
    return (chunk) => this.ctx.log.trace(`raw stream ${turnId}: ${decoder.decode(chunk, { stream: true })}`);
  }

  /** 👍/👎 clicked on the page (answerFeedback.ts); "not offered" hides the buttons and is said once. */
  private async feedback(turnId: string, positive: boolean): Promise<void> {
    const found = this.ctx.store.findTurn(turnId);
    if (!found) return;
    try {
      const feedback = await sendFeedback(await this.ctx.client(), found.turn, positive);
      found.turn.feedback = feedback;
      await this.ctx.store.touch(found.conversation.id);
      this.channel.notify('feedback', { turnId, feedback, offered: true });
    } catch (error) {
      const { offered, message, kind } = feedbackFailure(error);
      this.ctx.log.warn(`feedback on ${turnId}: ${String(error)}`);
      this.channel.notify('feedback', { turnId, feedback: found.turn.feedback ?? null, offered });
      this.notice(message, kind);
    }
  }

  private async openCitation(turnId: string, citation: ChatCitation): Promise<void> {
    const found = this.ctx.store.findTurn(turnId);
    // The stored citation is what the service sent; the page's copy only names it.
    const stored = found?.turn.citations.find((c) => c.index === citation.index) ?? citation;
    // The viewer reads the document on this chat's connection, which the answer came from (issue 27).
    const [question, answer, connectionId] = [found?.turn.question ?? '', found?.turn.answer ?? '', this.ctx.connection().id];
    const arg = { citation: stored, question, answer, connectionId };
    const record: CitationOpened = { ...arg, outcome: 'opened' };
    this.citationOpenedEmitter.fire(record);
    try {
      await vscode.commands.executeCommand(CommandIds.answers.openCitation, arg);
    } catch (error) {
      record.outcome = 'failed';
      this.ctx.log.error(error instanceof Error ? error : String(error));
      this.notice(vscode.l10n.t('Could not open the source: {0}', toUserFacing(error).message), 'warning');
    }
  }

  private async chooseScope(): Promise<void> {
    let picked: ScopeItem | null | undefined;
    try {
      picked = await this.ctx.pickScope();
    } catch (error) {
      this.ctx.log.error(error instanceof Error ? error : String(error));
      return this.notice(vscode.l10n.t('Could not list the folders: {0}', toUserFacing(error).message), 'warning');
    }
    if (picked === undefined) return;
    const current = this.conversation.options.scope;
    this.setScope(picked === null ? [] : [...current.filter((s) => s.id !== picked.id), picked], false);
  }
}
