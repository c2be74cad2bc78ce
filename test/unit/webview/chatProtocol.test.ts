import assert from 'node:assert/strict';
import { chatProtocol, chatStateSchema, defaultChatOptions, type Turn } from '../../../src/features/answers/chat/protocol';
import { parseIncoming } from '../../../src/platform/webview/protocol';

const toHost = (type: string, payload: unknown) => parseIncoming({ kind: 'notify', type, payload }, chatProtocol.toHost);
const toPage = (type: string, payload: unknown) => parseIncoming({ kind: 'notify', type, payload }, chatProtocol.toPage);
const turn: Turn = {
  id: 't1',
  question: 'q',
  answer: 'a [1]',
  citations: [{ index: 1, title: 'Doc' }],
  stateful: true,
  status: 'done',
  askedAt: 1,
  seq: 2,
};

describe('Chat protocol', () => {
  it('accepts what the page sends and trims the question', () => {
    const ask = toHost('ask', { conversationId: 'c1', question: '  How many days?  ', options: defaultChatOptions() });
    assert.ok(ask.ok);
    assert.equal(ask.ok && ask.message.kind === 'notify' && (ask.message.payload as { question: string }).question, 'How many days?');
    for (const [type, payload] of [
      ['abort', { requestId: 'r1' }],
      ['openCitation', { turnId: 't1', citation: { index: 1, clueId: 'c' } }],
      [
        'optionsChanged',
        {
          conversationId: 'c1',
          options: { ...defaultChatOptions(), temperature: 0.7, scope: [{ id: 'f1', name: 'Handbook', kind: 'folder' }] },
        },
      ],
      ['newChat', {}],
      ['runAction', { command: 'knowledgeDesk.setApiKey' }],
    ] as const)
      assert.ok(toHost(type, payload).ok, type);
  });

  it('refuses malformed or oversized messages from the page', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['ask', { conversationId: null, question: '   ', options: defaultChatOptions() }, /question/],
      ['ask', { conversationId: null, question: 'x'.repeat(20_001), options: defaultChatOptions() }, /question/],
      ['ask', { conversationId: null, question: 'q', options: { ...defaultChatOptions(), temperature: 2 } }, /temperature/],
      [
        'ask',
        { conversationId: null, question: 'q', options: { ...defaultChatOptions(), scope: [{ id: '', name: 'x', kind: 'folder' }] } },
        /scope/,
      ],
      ['abort', { requestId: '' }, /requestId/],
      ['openCitation', { turnId: 't1', citation: { title: 'no index' } }, /index/],
      ['newChat', { extra: true }, /Unrecognized/],
      ['evalThis', {}, /unknown notification/],
    ];
    for (const [type, payload, problem] of cases) {
      const r = toHost(type, payload);
      assert.equal(r.ok, false, `${type} ${JSON.stringify(payload).slice(0, 60)}`);
      assert.match(!r.ok ? r.problem : '', problem);
    }
  });

  it('accepts what the host sends and refuses what the page could not show', () => {
    assert.ok(toPage('turnFinished', { conversationId: 'c1', turn }).ok);
    assert.ok(toPage('delta', { requestId: 't1', seq: 1, text: 'x', replaced: false }).ok);
    assert.ok(toPage('notice', null).ok);
    assert.equal(toPage('delta', { requestId: 't1', seq: 0, text: 'x', replaced: false }).ok, false);
    assert.equal(toPage('turnFinished', { conversationId: 'c1', turn: { ...turn, status: 'exploded' } }).ok, false);
    assert.equal(toPage('turnFinished', { conversationId: 'c1', turn: { ...turn, citations: [{ index: 1.5 }] } }).ok, false);
    assert.equal(toPage('init', { conversation: {}, conversations: [], ownUserIdSet: true }).ok, false);
  });

  it('validates the saved webview state the serializer reads', () => {
    assert.ok(chatStateSchema.safeParse({ conversationId: 'c1', options: defaultChatOptions(), draft: '', optionsOpen: false }).success);
    assert.ok(chatStateSchema.safeParse({}).success);
    assert.equal(chatStateSchema.safeParse({ conversationId: 5 }).success, false);
  });
});
