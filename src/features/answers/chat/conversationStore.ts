// The chat's conversations of one workspace, kept in workspaceState: a bounded list, the current
// one, and their turns. No vscode here (the memento is an interface), so it is unit tested in Node.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { titleFrom } from './answerRequest';
import {
  conversationSchema,
  defaultChatOptions,
  type ChatOptions,
  type Conversation,
  type ConversationSummary,
  type Turn,
} from './protocol';

/** The part of vscode.Memento the store uses. */
export interface StateMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

export const STORE_KEY = 'knowledgeDesk.chat.conversations';
/** The stored title of a conversation without a question yet: data, not shown as such (the page names it in the display language). */
export const UNTITLED = 'New chat';

export interface StoreLimits {
  conversations: number;
  turnsPerConversation: number;
  /** Characters of one stored answer. */
  answerChars: number;
  /** Size of the whole stored JSON, in UTF-16 code units (a close enough measure of bytes). */
  totalChars: number;
}

export const DEFAULT_LIMITS: StoreLimits = { conversations: 30, turnsPerConversation: 50, answerChars: 100_000, totalChars: 2_000_000 };

const storedSchema = z.object({ version: z.literal(1), currentId: z.string().optional(), conversations: z.array(z.unknown()) });

export const TRUNCATED_NOTE = '\n\n*(answer shortened to fit the chat history)*';

export interface StoreOptions {
  /** Where it is kept (one key per connection: its conversations and their threads are that project's); STORE_KEY by default. */
  key?: string;
  /**
   * Where the conversations were kept before there was one store per connection: read when `key` holds nothing yet,
   * then moved to `key` (so only one connection's store adopts them).
   */
  legacyKey?: string;
  limits?: Partial<StoreLimits>;
  now?: () => number;
  newId?: () => string;
  /** Told about stored data that could not be read (it is dropped). */
  onProblem?: (message: string) => void;
}

/**
 * Conversations are live objects: the host appends streamed text to a turn directly and calls
 * save() when a turn starts or ends (not on every delta). Saves are serialised.
 */
export class ConversationStore {
  readonly limits: StoreLimits;
  private conversations: Conversation[] = [];
  private currentKey: string | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly key: string;

  constructor(
    private readonly memento: StateMemento,
    private readonly options: StoreOptions = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
    this.key = options.key ?? STORE_KEY;
    this.load();
  }

  /** Most recently updated first. */
  list(): ConversationSummary[] {
    return [...this.conversations]
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .map((c) => ({ id: c.id, title: c.title, updatedAt: c.updatedAt, turns: c.turns.length }));
  }

  get(id: string | undefined): Conversation | undefined {
    return id === undefined ? undefined : this.conversations.find((c) => c.id === id);
  }

  get currentId(): string | undefined {
    return this.currentKey;
  }

  /** The current conversation; a new empty one if there is none. */
  current(options?: ChatOptions): Conversation {
    return this.get(this.currentKey) ?? this.create(options ?? defaultChatOptions());
  }

  /** Makes `id` current; undefined if it does not exist. */
  select(id: string): Conversation | undefined {
    const conversation = this.get(id);
    if (conversation && this.currentKey !== id) {
      this.currentKey = id;
      void this.save();
    }
    return conversation;
  }

  /** New Chat: a new current conversation (an empty current one is reused instead of piling up). */
  create(options: ChatOptions = defaultChatOptions()): Conversation {
    const open = this.get(this.currentKey);
    if (open && open.turns.length === 0) {
      open.options = options;
      void this.save();
      return open;
    }
    const t = this.now();
    const conversation: Conversation = { id: this.newId(), title: UNTITLED, createdAt: t, updatedAt: t, options, turns: [] };
    this.conversations.push(conversation);
    this.currentKey = conversation.id;
    void this.save();
    return conversation;
  }

  /** Adds a turn (or puts it in place of the turn it retries) and returns the stored object. */
  addTurn(conversationId: string, turn: Turn, replaces?: string): Turn {
    const conversation = this.require(conversationId);
    const at = replaces ? conversation.turns.findIndex((t) => t.id === replaces) : -1;
    if (at >= 0) conversation.turns[at] = turn;
    else conversation.turns.push(turn);
    if (conversation.turns.length === 1 || conversation.title === UNTITLED) conversation.title = titleFrom(conversation.turns[0].question);
    conversation.updatedAt = this.now();
    void this.save();
    return turn;
  }

  findTurn(turnId: string): { conversation: Conversation; turn: Turn } | undefined {
    for (const conversation of this.conversations) {
      const turn = conversation.turns.find((t) => t.id === turnId);
      if (turn) return { conversation, turn };
    }
    return undefined;
  }

  setOptions(conversationId: string, options: ChatOptions): void {
    const conversation = this.get(conversationId);
    if (!conversation) return;
    conversation.options = options;
    void this.save();
  }

  setThread(conversationId: string, threadId: string | undefined): void {
    const conversation = this.get(conversationId);
    if (!conversation || conversation.threadId === threadId) return;
    conversation.threadId = threadId;
    void this.save();
  }

  /** Marks a conversation as changed now (a turn finished) and saves. */
  touch(conversationId: string): Promise<void> {
    const conversation = this.get(conversationId);
    if (conversation) conversation.updatedAt = this.now();
    return this.save();
  }

  /** Deletes a conversation; the most recent other one (or a new one) becomes current if it was. */
  delete(id: string): void {
    this.conversations = this.conversations.filter((c) => c.id !== id);
    if (this.currentKey === id) this.currentKey = this.list()[0]?.id;
    void this.save();
  }

  /** Writes everything, within the limits; resolves when this and every earlier write are done. */
  save(): Promise<void> {
    this.enforceLimits();
    const value = { version: 1 as const, currentId: this.currentKey, conversations: this.conversations };
    const snapshot = JSON.parse(JSON.stringify(value)) as unknown;
    this.writing = this.writing.then(
      () => this.memento.update(this.key, snapshot),
      () => this.memento.update(this.key, snapshot),
    );
    return this.writing;
  }

  private require(id: string): Conversation {
    const conversation = this.get(id);
    if (!conversation) throw new Error(`No conversation ${id}`); // l10n-ignore: an internal fault (a page naming a removed conversation), logged
    return conversation;
  }

  private load(): void {
    let raw = this.memento.get<unknown>(this.key);
    const legacy = this.options.legacyKey;
    if (raw === undefined && legacy && legacy !== this.key && (raw = this.memento.get<unknown>(legacy)) !== undefined) {
      // Later saves wait for the move (they chain on `writing`).
      this.writing = Promise.resolve(this.memento.update(this.key, raw)).then(() => this.memento.update(legacy, undefined));
    }
    if (raw === undefined) return;
    const stored = storedSchema.safeParse(raw);
    if (!stored.success) {
      this.options.onProblem?.('the stored chat history is not readable; starting afresh');
      return;
    }
    let dropped = 0;
    for (const item of stored.data.conversations) {
      const parsed = conversationSchema.safeParse(item);
      if (!parsed.success) {
        dropped++;
        continue;
      }
      // VS Code closed while an answer streamed: keep what arrived, marked as stopped.
      for (const turn of parsed.data.turns) if (turn.status === 'streaming') turn.status = 'stopped';
      this.conversations.push(parsed.data);
    }
    if (dropped)
      this.options.onProblem?.(
        dropped === 1
          ? '1 stored conversation could not be read and was dropped'
          : `${dropped} stored conversations could not be read and were dropped`,
      );
    this.currentKey = this.get(stored.data.currentId)?.id ?? this.list()[0]?.id;
  }

  private enforceLimits(): void {
    const l = this.limits;
    for (const c of this.conversations) {
      if (c.turns.length > l.turnsPerConversation) c.turns.splice(0, c.turns.length - l.turnsPerConversation);
      for (const t of c.turns)
        if (t.status !== 'streaming' && t.answer.length > l.answerChars) t.answer = t.answer.slice(0, l.answerChars) + TRUNCATED_NOTE;
    }
    const byAge = (): Conversation[] =>
      [...this.conversations].sort((a, b) => a.updatedAt - b.updatedAt).filter((c) => c.id !== this.currentKey);
    while (this.conversations.length > l.conversations) this.drop(byAge()[0]);
    let size = JSON.stringify(this.conversations).length;
    while (size > l.totalChars) {
      const oldest = byAge()[0];
      if (oldest) this.drop(oldest);
      else {
        const current = this.get(this.currentKey);
        // Only the current conversation is left: its oldest finished turns go first.
        const i = current?.turns.findIndex((t) => t.status !== 'streaming') ?? -1;
        if (!current || i < 0 || current.turns.length <= 1) break;
        current.turns.splice(i, 1);
      }
      size = JSON.stringify(this.conversations).length;
    }
  }

  private drop(conversation: Conversation | undefined): void {
    if (conversation) this.conversations = this.conversations.filter((c) => c !== conversation);
  }
}
