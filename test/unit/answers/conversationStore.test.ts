import assert from 'node:assert/strict';
import { ConversationStore, STORE_KEY, TRUNCATED_NOTE, type StateMemento } from '../../../src/features/answers/chat/conversationStore';
import { defaultChatOptions, type Turn } from '../../../src/features/answers/chat/protocol';

/** workspaceState stand-in: values go through JSON as VS Code stores them. */
class Memento implements StateMemento {
  data = new Map<string, string>();
  writes = 0;
  get<T>(key: string): T | undefined {
    const v = this.data.get(key);
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.writes++;
    this.data.set(key, JSON.stringify(value));
  }
}

function turn(id: string, over: Partial<Turn> = {}): Turn {
  return {
    id,
    question: `Question ${id}?`,
    answer: `Answer ${id} [1].`,
    citations: [{ index: 1, title: 'Doc' }],
    stateful: false,
    status: 'done',
    askedAt: 1,
    seq: 1,
    ...over,
  };
}

function store(memento = new Memento(), limits = {}) {
  let t = 1000;
  let n = 0;
  return new ConversationStore(memento, { limits, now: () => ++t, newId: () => `c${++n}` });
}

describe('Chat conversation store', () => {
  it('keeps conversations with their turns, title, options and thread across a reload', async () => {
    const m = new Memento();
    const s = store(m);
    const c = s.current();
    assert.equal(c.title, 'New chat');
    s.addTurn(c.id, turn('t1', { question: 'How many days of paid leave do new employees get?' }));
    s.setOptions(c.id, { ...defaultChatOptions(), hashtags: ['hr'] });
    s.setThread(c.id, 'thread-1');
    await s.save();
    const again = new ConversationStore(m);
    const restored = again.current();
    assert.equal(restored.id, c.id);
    assert.equal(restored.title, 'How many days of paid leave do new employees get?');
    assert.deepEqual(restored.options.hashtags, ['hr']);
    assert.equal(restored.threadId, 'thread-1');
    assert.deepEqual(
      restored.turns.map((t) => t.id),
      ['t1'],
    );
  });

  it('lists recent conversations first, switches, and reuses an empty conversation for New Chat', () => {
    const s = store();
    const a = s.current();
    s.addTurn(a.id, turn('t1'));
    const b = s.create();
    assert.notEqual(b.id, a.id);
    assert.equal(s.create().id, b.id, 'New Chat on an empty chat keeps it');
    s.addTurn(b.id, turn('t2'));
    assert.deepEqual(
      s.list().map((c) => c.id),
      [b.id, a.id],
    );
    assert.equal(s.select(a.id)?.id, a.id);
    assert.equal(s.currentId, a.id);
    assert.equal(s.select('nope'), undefined);
    s.delete(a.id);
    assert.equal(s.currentId, b.id);
  });

  it('puts a retried turn in place of the failed one', () => {
    const s = store();
    const c = s.current();
    s.addTurn(c.id, turn('t1', { status: 'error', error: { message: 'rate limited', actions: [] } }));
    s.addTurn(c.id, turn('t2'), 't1');
    assert.deepEqual(
      c.turns.map((t) => t.id),
      ['t2'],
    );
    assert.equal(s.findTurn('t2')?.conversation.id, c.id);
  });

  it('stays within its limits: conversations, turns, answer length and total size', async () => {
    const m = new Memento();
    const s = store(m, { conversations: 3, turnsPerConversation: 4, answerChars: 50, totalChars: 6_000 });
    for (let i = 0; i < 5; i++) {
      const c = s.create();
      for (let j = 0; j < 6; j++) s.addTurn(c.id, turn(`t${i}-${j}`, { answer: j === 5 ? 'x'.repeat(80) : 'short' }));
    }
    await s.save();
    const stored = m.get<{ conversations: Array<{ turns: Turn[] }> }>(STORE_KEY)!;
    assert.equal(stored.conversations.length, 3);
    assert.ok(stored.conversations.every((c) => c.turns.length === 4));
    assert.equal(stored.conversations[0].turns.at(-1)!.answer, 'x'.repeat(50) + TRUNCATED_NOTE);
    const big = store(new Memento(), { totalChars: 3_000 });
    const c1 = big.create();
    big.addTurn(c1.id, turn('a', { answer: 'y'.repeat(1_500) }));
    const c2 = big.create();
    big.addTurn(c2.id, turn('b', { answer: 'z'.repeat(1_500) }));
    big.addTurn(c2.id, turn('c', { answer: 'w'.repeat(1_500) }));
    await big.save();
    assert.deepEqual(
      big.list().map((c) => c.id),
      [c2.id],
      'the oldest conversation goes first',
    );
    assert.deepEqual(
      big.current().turns.map((t) => t.id),
      ['c'],
      "then the current one's oldest turns",
    );
  });

  it('marks answers that were streaming when VS Code closed as stopped, and drops unreadable data', () => {
    const m = new Memento();
    const problems: string[] = [];
    m.data.set(
      STORE_KEY,
      JSON.stringify({
        version: 1,
        currentId: 'c1',
        conversations: [
          {
            id: 'c1',
            title: 'T',
            createdAt: 1,
            updatedAt: 2,
            options: defaultChatOptions(),
            turns: [turn('t1', { status: 'streaming', answer: 'half' })],
          },
          { id: 'bad', title: 5 },
        ],
      }),
    );
    const s = new ConversationStore(m, { onProblem: (p) => problems.push(p) });
    assert.equal(s.current().turns[0].status, 'stopped');
    assert.equal(s.list().length, 1);
    assert.match(problems.join(), /1 stored conversation/);
    m.data.set(STORE_KEY, JSON.stringify({ version: 99 }));
    assert.equal(new ConversationStore(m, { onProblem: (p) => problems.push(p) }).list().length, 0);
  });

  it('serialises writes so the last state wins', async () => {
    const m = new Memento();
    const s = store(m);
    const c = s.current();
    for (let i = 0; i < 10; i++) s.addTurn(c.id, turn(`t${i}`));
    await s.save();
    assert.equal(m.get<{ conversations: Array<{ turns: unknown[] }> }>(STORE_KEY)!.conversations[0].turns.length, 10);
  });

  it('keeps each connection’s conversations under its own key; the first store opened adopts the old shared ones', async () => {
    const m = new Memento();
    const old = store(m);
    old.addTurn(old.current().id, turn('t1'));
    await old.save();
    const a = new ConversationStore(m, { key: `${STORE_KEY}/a`, legacyKey: STORE_KEY });
    assert.equal(a.current().turns[0].id, 't1');
    a.addTurn(a.current().id, turn('t2'));
    await a.save();
    assert.equal(m.get(STORE_KEY), undefined, 'moved, not copied');
    const b = new ConversationStore(m, { key: `${STORE_KEY}/b`, legacyKey: STORE_KEY });
    assert.equal(b.list().length, 0);
    assert.equal(b.current().turns.length, 0);
    await b.save();
    const again = new ConversationStore(m, { key: `${STORE_KEY}/a`, legacyKey: STORE_KEY });
    assert.deepEqual(
      again.current().turns.map((t) => t.id),
      ['t1', 't2'],
    );
  });
});
