import assert from 'node:assert/strict';
import { ApiClient } from '../../../src/api/client';
import { OUTPUT_BUDGET, fitToBudget } from '../../../src/ai/budget';
import { answerQuestion, retrievePages, searchQna, TOOL_NAMES, TOOL_RUNNERS } from '../../../src/ai/knowledgeTools';
import { describeToolError, MissingKeyError } from '../../../src/ai/toolErrors';
import { ToolInputError } from '../../../src/ai/toolInput';
import { idsByName, startSeeded } from '../../fixtures/retrieval/seededService';
import type { TestService } from '../support/localService';

const HINTS = { setKey: 'SET-KEY-HINT', unreachable: 'UNREACHABLE-HINT' };
const LEAVE = 'How many days of paid leave do new employees get?';

async function rejectsInput(run: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(run, (error: unknown) => {
    assert.ok(error instanceof ToolInputError, `a ToolInputError, got ${String(error)}`);
    assert.match(error.message, pattern);
    assert.equal(describeToolError(error, HINTS).kind, 'input');
    return true;
  });
}

describe('Knowledge tools (shared by the LM tools and the MCP server)', () => {
  let t: TestService;
  let ids: Record<string, string>;
  before(async () => {
    t = await startSeeded();
    ids = await idsByName(t.client());
    await t.client().faq.register({
      question: 'How do I reset my VPN password?',
      answer: 'Open the IT portal and choose Reset VPN password.',
      status: 'on',
    } as never);
  });
  after(() => t.stop());

  it('retrieves pages with document name, id, page and passage', async () => {
    const text = await retrievePages(t.client(), { question: LEAVE, maxResults: 3 });
    assert.match(text, /^\d page/);
    assert.match(text, /\[1\] employee-handbook\.pdf — page 1 \(documentId [\w-]+\)\n/);
    assert.match(text, /15 days of paid leave/);
    assert.ok(text.length <= OUTPUT_BUDGET);
  });

  it('restricts retrieval to a folder and to a document given as scope ids', async () => {
    const inIt = await retrievePages(t.client(), { question: LEAVE, scopeIds: [ids['IT']] });
    assert.doesNotMatch(inIt, /employee-handbook/);
    assert.match(inIt, /vpn-setup\.docx|asset-inventory\.xlsx|release-notes\.html/);
    const inDoc = await retrievePages(t.client(), { question: 'VPN', scopeIds: [ids['vpn-setup.docx']], maxResults: 2 });
    for (const line of inDoc.split('\n').filter((l) => /^\[\d+\]/.test(l))) assert.match(line, /vpn-setup\.docx/);
  });

  it('searches Q&As with question, answer, confidence and id, and registers no candidate', async () => {
    const count = async () => (await t.client().faq.candidates({ status: 'ALL' })).faqCandidates.length;
    const before = await count();
    const text = await searchQna(t.client(), { question: 'reset VPN password' });
    assert.match(text, /\[1\] Q: How do I reset my VPN password\? \(confidence \d\.\d\d, id [\w-]+\)\nA: Open the IT portal/);
    const none = await searchQna(t.client(), { question: 'zebra quantum xylophone marmalade' });
    assert.match(none, /^No Q&A matches/);
    assert.equal(await count(), before, 'a tool search must not add candidates');
    // The same unanswered query from a person does add one: the count above could have changed.
    await t.client().faq.search({ query: 'zebra quantum xylophone marmalade' });
    assert.equal(await count(), before + 1);
  });

  it('answers with numbered citations naming document, page and passage', async () => {
    const text = await answerQuestion(t.client(), { question: LEAVE });
    assert.match(text, /15 days of paid leave/);
    assert.match(text, /\nCitations:\n\n\[1\] employee-handbook\.pdf — page 1 \(documentId [\w-]+\)\n/);
    assert.ok(text.length <= OUTPUT_BUDGET);
  });

  it("a citation's passage is its excerpt: a Markdown page's headings and syntax removed, on one line (src/core/excerpt.ts)", async () => {
    const text = await answerQuestion(t.client(), { question: '出張の経費はいつまでに申請しますか？' });
    const cited = text.split('\nCitations:\n\n')[1] ?? '';
    assert.match(cited, /^\[1\] 経費精算ガイド\.md — page 1 \(documentId [\w-]+\)\n出張にかかった費用の精算方法をまとめています。/, text);
    assert.doesNotMatch(cited, /#|^- /m, 'no Markdown headings or list markers in the citations');
    assert.equal(cited.split('\n\n')[0].split('\n').length, 2, 'the title line, then the passage on one line');
  });

  for (const [name, run] of Object.entries(TOOL_RUNNERS)) {
    describe(`${name}: bad input`, () => {
      it('an empty or blank question', async () => {
        await rejectsInput(run(t.client(), { question: '' }), /question is empty/);
        await rejectsInput(run(t.client(), { question: ' \n\t ' }), /question is empty/);
      });
      it('a 100,000-character question', async () => {
        await rejectsInput(run(t.client(), { question: 'why '.repeat(25_000) }), /longer than 2,000 characters/);
      });
      it('no question, a wrong type, unknown fields, not an object', async () => {
        await rejectsInput(run(t.client(), {}), /question is missing/);
        await rejectsInput(run(t.client(), { question: 42 }), /question must be text/);
        await rejectsInput(run(t.client(), { question: 'leave', colour: 'blue' }), /Unknown field colour/);
        await rejectsInput(run(t.client(), 'leave'), /must be an object/);
        await rejectsInput(run(t.client(), null), /must be an object/);
      });
      if (name !== TOOL_NAMES.qna) {
        it('unknown scope ids are named, known ones are not', async () => {
          await rejectsInput(
            run(t.client(), { question: LEAVE, scopeIds: [ids['Handbook'], 'no-such-folder', ids['vpn-setup.docx'], 'invented-doc-id'] }),
            /^Unknown folder or document ids: no-such-folder, invented-doc-id\. /,
          );
          await rejectsInput(run(t.client(), { question: LEAVE, scopeIds: [''] }), /empty ids/);
          await rejectsInput(
            run(t.client(), { question: LEAVE, scopeIds: Array.from({ length: 21 }, (_, i) => `id${i}`) }),
            /at most 20 ids/,
          );
        });
      }
      it('a region without a key: the service refuses, and the message says how to set one', async () => {
        const keyless = new ApiClient({ baseUrl: t.service.url, apiKey: '', retry: { maxRetries: 0 } });
        await assert.rejects(run(keyless, { question: LEAVE }), (error: unknown) => {
          const d = describeToolError(error, HINTS);
          assert.equal(d.kind, 'key');
          assert.match(d.message, /rejected the API key\. SET-KEY-HINT$/);
          return true;
        });
      });
      it('an unreachable service: the message says what to do', async () => {
        const gone = new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', retry: { maxRetries: 0 }, timeoutMs: 5_000 });
        await assert.rejects(run(gone, { question: LEAVE }), (error: unknown) => {
          const d = describeToolError(error, HINTS);
          assert.equal(d.kind, 'unreachable');
          assert.match(d.message, /^Cannot reach the Knowledge Desk service .*UNREACHABLE-HINT$/);
          return true;
        });
      });
      if (name !== TOOL_NAMES.qna) {
        it('a cancelled call stops', async () => {
          const controller = new AbortController();
          controller.abort();
          await assert.rejects(run(t.client(), { question: LEAVE }, controller.signal), (error: unknown) => {
            assert.equal(describeToolError(error, HINTS).kind, 'cancelled');
            return true;
          });
        });
      }
    });
  }

  it('a missing key is described with the hint', () => {
    assert.deepEqual(describeToolError(new MissingKeyError('No API key for region US.'), HINTS), {
      kind: 'key',
      message: 'No API key for region US. SET-KEY-HINT',
    });
  });

  describe('fitToBudget', () => {
    it('keeps whole items within the budget and says how many were cut', () => {
      const items = Array.from({ length: 10 }, (_, i) => `[${i + 1}] ${'x'.repeat(1_400)}`);
      const text = fitToBudget('Header:', items, { noun: 'pages', hint: 'Ask for fewer.' });
      assert.ok(text.length <= OUTPUT_BUDGET, `${text.length} characters`);
      const shown = text.match(/^\[\d+\]/gm)?.length ?? 0;
      assert.ok(shown >= 4 && shown < 10);
      assert.match(text, new RegExp(`\\[Cut to stay within 8,000 characters: ${shown} of 10 pages shown\\. Ask for fewer\\.\\]$`));
    });
    it('clips a single oversized item instead of returning nothing, and notes it', () => {
      const text = fitToBudget('H', ['y'.repeat(20_000)], { noun: 'answer', hint: 'Ask a narrower question.' });
      assert.ok(text.length <= OUTPUT_BUDGET);
      assert.match(text, /y…\n\n\[Cut to stay within 8,000 characters: the answer shortened\. Ask a narrower question\.\]$/);
    });
    it('adds no note when everything fits', () => {
      assert.equal(fitToBudget('H', ['a', 'b'], { noun: 'pages', hint: '' }), 'H\n\na\n\nb');
    });
  });
});
