import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as l10n from '@vscode/l10n';
import { ApiClient } from '../../../src/api/client';
import type { Citation } from '../../../src/api/schemas/answers';
import { chatLinkUri, parseChatLink, type ChatLink } from '../../../src/ai/chatLinks';
import { runChatTurn, threadFromHistory, type ChatSink, type ChatTurnDeps } from '../../../src/ai/chatTurn';
import { retrievePages } from '../../../src/ai/knowledgeTools';
import { MissingKeyError } from '../../../src/ai/toolErrors';
import { RegionNotConfiguredError } from '../../../src/ai/errors';
import { closeCannedServers, startCannedServer } from '../support/cannedServer';
import { startSeeded, withHeaders } from '../../fixtures/retrieval/seededService';
import type { TestService } from '../support/localService';
import { waitFor } from '../support/waitFor';

const LEAVE = 'How many days of paid leave do new employees get in their first year?';

/** A ChatResponseStream stand-in that records every call in order. */
class Recorder implements ChatSink {
  readonly calls: Array<{ kind: string; value: unknown }> = [];
  onMarkdown?: () => void;
  progress(message: string) {
    this.calls.push({ kind: 'progress', value: message });
  }
  markdown(text: string) {
    this.calls.push({ kind: 'markdown', value: text });
    this.onMarkdown?.();
  }
  anchor(link: ChatLink, title: string) {
    this.calls.push({ kind: 'anchor', value: { link, title } });
  }
  reference(link: ChatLink) {
    this.calls.push({ kind: 'reference', value: link });
  }
  button(command: { command: string; title: string }) {
    this.calls.push({ kind: 'button', value: command.title });
  }
  of(kind: string): unknown[] {
    return this.calls.filter((c) => c.kind === kind).map((c) => c.value);
  }
  get text(): string {
    return this.calls
      .map((c) => (c.kind === 'markdown' ? c.value : c.kind === 'anchor' ? `<${(c.value as { title: string }).title}>` : ''))
      .join('');
  }
}

describe('Chat participant turn (@knowledge) against the real answer stream', () => {
  let t: TestService;
  const remembered: Array<{ citation: Citation; question: string; answer: string }> = [];
  const deps = (over: Partial<ChatTurnDeps> = {}): ChatTurnDeps => ({
    client: async () => t.client(),
    regionLabel: 'Local',
    rememberCitation: (citation, question, answer) => String(remembered.push({ citation, question, answer }) - 1),
    autoRegisterCandidates: false,
    hints: { setKey: 'Run "Set API Key".', unreachable: 'Check the region.' },
    commands: { setApiKey: 'kd.setApiKey', selectRegion: 'kd.selectRegion', showLog: 'kd.showLog' },
    ...over,
  });
  const signal = () => new AbortController().signal;

  before(async () => {
    t = await startSeeded();
  });
  after(() => t.stop());

  it('/ask streams the answer as Markdown in several parts, then numbered sources as anchors and references', async () => {
    const sink = new Recorder();
    const result = await runChatTurn(LEAVE, 'ask', undefined, deps(), sink, signal());
    assert.equal(sink.calls[0].kind, 'progress');
    const beforeSources = sink.calls.slice(
      0,
      sink.calls.findIndex((c) => c.value === '\n\n**Sources**\n'),
    );
    assert.ok(beforeSources.filter((c) => c.kind === 'markdown').length > 1, 'the answer arrives in more than one part');
    assert.match(sink.text, /^New employees get 15 days of paid leave in their first year of employment\. \[1\]/);
    assert.match(sink.text, /\*\*Sources\*\*\n\n1\. <employee-handbook\.pdf> — page 1 — Aozora Systems Employee Handbook/);
    const [ref] = sink.of('reference') as ChatLink[];
    assert.deepEqual(
      { ...ref, key: undefined },
      { kind: 'citation', key: undefined, kbId: (ref as { kbId: string }).kbId, pageNo: 1, label: 'employee-handbook.pdf' },
    );
    const kept = remembered[Number((ref as { key: string }).key)];
    assert.equal(kept.question, LEAVE);
    assert.match(kept.answer, /15 days/);
    assert.match(kept.citation.text ?? '', /Leave policy/);
    assert.deepEqual(result.metadata, { command: 'ask', threadId: undefined, followUp: undefined });
    assert.deepEqual(sink.of('button'), []);
  });

  it('keeps the thread in the metadata when OWN-USER-ID is set, and continues it on the next turn', async () => {
    const own = new ApiClient({ baseUrl: t.service.url, apiKey: t.service.apiKey, identity: { ownUserId: 'u-chat-test' } });
    const first = await runChatTurn(LEAVE, 'ask', undefined, deps({ client: async () => own }), new Recorder(), signal());
    assert.match(first.metadata.threadId ?? '', /^[\w-]{8,}$/);
    assert.equal(threadFromHistory([{ command: 'faq' }, first.metadata, { command: 'docs' }]), first.metadata.threadId);
    const second = await runChatTurn(
      'And sick leave?',
      'ask',
      first.metadata.threadId,
      deps({ client: async () => own }),
      new Recorder(),
      signal(),
    );
    assert.equal(second.metadata.threadId, first.metadata.threadId);
    assert.equal(threadFromHistory([]), undefined);
  });

  it('keeps a thread exactly when its client sends OWN-USER-ID: a connection’s own user id, with the setting empty', async () => {
    // The window builds the client from the active connection's identity over the settings (ConnectionManager.identityOf):
    // a connection with its own user id and no setting sends OWN-USER-ID, so its turns keep a thread.
    const connectionsOwn = new ApiClient({ baseUrl: t.service.url, apiKey: t.service.apiKey, identity: { ownUserId: 'u-connection' } });
    const kept = await runChatTurn(LEAVE, 'ask', undefined, deps({ client: async () => connectionsOwn }), new Recorder(), signal());
    assert.match(kept.metadata.threadId ?? '', /^[\w-]{8,}$/, 'a thread for the connection’s own user id');
    // Without one (a blank id is not sent either), no thread: the service keeps none.
    const blank = new ApiClient({ baseUrl: t.service.url, apiKey: t.service.apiKey, identity: { ownUserId: '  ', userEmail: 'a@b.c' } });
    const none = await runChatTurn(LEAVE, 'ask', undefined, deps({ client: async () => blank }), new Recorder(), signal());
    assert.equal(none.metadata.threadId, undefined);
  });

  it('the chat cancellation stops the request: the service sees the stream closed early', async () => {
    const closedEarly = async () =>
      (await t.admin<{ counts: Record<string, number> }>('GET', '/_local/info')).counts['answers.closedEarly'] ?? 0;
    const before = await closedEarly();
    const slow = t.client({ dispatcher: withHeaders({ 'X-Local-Stream-Delay-Ms': '300' }) });
    const controller = new AbortController();
    const sink = new Recorder();
    sink.onMarkdown = () => controller.abort();
    const result = await runChatTurn(LEAVE, 'ask', undefined, deps({ client: async () => slow }), sink, controller.signal);
    assert.equal(result.metadata.errorKind, undefined);
    assert.doesNotMatch(sink.text, /Sources|Knowledge Desk:/);
    await waitFor(async () => (await closedEarly()) > before, 'the service to count the stream closed early');
  });

  it('/docs lists the top pages with document, page and a snippet', async () => {
    const sink = new Recorder();
    const result = await runChatTurn('paid leave carry over', 'docs', undefined, deps(), sink, signal());
    assert.match(sink.text, /^The top \d pages?:\n\n1\. <employee-handbook\.pdf> — page 1\n\n {3}> .*paid leave/);
    const links = sink.of('reference') as ChatLink[];
    assert.ok(links.length >= 1 && links.every((l) => l.kind === 'document' && l.pageNo! >= 1));
    assert.deepEqual(result.metadata, { command: 'docs' });
  });

  it("/docs and /ask show a Markdown page's excerpt: no headings or syntax, one line, cut at a word", async () => {
    const docs = new Recorder();
    await runChatTurn('出張の経費はいつまでに申請しますか？', 'docs', undefined, deps(), docs, signal());
    const guide = /<経費精算ガイド\.md> — page 1\n\n {3}> (.*)\n/.exec(docs.text);
    assert.ok(guide, docs.text);
    assert.match(guide[1], /^出張にかかった費用の精算方法をまとめています。/);
    assert.doesNotMatch(guide[1], /#|\*\*|^- /);
    const ask = new Recorder();
    await runChatTurn('出張の経費はいつまでに申請しますか？', 'ask', undefined, deps(), ask, signal());
    const source = /<経費精算ガイド\.md> — page 1 — (.*)/.exec(ask.text);
    assert.ok(source, ask.text);
    assert.match(source[1], /^出張にかかった費用の精算方法をまとめています。.*…$/);
    assert.doesNotMatch(source[1], /#/);
  });

  it('/faq shows Q&As with confidence, or says there is none', async () => {
    await t
      .client()
      .faq.register({ question: 'Who approves expense reports?', answer: 'Your manager, within 5 business days.', status: 'on' } as never);
    const sink = new Recorder();
    await runChatTurn('Who approves expense reports?', 'faq', undefined, deps(), sink, signal());
    assert.match(sink.text, /^\*\*1\. <Who approves expense reports\?>\*\* — confidence \d+%\n\nYour manager, within 5 business days\./);
    assert.equal((sink.of('anchor')[0] as { link: ChatLink }).link.kind, 'qna');
    const none = new Recorder();
    await runChatTurn('zebra quantum xylophone marmalade', 'faq', undefined, deps(), none, signal());
    assert.match(none.text, /^No Q&A matches this question/);
  });

  it('speaks Japanese once VS Code hands over the Japanese bundle (src/platform/l10n.ts); tool results stay English', async () => {
    // What shareL10nBundle() does at activation when the display language is Japanese.
    l10n.config({ contents: JSON.parse(readFileSync('l10n/bundle.l10n.ja.json', 'utf8')) });
    try {
      const docs = new Recorder();
      await runChatTurn('paid leave carry over', 'docs', undefined, deps({ regionLabel: 'ローカル' }), docs, signal());
      assert.deepEqual(docs.of('progress'), ['ナレッジベースを検索しています (ローカル)…']);
      assert.match(docs.text, /^上位 \d ページ:\n\n1\. <employee-handbook\.pdf> — 1 ページ\n\n {3}> .*paid leave/);
      const empty = new Recorder();
      await runChatTurn('   ', 'ask', undefined, deps(), empty, signal());
      assert.equal(empty.text, '**Knowledge Desk:** 入力が正しくありません: 質問が空です。質問を文章で入力してください。');
      const noKey = new Recorder();
      await runChatTurn(LEAVE, 'faq', undefined, deps({ client: () => Promise.reject(new MissingKeyError('x')) }), noKey, signal());
      assert.deepEqual(noKey.of('button'), ['API キーを設定', 'リージョンを選択']);
      // A tool's result is read by a model (and is the MCP server's too): English whatever the display language.
      assert.match(
        await retrievePages(t.client(), { question: LEAVE, maxResults: 1 }),
        /^1 page of the knowledge base for .*\n\n\[1\] .* — page \d+ \(documentId /,
      );
    } finally {
      l10n.config({ contents: {} });
    }
    const english = new Recorder();
    await runChatTurn('   ', 'ask', undefined, deps(), english, signal());
    assert.match(english.text, /^\*\*Knowledge Desk:\*\* Invalid input: question is empty/, 'back to English without the bundle');
  });

  it('/ask: a stream cut in the middle keeps the part shown, then the error under a rule', async () => {
    const canned = await startCannedServer(() => ({
      headers: { 'content-type': 'application/x-ndjson' },
      body: '{"answer":"New employees get"}\n{"answer":"New employees get 15 da',
    }));
    try {
      const sink = new Recorder();
      const result = await runChatTurn(
        LEAVE,
        'ask',
        undefined,
        deps({ client: async () => new ApiClient({ baseUrl: canned.url, apiKey: 'k', retry: { maxRetries: 0 } }) }),
        sink,
        signal(),
      );
      assert.equal(result.metadata.errorKind, 'service');
      assert.match(sink.text, /^New employees get\n\n---\n\*\*Knowledge Desk:\*\* .*middle of a response/);
      assert.deepEqual(sink.of('button'), ['Show Log']);
    } finally {
      await closeCannedServers();
    }
  });

  describe('bad input and failures become a short message with the next step', () => {
    for (const command of ['ask', 'docs', 'faq'] as const) {
      it(`/${command}: an empty and a 100,000-character question`, async () => {
        for (const [prompt, pattern] of [
          ['   ', /question is empty/],
          ['why '.repeat(25_000), /longer than 2,000 characters/],
        ] as const) {
          const sink = new Recorder();
          const result = await runChatTurn(prompt, command, undefined, deps(), sink, signal());
          assert.equal(result.metadata.errorKind, 'input');
          assert.match(sink.text, /^\*\*Knowledge Desk:\*\* Invalid input: /);
          assert.match(sink.text, pattern);
          assert.deepEqual(sink.of('button'), []);
          assert.ok(sink.text.length < 400, 'short');
        }
      });
      it(`/${command}: a region without a key offers Set API Key and Select Region`, async () => {
        const sink = new Recorder();
        const result = await runChatTurn(
          LEAVE,
          command,
          undefined,
          deps({ client: () => Promise.reject(new MissingKeyError('No API key is set for US.')) }),
          sink,
          signal(),
        );
        assert.equal(result.metadata.errorKind, 'key');
        assert.equal(sink.text, '**Knowledge Desk:** No API key is set for US. Run "Set API Key".');
        assert.deepEqual(sink.of('button'), ['Set API Key', 'Select Region']);
      });
      it(`/${command}: Select Region follows the kind of error, not its words`, async () => {
        const custom = new Recorder();
        const result = await runChatTurn(
          LEAVE,
          command,
          undefined,
          deps({ client: () => Promise.reject(new RegionNotConfiguredError('The Custom region is not configured: no base URL.')) }),
          custom,
          signal(),
        );
        assert.equal(result.metadata.errorKind, 'service');
        assert.equal(custom.text, '**Knowledge Desk:** The Custom region is not configured: no base URL.');
        assert.deepEqual(custom.of('button'), ['Select Region', 'Show Log']);
        // A failure that merely mentions the command is not a region problem.
        const other = new Recorder();
        await runChatTurn(
          LEAVE,
          command,
          undefined,
          deps({ client: () => Promise.reject(new Error('Select Region failed')) }),
          other,
          signal(),
        );
        assert.deepEqual(other.of('button'), ['Show Log']);
      });
      it(`/${command}: a rejected key and an unreachable service`, async () => {
        const rejected = new Recorder();
        await runChatTurn(
          LEAVE,
          command,
          undefined,
          deps({ client: async () => new ApiClient({ baseUrl: t.service.url, apiKey: 'wrong', retry: { maxRetries: 0 } }) }),
          rejected,
          signal(),
        );
        assert.match(rejected.text, /The service rejected the API key/);
        assert.deepEqual(rejected.of('button'), ['Set API Key', 'Select Region']);
        const gone = new Recorder();
        await runChatTurn(
          LEAVE,
          command,
          undefined,
          deps({ client: async () => new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', retry: { maxRetries: 0 } }) }),
          gone,
          signal(),
        );
        assert.match(gone.text, /Cannot reach the Knowledge Desk service .*Check the region\.$/);
        assert.deepEqual(gone.of('button'), ['Select Region']);
      });
    }
  });

  describe('chat links', () => {
    it('round-trip through the URI, with the label as the last path segment', () => {
      for (const link of [
        { kind: 'citation', key: '7', kbId: 'doc-1', pageNo: 3, label: 'handbook.pdf' },
        { kind: 'document', kbId: 'doc-2', pageNo: 1, key: '8', label: '経費 guide/v2.md' },
        { kind: 'qna', id: 'q-1', label: 'Who approves?' },
      ] as ChatLink[]) {
        const uri = new URL(chatLinkUri('vscode', link));
        assert.equal(uri.host, 'knowledge-desk.knowledge-desk');
        const parsed = parseChatLink(uri.pathname, uri.search.slice(1));
        assert.deepEqual(parsed, { ...link, label: link.label.replace('/', ' ') });
      }
    });
    it('rejects paths and queries that are not ours', () => {
      assert.equal(parseChatLink('/other/x', 'id=1'), undefined);
      assert.equal(parseChatLink('/qna/x', ''), undefined);
      assert.equal(parseChatLink('/document/x', 'page=2'), undefined);
      assert.equal(parseChatLink('/citation/x/y', 'key=1'), undefined);
      assert.deepEqual(parseChatLink('/document/%E0%A4', 'kbId=d&page=-4'), {
        kind: 'document',
        kbId: 'd',
        pageNo: undefined,
        key: undefined,
        label: '%E0%A4',
      });
    });
  });
});
