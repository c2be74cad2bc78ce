import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { request } from 'undici';
import { BadRequestError } from '../../../src/api/errors';
import type { GenerativeAnswerRequest } from '../../../src/api/resources/answers';
import type { GenerativeAnswer } from '../../../src/api/schemas/answers';
import { idsByName, startSeeded } from '../../fixtures/retrieval/seededService';
import type { TestService } from '../support/localService';

const NO_ANSWER_EN = 'No answer was found in the knowledge base for this question.';
const NO_ANSWER_JA = 'ナレッジベースにこの質問の答えは見つかりませんでした。';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The answer's sentences without their citation markers. */
const sentencesOf = (answer: string) => answer.split('\n\n').map((s) => s.replace(/ \[\d+\]$/, ''));

describe('Generative answers (POST /webapi/generative_answer), sync', () => {
  let t: TestService;
  let ids: Record<string, string>;
  const client = (identity?: { ownUserId?: string; userEmail?: string }) => t.client(identity ? { identity } : {});
  const generate = (body: GenerativeAnswerRequest, identity?: { ownUserId?: string; userEmail?: string }) =>
    client(identity).answers.generate(body);
  const pageText = async (id: string, pageNo: number) =>
    (await client().localDocs.pages(id)).pages.find((p) => p.pageNo === pageNo)!.text.replace(/\s+/g, ' ');

  before(async () => {
    t = await startSeeded();
    ids = await idsByName(client());
  });
  after(() => t.stop());

  it('quotes a sentence of the right document, with a citation marker and a citation', async () => {
    const a = await generate({
      query: 'How many days of paid leave do new employees get in their first year?',
      includeCitations: true,
      clues: true,
    });
    assert.match(a.answer, /^New employees get 15 days of paid leave in their first year of employment\. \[1\]/);
    assert.equal(a.model, 'local-extractive');
    assert.equal(a.citations[0].index, 1);
    assert.equal(a.citations[0].source, 'document');
    assert.equal(a.citations[0].knowledgeBaseId, ids['employee-handbook.pdf']);
    assert.equal(a.citations[0].title, 'employee-handbook.pdf');
    assert.equal(a.citations[0].pageNo, 1);
    assert.equal(a.citations[0].faqId, '');
    assert.equal(a.citations[0].url, '');
    const markers = [...a.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    assert.ok(
      markers.every((n) => a.citations.some((c) => c.index === n)),
      'every marker has its citation',
    );
    for (const sentence of sentencesOf(a.answer)) {
      const cited = a.citations[0];
      assert.ok((await pageText(cited.knowledgeBaseId!, cited.pageNo!)).includes(sentence), `"${sentence}" is quoted from the page`);
    }
    assert.ok(a.confidence! >= 0.34 && a.confidence! <= 1);
    assert.equal(a.effectiveConfidence, a.confidence);
    assert.equal(a.documentId, ids['employee-handbook.pdf']);
    assert.equal(a.documentName, 'employee-handbook.pdf');
    assert.equal(a.pageNo, 1);
    assert.deepEqual(a.hashtags, ['sample']);
    assert.equal(a.folder, 'Handbook');
    assert.ok(!Number.isNaN(Date.parse(a.createdDate!)));
    assert.match(a.answerHash!, /^[0-9a-f]{32}$/);
    assert.ok(a.clues.length >= 2, 'clues: the passages read');
    assert.ok(a.clues.some((c) => c.clueId === a.citations[0].clueId));
    assert.ok(
      a.clues.every((c) => c.text === undefined),
      'no clue text unless clueText',
    );
    assert.equal(a.intent, 'SEARCH');
    assert.equal(a.threadId, undefined);
    assert.equal(a.fuQuestion, undefined);
  });

  it('answers Japanese questions from the Japanese documents', async () => {
    const a = await generate({ query: '出張の宿泊費の上限はいくらですか', includeCitations: true, clues: true, clueText: true });
    assert.match(a.answer, /宿泊費の上限は1泊12,000円です。 \[1\]/);
    assert.equal(a.citations[0].knowledgeBaseId, ids['経費精算ガイド.md']);
    assert.ok(
      a.clues.every((c) => typeof c.text === 'string' && c.text.length > 0),
      'clue text with clueText',
    );
    const rule = await generate({ query: '副業を始めるときはいつまでに届け出ますか', includeCitations: true });
    assert.match(rule.answer, /開始日の30日前までに人事部へ届け出なければならない/);
    assert.equal(rule.citations[0].pageNo, 2);
  });

  it('answers honestly when nothing in the knowledge base covers the question', async () => {
    for (const [query, expected] of [
      ['What is the cafeteria menu on Fridays?', NO_ANSWER_EN],
      ['社員食堂の金曜日のメニューは何ですか', NO_ANSWER_JA],
    ]) {
      const a = await generate({ query, includeCitations: true, clues: true });
      const [said, closest] = a.answer.split('\n\n');
      assert.equal(said, expected);
      assert.deepEqual(a.citations, []);
      assert.ok(a.clues.length <= 3, 'the clues are the closest pages, at most three');
      for (const c of a.clues)
        assert.ok(closest?.includes(`${c.title}`) && closest.includes(String(c.pageNo)), `${closest} names ${c.title} ${c.pageNo}`);
      assert.equal(a.confidence, 0);
      assert.equal(a.documentId ?? null, null, 'no source document');
    }
  });

  it('cites a Q&A with search_from qna, and leaves Q&As out when asked for documents only', async () => {
    const { id } = await client().faq.register({
      question: 'What does the cafeteria serve on Fridays?',
      answer: '<p>On Fridays the cafeteria serves curry rice and a salad bar.</p>',
      status: 'on',
    });
    const a = await generate({
      query: 'What does the cafeteria serve on Fridays?',
      search_from: ['qna'],
      includeCitations: true,
      clues: true,
    });
    assert.equal(a.answer, 'On Fridays the cafeteria serves curry rice and a salad bar. [1]');
    assert.deepEqual(
      {
        source: a.citations[0].source,
        faqId: a.citations[0].faqId,
        knowledgeBaseId: a.citations[0].knowledgeBaseId,
        title: a.citations[0].title,
      },
      { source: 'qna', faqId: id, knowledgeBaseId: '', title: 'What does the cafeteria serve on Fridays?' },
    );
    assert.equal(a.clues[0].source, 'qna');
    assert.equal((await generate({ query: 'What does the cafeteria serve on Fridays?' })).answer, a.answer, 'Q&As are searched by default');
    assert.ok(
      (await generate({ query: 'What does the cafeteria serve on Fridays?', search_from: ['document'] })).answer.startsWith(NO_ANSWER_EN),
    );
    const excluded = await generate({
      query: 'What does the cafeteria serve on Fridays?',
      search_from: ['qna'],
      hashtags: { qnaInclude: ['menu'] },
    });
    assert.ok(excluded.answer.startsWith(NO_ANSWER_EN), 'qnaInclude filters Q&As by hashtag');
    const web = await generate({ query: 'What does the cafeteria serve on Fridays?', search_from: ['web', 'qna'] });
    assert.ok(
      (web as { notes?: string[] }).notes?.some((n) => /web/i.test(n)),
      'web is ignored, and said so',
    );
  });

  it('validates every request field with 400 naming it', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ query: 'x'.repeat(2001) }, 'query'],
      [{ query: '   ' }, 'query'],
      [{ answerFormat: 'HTML' }, 'answerFormat'],
      [{ threadId: 'not-a-uuid', isStateful: true }, 'threadId'],
      [{ temperature: 3 }, 'temperature'],
      [{ search_from: ['intranet'] }, 'search_from.0'],
      [{ hashtags: { docsIncludeOption: 'xor' } }, 'hashtags.docsIncludeOption'],
      [{ source: { sharedKnowledgeBaseNodeIds: 'abc' } }, 'source.sharedKnowledgeBaseNodeIds'],
      [{ clues: 'yes' }, 'clues'],
    ];
    for (const [body, field] of cases) {
      await assert.rejects(
        generate({ query: 'paid leave', ...body } as GenerativeAnswerRequest),
        (e: unknown) => e instanceof BadRequestError && e.field === field,
        JSON.stringify(body),
      );
    }
  });

  it('limits documents by hashtags, source node ids and legacy folderIds', async () => {
    const q = 'How many days of paid leave do new employees get in their first year?';
    assert.ok((await generate({ query: q, hashtags: { docsExclude: ['sample'] } })).answer.startsWith(NO_ANSWER_EN));
    const scoped = await generate({ query: q, source: { sharedKnowledgeBaseNodeIds: [ids['IT']] } });
    assert.notEqual(scoped.documentId, ids['employee-handbook.pdf']);
    assert.equal((await generate({ query: q, folderIds: [ids.Handbook] })).documentId, ids['employee-handbook.pdf']);
  });

  it('sends DRAFTJS raw content that the client turns into the same Markdown', async () => {
    const body = { query: 'Who answers payroll questions?', includeCitations: true };
    const res = await request(`${t.service.url}/webapi/generative_answer`, {
      method: 'POST',
      headers: { 'API-KEY': t.service.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, answerFormat: 'DRAFTJS' }),
    });
    const raw = (await res.body.json()) as { answer: { blocks: Array<{ text: string; type: string }>; entityMap: object } };
    assert.ok(raw.answer.blocks.length >= 1);
    assert.ok(
      raw.answer.blocks.every((b) => b.type === 'unstyled' && / \[\d+\]$/.test(b.text)),
      'one unstyled block per sentence, marker included',
    );
    assert.deepEqual(raw.answer.entityMap, {});
    const viaDraft = await generate({ ...body, answerFormat: 'DRAFTJS' });
    const markdown = await generate({ ...body, answerFormat: 'MARKDOWN' });
    assert.equal(viaDraft.answer.replace(/\\\[(\d+)\\\]/g, '[$1]'), markdown.answer, 'same text; the converter escapes the brackets');
    const md = new MarkdownIt();
    assert.equal(md.render(viaDraft.answer), md.render(markdown.answer), 'and it renders the same');
    assert.equal(raw.answer.blocks.map((b) => b.text).join('\n\n'), markdown.answer);
  });

  it('keeps threads per user (OWN-USER-ID): a follow-up with a pronoun is rewritten and answered from the same document', async () => {
    const user = { ownUserId: 'thread-user-1' };
    const first = await generate(
      { query: 'How many days of paid leave do new employees get?', isStateful: true, threadId: '', includeCitations: true },
      user,
    );
    assert.match(first.threadId!, UUID_V4);
    assert.ok(first.fuQuestion && first.fuQuestion.length > 3, `fuQuestion: ${first.fuQuestion}`);
    const second = await generate(
      { query: 'Can I carry it over to the next year?', isStateful: true, threadId: first.threadId!, includeCitations: true },
      user,
    );
    const rewritten = (second as { rewrittenQuery?: string }).rewrittenQuery!;
    assert.notEqual(rewritten, 'Can I carry it over to the next year?');
    assert.match(rewritten, /leave/);
    assert.equal(second.threadId, first.threadId);
    assert.equal(second.citations[0].knowledgeBaseId, first.citations[0].knowledgeBaseId);
    assert.match(second.answer, /carried over/);

    const other = await generate(
      { query: 'Can I carry it over to the next year?', isStateful: true, threadId: first.threadId!, includeCitations: true },
      { ownUserId: 'thread-user-2' },
    );
    assert.equal(
      (other as { rewrittenQuery?: string }).rewrittenQuery,
      'Can I carry it over to the next year?',
      "another user's turn has no history",
    );
    const anonymous = await generate({ query: 'Can I carry it over to the next year?', isStateful: true, threadId: first.threadId! });
    assert.equal((anonymous as { rewrittenQuery?: string }).rewrittenQuery, 'Can I carry it over to the next year?');
    assert.ok(
      (anonymous as { notes?: string[] }).notes?.some((n) => /identity/.test(n)),
      'without an identity no thread is kept, and the answer says so',
    );
    assert.equal(anonymous.threadId, first.threadId);
  });

  it("answers the service's intent (SEARCH or END_OF_CONVERSATION) and suggests follow-ups in the query language", async () => {
    assert.equal((await generate({ query: 'Thank you!' })).intent, 'END_OF_CONVERSATION');
    assert.equal((await generate({ query: 'ありがとうございました' })).intent, 'END_OF_CONVERSATION');
    assert.equal((await generate({ query: 'Hello!' })).intent, 'SEARCH');
    assert.equal((await generate({ query: 'Tell me the VPN server address' })).intent, 'SEARCH');
    const ja = await generate({ query: '国内出張の日当はいくらですか', isStateful: true, threadId: '' }, { ownUserId: 'ja-user' });
    assert.equal(ja.intent, 'SEARCH');
    assert.match(ja.fuQuestion!, /[\p{Script=Han}\p{Script=Hiragana}]/u, ja.fuQuestion!);
  });
});

export type { GenerativeAnswer };
