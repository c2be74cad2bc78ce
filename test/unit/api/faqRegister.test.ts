import assert from 'node:assert/strict';
import { request } from 'undici';
import { BadRequestError, NotFoundError } from '../../../src/api/errors';
import { faqStatus } from '../../../src/api/resources/faq';
import { QA_LIMITS } from '../../../src/local/faq/limits';
import { startTestService, type TestService } from '../support/localService';

const today = (): string => new Date().toLocaleDateString('sv'); // YYYY-MM-DD, local time

async function rejects400(promise: Promise<unknown>, field: string): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof BadRequestError, `expected 400, got ${String(e)}`);
    assert.equal(e.status, 400);
    assert.equal(e.field, field);
    return true;
  });
}

describe('Q&A register, update, delete and single lookup (local service)', () => {
  let t: TestService;
  before(async () => (t = await startTestService({ fsync: false })));
  after(() => t.stop());
  const agent = () => t.client({ identity: { agentEmail: 'hanako.sato@example.co.jp' } });
  const user = () => t.client({ identity: { ownUserId: 'user-1' } });

  /** The JSON body as sent, to assert exact shapes the client's tolerant schemas would hide. */
  async function raw(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const res = await request(`${t.service.url}${path}`, {
      method,
      headers: { 'API-KEY': t.service.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, json: await res.body.json() };
  }

  it('creates a Q&A with every field; single lookup returns exactly the documented fields and never the memo', async () => {
    const created = await agent().faq.register({
      question: 'VPNの設定方法を教えてください',
      answer: '<p>Install the <b>client</b> &amp; sign in.</p><ul><li>Step 1</li><li>Step 2</li></ul>',
      status: 'on',
      similarQuestions: ['VPN setup', '  ', 'vpn SETUP', 'リモート接続の方法'],
      hashtags: ['#IT', 'vpn', '##network', 'it', '  '],
      memo: 'internal: ask the network team first',
      folder: 'IT/Network',
      allowOtherUsersView: false,
    });
    assert.equal(created.status, 'created');
    const { status, json } = await raw('GET', `/webapi/single_faq?id=${created.id}`);
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(json), ['result']);
    const r = json.result;
    assert.deepEqual(Object.keys(r).sort(), [
      'agentEditor',
      'agentFeedback',
      'agentViewer',
      'allowOtherAgentsView',
      'allowOtherUsersView',
      'answer',
      'createdDate',
      'folder',
      'hashtags',
      'id',
      'lastUpdatedDate',
      'question',
      'similar_questions',
      'statusOffAt',
      'statusOnAt',
      'userFeedback',
    ]);
    assert.equal(r.id, created.id);
    assert.equal(r.question, 'VPNの設定方法を教えてください');
    assert.deepEqual(r.similar_questions, ['VPN setup', 'リモート接続の方法'], 'trimmed, empty and repeated similar questions dropped');
    assert.deepEqual(r.hashtags, ['IT', 'vpn', 'network'], 'leading # stripped, repeats (case-insensitive) dropped');
    assert.equal(r.folder, 'IT/Network');
    assert.equal(r.allowOtherAgentsView, true, 'defaults to true');
    assert.equal(r.allowOtherUsersView, false);
    assert.deepEqual(r.agentFeedback, { positiveCount: 0, negativeCount: 0 });
    assert.deepEqual(r.userFeedback, { positiveCount: 0, negativeCount: 0 });
    assert.equal(r.createdDate, today());
    assert.equal(r.lastUpdatedDate, today());
    assert.ok(Math.abs(Date.parse(r.statusOnAt) - Date.now()) < 60_000, 'statusOnAt is an ISO time of now');
    assert.equal(r.statusOffAt, null);
    assert.ok(!JSON.stringify(json).includes('network team'), 'memo text never returned');

    for (const [method, path, body] of [
      ['GET', '/webapi/faqs', undefined],
      ['POST', '/webapi/faqs', { searchTerm: 'VPN' }],
      ['POST', '/webapi/faq', { query: 'VPNの設定方法を教えてください', autoRegisterCandidates: false }],
    ] as const) {
      const res = await raw(method, path, body);
      assert.equal(res.status, 200);
      assert.ok(!JSON.stringify(res.json).includes('network team'), `${path} does not return the memo`);
      assert.ok(!JSON.stringify(res.json).includes('"memo"'), `${path} has no memo field`);
    }
  });

  it('register with the same question (case, width, spaces ignored) updates that Q&A instead of creating', async () => {
    const first = await agent().faq.register({
      question: 'How do I reset my password?',
      answer: 'Old answer',
      status: 'on',
      hashtags: ['account'],
    });
    const before = (await agent().faq.list()).total_count;
    const again = await user().faq.register({
      question: '  ＨＯＷ do i   reset my PASSWORD? ',
      answer: 'New answer',
      status: 'on',
      similarQuestions: ['password reset'],
    });
    assert.deepEqual(again, { status: 'updated', id: first.id });
    assert.equal((await agent().faq.list()).total_count, before, 'no second Q&A');
    const detail = await agent().faq.get(first.id);
    assert.equal(detail.answer, 'New answer');
    assert.equal(detail.question, 'How do I reset my password?', 'the stored question keeps its spelling');
    assert.deepEqual(detail.similar_questions, ['password reset']);
    assert.deepEqual(detail.hashtags, ['account'], 'hashtags not supplied: kept');
  });

  it('answers register and update with the exact result bodies', async () => {
    const created = await raw('POST', '/webapi/register_faq', { question: 'Exact body?', answer: 'Yes', status: 'on' });
    assert.equal(created.status, 200);
    assert.deepEqual(Object.keys(created.json), ['result', 'errors']);
    assert.equal(created.json.errors, '');
    assert.equal(created.json.result.status, 'created');
    const id = created.json.result.id as string;
    assert.deepEqual((await raw('POST', '/webapi/register_faq', { question: 'exact body?', answer: 'Yes!', status: 'on' })).json, {
      result: { status: 'updated', id },
      errors: '',
    });
    assert.deepEqual((await raw('PUT', '/webapi/register_faq', { id, answer: 'Yes!!' })).json, {
      result: { status: 'updated', id },
      errors: '',
    });
    assert.deepEqual((await raw('POST', '/webapi/delete_faq', { id })).json, { result: { status: 'deleted' }, errors: '' });
  });

  it('accepts a boolean status (the sample payload shape) and keeps statusOnAt / statusOffAt on every change', async () => {
    const { id } = await agent().faq.register({ question: 'Boolean status?', answer: 'Works', status: false as unknown as 'off' });
    let d = await agent().faq.get(id);
    assert.equal(faqStatus(d), 'off');
    assert.ok(d.statusOffAt);
    assert.equal(d.statusOnAt, undefined);
    const offAt = d.statusOffAt!;
    await new Promise((r) => setTimeout(r, 5));
    await agent().faq.update({ id, status: 'on' });
    d = await agent().faq.get(id);
    assert.equal(faqStatus(d), 'on');
    assert.ok(Date.parse(d.statusOnAt!) > Date.parse(offAt));
    assert.equal(d.statusOffAt, offAt, 'the off time stays');
    await new Promise((r) => setTimeout(r, 5));
    await agent().faq.register({ question: 'Boolean status?', answer: 'Works', status: 'off' });
    d = await agent().faq.get(id);
    assert.equal(faqStatus(d), 'off');
    assert.ok(Date.parse(d.statusOffAt!) > Date.parse(d.statusOnAt!));
    const onAt = d.statusOnAt;
    await agent().faq.update({ id, status: 'off', answer: 'Still off' });
    assert.equal((await agent().faq.get(id)).statusOnAt, onAt, 'no change of status: times untouched');
  });

  it('update changes only the supplied fields (similar_questions in snake_case)', async () => {
    const { id } = await agent().faq.register({
      question: 'Where is the cafeteria?',
      answer: 'Floor 3',
      status: 'on',
      hashtags: ['office'],
      similarQuestions: ['lunch place'],
      folder: 'General',
      allowOtherAgentsView: false,
    });
    const before = await agent().faq.get(id);
    assert.deepEqual(await agent().faq.update({ id, answer: 'Floor 4' }), { status: 'updated', id });
    let d = await agent().faq.get(id);
    assert.equal(d.answer, 'Floor 4');
    assert.equal(d.question, before.question);
    assert.deepEqual(d.hashtags, ['office']);
    assert.deepEqual(d.similar_questions, ['lunch place']);
    assert.equal(d.folder, 'General');
    assert.equal(d.allowOtherAgentsView, false);
    await agent().faq.update({
      id,
      similar_questions: ['canteen', 'food court'],
      hashtags: ['#facilities'],
      question: 'Where is the canteen?',
      allowOtherAgentsView: true,
    });
    d = await agent().faq.get(id);
    assert.deepEqual(d.similar_questions, ['canteen', 'food court']);
    assert.deepEqual(d.hashtags, ['facilities']);
    assert.equal(d.question, 'Where is the canteen?');
    assert.equal(d.allowOtherAgentsView, true);
    assert.equal(d.answer, 'Floor 4');
  });

  it("refuses to rename a question to another Q&A's question", async () => {
    const a = await agent().faq.register({ question: 'Question A', answer: 'A', status: 'on' });
    await agent().faq.register({ question: 'Question B', answer: 'B', status: 'on' });
    await rejects400(agent().faq.update({ id: a.id, question: 'question b' }), 'question');
    await agent().faq.update({ id: a.id, question: 'QUESTION A' });
    assert.equal((await agent().faq.get(a.id)).question, 'QUESTION A', 'its own question in another spelling is fine');
  });

  it('answers unknown ids with 404 "Q&A not found" in get, update and delete', async () => {
    for (const call of [
      () => agent().faq.get('no-such-id'),
      () => agent().faq.update({ id: 'no-such-id', answer: 'x' }),
      () => agent().faq.delete('no-such-id'),
    ]) {
      await assert.rejects(
        call(),
        (e: unknown) => e instanceof NotFoundError && e.status === 404 && /Q&A not found: no-such-id/.test(e.message),
      );
    }
    const res = await raw('GET', '/webapi/single_faq?id=no-such-id');
    assert.equal(res.status, 404);
    assert.deepEqual(res.json, { errors: 'Q&A not found: no-such-id', code: 404 });
  });

  it('deletes a Q&A: gone from lookup and list, a second delete is 404', async () => {
    const { id } = await agent().faq.register({ question: 'Temporary?', answer: 'Yes', status: 'on' });
    const total = (await agent().faq.list()).total_count!;
    await agent().faq.delete(id);
    await assert.rejects(agent().faq.get(id), NotFoundError);
    assert.equal((await agent().faq.list()).total_count, total - 1);
    await assert.rejects(agent().faq.delete(id), NotFoundError);
  });

  it('returns the answer as stored (html) or as plain text (tags stripped, entities decoded, blocks on lines)', async () => {
    const { id } = await agent().faq.register({
      question: 'Format test',
      answer: '<h2>Title</h2><p>Tom &amp; Jerry &lt;3&nbsp;cheese</p><p>Line<br>two</p>',
      status: 'on',
    });
    assert.equal((await agent().faq.get(id)).answer, '<h2>Title</h2><p>Tom &amp; Jerry &lt;3&nbsp;cheese</p><p>Line<br>two</p>');
    assert.equal((await agent().faq.get(id, { format: 'text' })).answer, 'Title\nTom & Jerry <3 cheese\nLine\ntwo');
    const { id: plain } = await agent().faq.register({ question: 'Plain answer', answer: 'first line\nsecond line', status: 'on' });
    assert.equal((await agent().faq.get(plain, { format: 'text' })).answer, 'first line\nsecond line', 'plain text keeps its newlines');
    const listed = (await agent().faq.list({ format: 'text' })).results.find((r) => r.id === id);
    assert.equal(listed?.answer, 'Title\nTom & Jerry <3 cheese\nLine\ntwo');
  });

  it('rejects bad lookups: missing id, unknown format', async () => {
    assert.equal((await raw('GET', '/webapi/single_faq')).json.field, 'id');
    const { id } = await agent().faq.register({ question: 'Lookup format', answer: 'x', status: 'on' });
    const res = await raw('GET', `/webapi/single_faq?id=${id}&format=xml`);
    assert.equal(res.status, 400);
    assert.equal(res.json.field, 'format');
  });

  it('requires question, answer and status; empty or blank ones are 400 naming the field', async () => {
    await rejects400(agent().faq.register({ answer: 'a', status: 'on' } as never), 'question');
    await rejects400(agent().faq.register({ question: '   ', answer: 'a', status: 'on' }), 'question');
    await rejects400(agent().faq.register({ question: 'q', answer: '', status: 'on' }), 'answer');
    await rejects400(agent().faq.register({ question: 'q', answer: 'a' } as never), 'status');
    await rejects400(agent().faq.register({ question: 'q', answer: 'a', status: 'maybe' as never }), 'status');
    await rejects400(agent().faq.register({ question: 'q', answer: 'a', status: 'on', hashtags: 'it' as never }), 'hashtags');
    await rejects400(agent().faq.update({ answer: 'x' } as never), 'id');
    await rejects400(agent().faq.update({ id: 'x', question: ' ' }), 'question');
    const res = await raw('POST', '/webapi/register_faq', [1, 2]);
    assert.equal(res.status, 400);
  });

  it('enforces the field limits of QA_LIMITS with a 400 naming the field', async () => {
    const L = QA_LIMITS;
    assert.deepEqual(
      [
        L.questionMaxChars,
        L.answerMaxChars,
        L.similarQuestionMaxChars,
        L.similarQuestionsMaxCount,
        L.hashtagMaxChars,
        L.hashtagsMaxCount,
        L.folderMaxChars,
        L.memoMaxChars,
      ],
      [1000, 50_000, 1000, 100, 100, 50, 200, 5000],
    );
    const base = { question: 'Limits', answer: 'ok', status: 'on' as const };
    const n = (k: number, c = 'x') => c.repeat(k);
    // At the limit: accepted (𠮷 is one character although two UTF-16 units).
    const ok = await agent().faq.register({
      question: n(L.questionMaxChars - 1, '𠮷') + 'q',
      answer: n(L.answerMaxChars),
      similarQuestions: Array.from({ length: L.similarQuestionsMaxCount }, (_, i) => `${i} ${n(L.similarQuestionMaxChars - 4)}`),
      hashtags: Array.from({ length: L.hashtagsMaxCount }, (_, i) => `#${String(i).padStart(L.hashtagMaxChars, 't')}`),
      folder: n(L.folderMaxChars),
      memo: n(L.memoMaxChars),
      status: 'on',
    });
    assert.equal(ok.status, 'created');
    await rejects400(agent().faq.register({ ...base, question: n(L.questionMaxChars + 1) }), 'question');
    await rejects400(agent().faq.register({ ...base, answer: n(L.answerMaxChars + 1) }), 'answer');
    await rejects400(agent().faq.register({ ...base, similarQuestions: [n(L.similarQuestionMaxChars + 1)] }), 'similarQuestions');
    await rejects400(
      agent().faq.register({ ...base, similarQuestions: Array.from({ length: L.similarQuestionsMaxCount + 1 }, (_, i) => `q${i}`) }),
      'similarQuestions',
    );
    await rejects400(agent().faq.register({ ...base, hashtags: [n(L.hashtagMaxChars + 1)] }), 'hashtags');
    await rejects400(
      agent().faq.register({ ...base, hashtags: Array.from({ length: L.hashtagsMaxCount + 1 }, (_, i) => `t${i}`) }),
      'hashtags',
    );
    await rejects400(agent().faq.register({ ...base, folder: n(L.folderMaxChars + 1) }), 'folder');
    await rejects400(agent().faq.register({ ...base, memo: n(L.memoMaxChars + 1) }), 'memo');
    await rejects400(agent().faq.update({ id: ok.id, similar_questions: [n(L.similarQuestionMaxChars + 1)] }), 'similar_questions');
    await rejects400(agent().faq.update({ id: ok.id, answer: n(L.answerMaxChars + 1) }), 'answer');
  });

  it('counts Q&As in the embedding status', async () => {
    const list = await agent().faq.list();
    assert.deepEqual(await agent().faq.embeddingStatus(), { total: list.total_count, pending: 0, ready: list.total_count });
    await agent().faq.register({ question: 'One more for the count', answer: 'x', status: 'off' });
    assert.equal((await agent().faq.embeddingStatus()).total, list.total_count! + 1);
  });
});
