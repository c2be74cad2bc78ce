import assert from 'node:assert/strict';
import { BadRequestError } from '../../../src/api/errors';
import type { FaqSearchParams } from '../../../src/api/resources/faq';
import { startTestService, type TestService } from '../support/localService';

/** The formula of docs/api.md#search-qa, written out independently of the service. */
const effective = (confidence: number, pos: number, neg: number): number =>
  Math.min(1, Math.max(0, confidence + (0.05 * (pos - neg)) / (pos + neg + 1)));

describe('Q&A search (local service)', () => {
  let t: TestService;
  const ids: Record<string, string> = {};
  const agent = (email = 'agent@example.com') => t.client({ identity: { agentEmail: email } });
  const user = (id: string) => t.client({ identity: { ownUserId: id } });
  const search = (params: FaqSearchParams) => agent().faq.search({ autoRegisterCandidates: false, ...params });
  const nameOf = (id: string): string => Object.keys(ids).find((k) => ids[k] === id) ?? id;

  before(async () => {
    t = await startTestService({ fsync: false });
    const rows: Record<string, Parameters<ReturnType<typeof agent>['faq']['register']>[0]> = {
      vpn: {
        question: 'How do I set up the VPN on my laptop?',
        answer: '<p>Install the <b>client</b> &amp; sign in.</p>',
        status: 'on',
        hashtags: ['it', 'vpn'],
        similarQuestions: ['VPN client installation'],
      },
      expense: { question: '経費精算の締め日はいつですか', answer: '毎月25日です。', status: 'on', hashtags: ['経理'] },
      leave: {
        question: '有給休暇の申請方法を教えてください',
        answer: '人事システムから申請してください。',
        status: 'on',
        hashtags: ['hr'],
      },
      korean: { question: '휴가를 신청하는 방법', answer: '인사 시스템에서 신청하세요.', status: 'on', hashtags: ['hr'] },
      printerOff: { question: 'Printer is offline', answer: 'Restart it.', status: 'off', hashtags: ['it'] },
      mailA: { question: 'reset password for the mail account', answer: 'Mail: use the portal.', status: 'on', hashtags: ['it', 'mail'] },
      mailB: { question: 'reset password for the chat account', answer: 'Chat: use the app.', status: 'on', hashtags: ['chat'] },
    };
    for (const [key, body] of Object.entries(rows)) ids[key] = (await agent().faq.register(body)).id;
  });
  after(() => t.stop());

  it('gives confidence 1.0 for the exact question, with the documented fields', async () => {
    const res = await search({ query: 'How do I set up the VPN on my laptop?' });
    assert.equal(res.count, res.result.length);
    assert.match(res.hashId, /^[0-9a-f]{32}$/);
    const top = res.result[0];
    assert.equal(top.id, ids.vpn);
    assert.equal(top.confidence, 1);
    assert.equal(top.effectiveConfidence, 1);
    assert.deepEqual(Object.keys(top).sort(), [
      'agentFeedback',
      'answer',
      'confidence',
      'effectiveConfidence',
      'hashtags',
      'id',
      'lastUpdatedDate',
      'question',
      'userFeedback',
    ]);
    assert.equal(top.answer, '<p>Install the <b>client</b> &amp; sign in.</p>');
    assert.equal(top.lastUpdatedDate, new Date().toLocaleDateString('sv'));
    // Case, width and punctuation do not matter.
    assert.equal((await search({ query: 'ＨＯＷ DO I SET UP THE VPN ON MY LAPTOP' })).result[0].confidence, 1);
  });

  it('matches a Japanese query to a Japanese Q&A by words, not whole strings', async () => {
    const res = await search({ query: '経費精算の締め日' });
    assert.equal(res.result[0]?.id, ids.expense);
    assert.ok(res.result[0].confidence >= 0.5 && res.result[0].confidence < 1, String(res.result[0].confidence));
    const leave = await search({ query: '有給休暇を申請したい' });
    assert.equal(leave.result[0]?.id, ids.leave);
    assert.ok(leave.result[0].confidence > 0.3);
  });

  it('matches Korean through bigrams (a particle does not hide the word)', async () => {
    const res = await search({ query: '휴가 신청' });
    assert.equal(res.result[0]?.id, ids.korean);
    assert.ok(res.result[0].confidence > 0.3);
  });

  it('scores the best of the question and the similar questions', async () => {
    const res = await search({ query: 'vpn client installation' });
    assert.equal(res.result[0].id, ids.vpn);
    assert.equal(res.result[0].confidence, 1, 'same as a similar question');
  });

  it('returns nothing for an unrelated query, and every result has confidence in [0.1, 1]', async () => {
    assert.deepEqual((await search({ query: 'quantum chromodynamics lecture' })).result, []);
    const res = await search({ query: 'password vpn 申請' });
    assert.ok(res.result.length >= 2);
    for (const r of res.result) assert.ok(r.confidence >= 0.1 && r.confidence <= 1, `${nameOf(r.id)}: ${r.confidence}`);
    const order = res.result.map((r) => r.effectiveConfidence);
    assert.deepEqual(
      order,
      [...order].sort((a, b) => b - a),
      'ordered by effectiveConfidence',
    );
  });

  it('uses only Q&As that are on: turning one on or off, or deleting it, changes results', async () => {
    assert.ok(!(await search({ query: 'Printer is offline' })).result.some((r) => r.id === ids.printerOff));
    await agent().faq.update({ id: ids.printerOff, status: 'on' });
    assert.equal((await search({ query: 'Printer is offline' })).result[0]?.id, ids.printerOff);
    await agent().faq.register({ question: 'printer is OFFLINE', answer: 'Restart it.', status: 'off' });
    assert.ok(!(await search({ query: 'Printer is offline' })).result.some((r) => r.id === ids.printerOff), 'off again through register');
    const { id } = await agent().faq.register({ question: 'Short-lived entry', answer: 'x', status: 'on' });
    assert.equal((await search({ query: 'Short-lived entry' })).result[0]?.id, id);
    await agent().faq.delete(id);
    assert.deepEqual((await search({ query: 'Short-lived entry' })).result, []);
  });

  it('orders by effectiveConfidence = clamp(confidence + 0.05 × (pos − neg) / (pos + neg + 1), 0, 1)', async () => {
    const q = 'reset password account';
    const before = await search({ query: q });
    const a = before.result.find((r) => r.id === ids.mailA)!;
    const b = before.result.find((r) => r.id === ids.mailB)!;
    assert.ok(a && b);
    assert.equal(a.confidence, b.confidence, 'same shape of question: same score');
    const second = before.result.indexOf(a) < before.result.indexOf(b) ? b : a;
    const first = second === a ? b : a;
    // One agent and two users like the second; one user dislikes the first.
    await agent('x@example.com').faq.feedback({ query: q, id: second.id, isPositive: true });
    await user('u1').faq.feedback({ query: q, id: second.id, isPositive: true });
    await user('u2').faq.feedback({ query: q, id: second.id, isPositive: true });
    await user('u3').faq.feedback({ query: q, id: second.id, isPositive: false });
    await user('u1').faq.feedback({ query: q, id: first.id, isPositive: false });
    const after = await search({ query: q });
    const [top, next] = after.result;
    assert.equal(top.id, second.id, 'feedback moved it up');
    assert.equal(next.id, first.id);
    assert.ok(Math.abs(top.effectiveConfidence - effective(second.confidence, 3, 1)) < 1e-6, `${top.effectiveConfidence}`);
    assert.ok(Math.abs(next.effectiveConfidence - effective(first.confidence, 0, 1)) < 1e-6, `${next.effectiveConfidence}`);
    assert.equal(top.confidence, second.confidence, 'confidence itself is not changed by feedback');
    assert.deepEqual(top.agentFeedback, { positiveCount: 1, negativeCount: 0 });
    assert.deepEqual(top.userFeedback, { positiveCount: 2, negativeCount: 1 });
  });

  it('clamps effectiveConfidence to [0, 1]', async () => {
    const q = 'VPN client installation';
    await agent('fan@example.com').faq.feedback({ query: q, id: ids.vpn, isPositive: true });
    assert.equal((await search({ query: q })).result[0].effectiveConfidence, 1);
    await agent('fan@example.com').faq.feedback({ query: q, id: ids.vpn, isPositive: false });
    const r = (await search({ query: q })).result[0];
    assert.ok(Math.abs(r.effectiveConfidence - effective(1, 0, 1)) < 1e-6);
    await agent('fan@example.com').faq.feedback({ query: q, id: ids.vpn, isPositive: null });
  });

  it('filters by hashtags with OR (default) and AND', async () => {
    const q = 'reset password account';
    const any = await search({ query: q, hashtags: ['mail', 'chat'] });
    assert.deepEqual(any.result.map((r) => nameOf(r.id)).sort(), ['mailA', 'mailB']);
    assert.deepEqual(
      (await search({ query: q, hashtags: ['#IT', 'mail'], hashtagsOperator: 'AND' })).result.map((r) => nameOf(r.id)),
      ['mailA'],
    );
    assert.deepEqual((await search({ query: q, hashtags: ['it', 'chat'], hashtagsOperator: 'AND' })).result, []);
    assert.deepEqual(
      (await search({ query: q, hashtags: ['chat'], hashtagsOperator: 'OR' })).result.map((r) => nameOf(r.id)),
      ['mailB'],
    );
  });

  it('limits results with maxResults (-1 = no limit) and formats answers', async () => {
    const q = 'reset password account vpn';
    const all = await search({ query: q });
    assert.ok(all.result.length >= 3);
    assert.equal((await search({ query: q, maxResults: -1 })).count, all.count);
    const one = await search({ query: q, maxResults: 1 });
    assert.equal(one.count, 1);
    assert.equal(one.result[0].id, all.result[0].id);
    assert.equal((await search({ query: q, maxResults: 2 })).result.length, 2);
    const text = await search({ query: 'How do I set up the VPN on my laptop?', format: 'text', maxResults: 1 });
    assert.equal(text.result[0].answer, 'Install the client & sign in.');
  });

  it('with maxResults shows the first results of the whole ordered list, near ties and feedback included', async () => {
    // Many Q&As scoring the same or nearly: only the best maxResults are ordered in full (faqService.ts).
    for (let i = 0; i < 24; i++)
      await agent().faq.register({ question: `toner cartridge order ${i % 3 ? 'form' : 'sheet'} ${i}`, answer: 'x', status: 'on' });
    const q = 'toner cartridge order form';
    const whole = (await search({ query: q, maxResults: -1 })).result;
    await user('u9').faq.feedback({ query: q, id: whole[7].id, isPositive: true });
    await user('u9').faq.feedback({ query: q, id: whole[0].id, isPositive: false });
    const all = (await search({ query: q, maxResults: -1 })).result.map((r) => r.id);
    assert.ok(all.length >= 24);
    for (const n of [1, 3, 5, 10])
      assert.deepEqual(
        (await search({ query: q, maxResults: n })).result.map((r) => r.id),
        all.slice(0, n),
      );
  });

  it('gives every search a new hashId', async () => {
    const a = await search({ query: '経費精算の締め日' });
    const b = await search({ query: '経費精算の締め日' });
    assert.notEqual(a.hashId, b.hashId);
  });

  it('records the search with its shown results (the first 100 of a larger list) for history', async () => {
    for (let i = 0; i < 105; i++) await agent().faq.register({ question: `booking meeting room ${i}`, answer: `Room ${i}`, status: 'on' });
    const res = await search({ query: 'booking meeting room' });
    assert.equal(res.count, 105);
    const [history] = (await agent().faq.searchHistory({ limit: 1 })).histories;
    assert.equal(history.id, res.hashId);
    assert.equal(history.question, 'booking meeting room');
    assert.equal(history.agent?.id, 'agent@example.com');
    assert.equal(history.answers.length, 100);
    assert.deepEqual(
      history.answers.slice(0, 3),
      res.result.slice(0, 3).map((r) => ({ faq: { id: r.id }, effectiveConfidence: r.effectiveConfidence, confidence: r.confidence })),
    );
  });

  it('rejects bad searches with 400 naming the field', async () => {
    const cases: Array<[FaqSearchParams, string]> = [
      [{ query: '' }, 'query'],
      [{ query: '   ' }, 'query'],
      [{ query: 'x'.repeat(1001) }, 'query'],
      [{ query: 'vpn', maxResults: 0 }, 'maxResults'],
      [{ query: 'vpn', maxResults: -2 }, 'maxResults'],
      [{ query: 'vpn', maxResults: 1.5 }, 'maxResults'],
      [{ query: 'vpn', format: 'markdown' as never }, 'format'],
      [{ query: 'vpn', hashtagsOperator: 'and' as never }, 'hashtagsOperator'],
      [{ query: 'vpn', autoRegisterCandidates: 'no' as never }, 'autoRegisterCandidates'],
    ];
    for (const [params, field] of cases) {
      await assert.rejects(
        agent().faq.search(params),
        (e: unknown) => e instanceof BadRequestError && e.field === field,
        JSON.stringify(params),
      );
    }
    await assert.rejects(agent().faq.search({} as never), (e: unknown) => e instanceof BadRequestError && e.field === 'query');
    assert.equal((await search({ query: 'x'.repeat(1000) })).count, 0, '1000 characters is allowed');
  });
});
