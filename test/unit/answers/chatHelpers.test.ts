import assert from 'node:assert/strict';
import { buildAnswerRequest, selectionQuestion, titleFrom } from '../../../src/features/answers/chat/answerRequest';
import { runAnswer, type AnswerStreamer } from '../../../src/features/answers/chat/answerRunner';
import { citationKind, toChatCitation } from '../../../src/features/answers/chat/citations';
import { conversationToMarkdown } from '../../../src/features/answers/chat/exportMarkdown';
import { defaultChatOptions, type Conversation } from '../../../src/features/answers/chat/protocol';
import { AnswerStreamAbortError, AnswerStreamError } from '../../../src/api/stream/answerStream';
import { RateLimitError } from '../../../src/api/errors';
import type { AnswerChunk } from '../../../src/api/resources/answers';
import type { GenerativeAnswer } from '../../../src/api/schemas/answers';

const result = (answer: string, over: Partial<GenerativeAnswer> = {}): GenerativeAnswer =>
  ({ answer, clues: [], citations: [], ...over }) as GenerativeAnswer;

/** A streamer that yields `chunks`, then throws `error` if given; records the signal it got. */
function fake(chunks: AnswerChunk[], error?: (answer: string) => unknown): AnswerStreamer & { signal?: AbortSignal } {
  const f: AnswerStreamer & { signal?: AbortSignal } = {
    async *stream(_request, options) {
      f.signal = options?.signal;
      let answer = '';
      for (const c of chunks) {
        await new Promise((r) => setTimeout(r, 1));
        if (options?.signal?.aborted) throw new AnswerStreamAbortError('cancelled', { partialAnswer: answer, merged: {} });
        if (c.type === 'delta') answer = c.answer;
        yield c;
      }
      if (error) throw error(answer);
    },
  };
  return f;
}
const delta = (delta: string, answer: string, replaced = false): AnswerChunk => ({ type: 'delta', delta, answer, replaced });

describe('Chat host helpers', () => {
  it('builds the request from the options: citations, clues, sources, hashtags, scope, model, temperature', () => {
    const options = {
      ...defaultChatOptions(),
      scope: [
        { id: 'f1', name: 'Handbook', kind: 'folder' as const },
        { id: 'd2', name: 'guide.md', kind: 'document' as const },
      ],
      sources: { document: true, qna: false, web: true },
      hashtags: ['#hr', 'leave', 'hr'],
      hashtagsOperator: 'and' as const,
      model: ' gpt-4o ',
      temperature: 0.3,
    };
    assert.deepEqual(buildAnswerRequest('q', options, { stateful: false, threadId: 'ignored' }), {
      query: 'q',
      includeCitations: true,
      clues: true,
      search_from: ['document', 'web'],
      hashtags: { docsInclude: ['hr', 'leave'], docsIncludeOption: 'and' },
      source: { sharedKnowledgeBaseNodeIds: ['f1', 'd2'] },
      model: 'gpt-4o',
      temperature: 0.3,
    });
    const plain = buildAnswerRequest(
      'q',
      { ...defaultChatOptions(), sources: { document: false, qna: false, web: false } },
      { stateful: true },
    );
    assert.deepEqual(plain, { query: 'q', includeCitations: true, clues: true, temperature: 0, isStateful: true });
    assert.equal(buildAnswerRequest('q', defaultChatOptions(), { stateful: true, threadId: 'th-1' }).threadId, 'th-1');
  });

  it('asks a prose selection as it is and a code selection with a prefix', () => {
    assert.equal(selectionQuestion('  What is the VPN policy?\r\n', 'markdown'), 'What is the VPN policy?');
    assert.equal(selectionQuestion(' \n ', 'plaintext'), undefined);
    assert.equal(
      selectionQuestion('const x = 1;', 'typescript'),
      'What does our documentation say about this typescript code?\n\n```typescript\nconst x = 1;\n```',
    );
    assert.match(selectionQuestion('a ``` b', 'python')!, /^What does .*\n\n~~~python\na ``` b\n~~~$/);
    assert.equal(selectionQuestion('x'.repeat(5000), 'plaintext')!.length, 1501);
    assert.equal(titleFrom('  Line one\nline two  '), 'Line one line two');
    assert.equal(titleFrom('w'.repeat(80)).length, 60);
  });

  it('runs a stream to the end: deltas in order, then the validated result', async () => {
    const got: Array<[string, boolean]> = [];
    const outcome = await runAnswer(
      fake([
        delta('Ten ', 'Ten '),
        delta('days [1].', 'Ten days [1].'),
        { type: 'done', result: result('Ten days [1].', { threadId: 'th' }) },
      ]),
      { query: 'q' },
      { signal: new AbortController().signal, onDelta: (t, r) => got.push([t, r]) },
    );
    assert.deepEqual(got, [
      ['Ten ', false],
      ['days [1].', false],
    ]);
    assert.equal(outcome.status, 'done');
    assert.equal(outcome.status === 'done' && outcome.result.threadId, 'th');
  });

  it('Stop ends a stream as stopped with what arrived; a broken stream keeps its partial answer as an error', async () => {
    const controller = new AbortController();
    const got: string[] = [];
    const stopped = await runAnswer(
      fake([delta('One. ', 'One. '), delta('Two. ', 'One. Two. '), delta('Three.', 'One. Two. Three.')]),
      { query: 'q' },
      {
        signal: controller.signal,
        onDelta: (t) => {
          got.push(t);
          if (got.length === 2) controller.abort();
        },
      },
    );
    assert.deepEqual(stopped, { status: 'stopped', answer: 'One. Two. ', deltas: 2 });
    const broken = await runAnswer(
      fake(
        [delta('Half', 'Half')],
        (a) => new AnswerStreamError('The answer stream was interrupted: socket closed', { partialAnswer: `${a} an answer`, merged: {} }),
      ),
      { query: 'q' },
      { signal: new AbortController().signal, onDelta: () => undefined },
    );
    assert.equal(broken.status, 'error');
    assert.equal(broken.answer, 'Half an answer', 'text the reader had but not yet yielded is kept too');
    assert.equal(broken.status === 'error' && broken.broken, true);
    const limited = await runAnswer(
      fake(
        [],
        () =>
          new RateLimitError('answers.generate failed (429): slow down', {
            operation: 'answers.generate',
            status: 429,
            retryAfterMs: 3000,
          } as never),
      ),
      { query: 'q' },
      { signal: new AbortController().signal, onDelta: () => undefined },
    );
    assert.equal(limited.status === 'error' && limited.broken, false);
  });

  it('reads citations tolerantly and tells documents, Q&As and web pages apart', () => {
    const c = toChatCitation({
      index: 2,
      clueId: null,
      source: 'faq',
      title: 'How?',
      pageNo: null,
      knowledgeBaseId: undefined,
      faqId: 'f1',
      url: '',
      text: 'x'.repeat(30_000),
      extra: 1,
    } as never);
    assert.deepEqual(
      Object.keys(c).filter((k) => (c as Record<string, unknown>)[k] !== undefined),
      ['index', 'source', 'title', 'faqId', 'text'],
    );
    assert.equal(c.text!.length, 20_000);
    assert.equal(citationKind(c), 'qna');
    assert.equal(citationKind({ source: 'document', knowledgeBaseId: 'kb' }), 'document');
    assert.equal(citationKind({ source: 'web', url: 'https://example.com' }), 'web');
  });

  it('exports a conversation as Markdown with a numbered source list per answer', () => {
    const conversation: Conversation = {
      id: 'c1',
      title: 'Paid leave',
      createdAt: 1,
      updatedAt: 2,
      options: defaultChatOptions(),
      turns: [
        {
          id: 't1',
          question: 'How many days of paid leave?',
          answer: 'New employees get **10 days** [1][2].',
          citations: [
            { index: 2, source: 'faq', title: 'Leave *requests*', faqId: 'f', text: '<p>Use the <b>portal</b>.</p>' },
            {
              index: 1,
              source: 'document',
              title: 'employee-handbook.pdf',
              pageNo: 3,
              knowledgeBaseId: 'kb',
              text: 'New employees receive\n10 days.',
            },
          ],
          fuQuestion: 'Does leave carry over?',
          stateful: true,
          status: 'done',
          askedAt: 1,
          seq: 2,
          model: 'local-extractive',
        },
        {
          id: 't2',
          question: '経費の締め日は？',
          answer: '毎月25日',
          citations: [],
          stateful: true,
          status: 'stopped',
          askedAt: 3,
          seq: 1,
        },
        {
          id: 't3',
          question: 'Broken?',
          answer: '',
          citations: [],
          stateful: true,
          status: 'error',
          error: { message: 'The service is rate limiting requests.', actions: [] },
          askedAt: 4,
          seq: 0,
        },
      ],
    };
    const md = conversationToMarkdown(conversation, new Date('2025-03-04T05:06:07Z'));
    assert.equal(
      md,
      [
        '# Paid leave',
        '',
        '*Exported from Knowledge Desk on 2025-03-04 05:06 UTC.*',
        '',
        '## 1. How many days of paid leave?',
        '',
        'New employees get **10 days** [1][2].',
        '',
        '**Sources**',
        '',
        '1. employee-handbook.pdf (Document, page 3)',
        '   > New employees receive 10 days.',
        '2. Leave \\*requests\\* (Q&A)',
        '   > Use the portal.',
        '',
        '*Suggested follow-up:* Does leave carry over?',
        '',
        '## 2. 経費の締め日は？',
        '',
        '毎月25日',
        '',
        '*(stopped before the answer was complete)*',
        '',
        '## 3. Broken?',
        '',
        '> **Error:** The service is rate limiting requests.',
        '',
      ].join('\n'),
    );
  });
});
