import assert from 'node:assert/strict';
import { request } from 'undici';
import { BadRequestError, NotFoundError } from '../../../src/api/errors';
import type { Identity } from '../../../src/api/identity';
import { startTestService, type TestService } from '../support/localService';

describe('Q&A feedback and feedback history (local service)', () => {
  let t: TestService;
  let vpn = '';
  let leave = '';
  const as = (identity: Identity) => t.client({ identity });
  const sato = { agentEmail: 'sato@example.co.jp' };
  const suzuki = { agentEmail: 'suzuki@example.co.jp' };

  before(async () => {
    t = await startTestService({ fsync: false });
    vpn = (await as(sato).faq.register({ question: 'VPN setup', answer: 'Install the client.', status: 'on' })).id;
    leave = (await as(sato).faq.register({ question: '有給休暇の申請', answer: '人事システムから', status: 'on' })).id;
  });
  after(() => t.stop());

  const counts = async (id: string) => {
    const d = await t.client().faq.get(id);
    return { agent: d.agentFeedback, user: d.userFeedback };
  };

  it('counts a vote as agent feedback when AGENT-EMAIL is sent, with the documented body', async () => {
    const res = await request(`${t.service.url}/webapi/faq_feedback`, {
      method: 'POST',
      headers: { 'API-KEY': t.service.apiKey, 'content-type': 'application/json', 'AGENT-EMAIL': sato.agentEmail },
      body: JSON.stringify({ query: 'vpn', id: vpn, isPositive: true }),
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(await res.body.json(), {
      result: { faqTrainSearchResult: { faq: { id: vpn }, agentFeedback: { positiveCount: 1, negativeCount: 0 } } },
      errors: {},
    });
    assert.deepEqual(await counts(vpn), { agent: { positiveCount: 1, negativeCount: 0 }, user: { positiveCount: 0, negativeCount: 0 } });
  });

  it('counts user feedback by OWN-USER-ID, then USER-EMAIL, else an anonymous user', async () => {
    await as({ ownUserId: 'user-1' }).faq.feedback({ query: 'vpn', id: vpn, isPositive: false });
    await as({ ownUserId: '山田' }).faq.feedback({ query: 'vpn', id: vpn, isPositive: true }); // sent base64-encoded
    await as({ userEmail: 'guest@example.com' }).faq.feedback({ query: 'vpn', id: vpn, isPositive: true });
    await as({}).faq.feedback({ query: 'vpn', id: vpn, isPositive: true });
    const res = await as({ ownUserId: 'user-2' }).faq.feedback({ query: 'vpn', id: vpn, isPositive: true });
    assert.deepEqual(
      res.result?.faqTrainSearchResult?.agentFeedback,
      { positiveCount: 1, negativeCount: 0 },
      'agent counts unchanged by users',
    );
    assert.deepEqual(await counts(vpn), { agent: { positiveCount: 1, negativeCount: 0 }, user: { positiveCount: 4, negativeCount: 1 } });
  });

  it('keeps one current vote per voter: a new vote replaces it, null cancels it', async () => {
    await as(suzuki).faq.feedback({ query: '休暇', id: leave, isPositive: true });
    await as(suzuki).faq.feedback({ query: '休暇', id: leave, isPositive: true });
    assert.deepEqual((await counts(leave)).agent, { positiveCount: 1, negativeCount: 0 }, 'the same vote twice counts once');
    await as(suzuki).faq.feedback({ query: '休暇 申請', id: leave, isPositive: false });
    assert.deepEqual((await counts(leave)).agent, { positiveCount: 0, negativeCount: 1 }, 'replaced');
    const cancelled = await as(suzuki).faq.feedback({ query: '休暇', id: leave, isPositive: null });
    assert.deepEqual(cancelled.result?.faqTrainSearchResult?.agentFeedback, { positiveCount: 0, negativeCount: 0 });
    await as(suzuki).faq.feedback({ query: '休暇', id: leave, isPositive: null });
    assert.deepEqual((await counts(leave)).agent, { positiveCount: 0, negativeCount: 0 }, 'cancelling nothing is harmless');
    // Agent emails are compared without case; users by their exact id.
    await as({ agentEmail: 'SATO@example.co.jp' }).faq.feedback({ query: 'vpn', id: vpn, isPositive: false });
    assert.deepEqual((await counts(vpn)).agent, { positiveCount: 0, negativeCount: 1 });
    await as(sato).faq.feedback({ query: 'vpn', id: vpn, isPositive: true });
  });

  it('rejects feedback on an unknown Q&A (404) and malformed bodies (400)', async () => {
    await assert.rejects(
      as(sato).faq.feedback({ query: 'q', id: 'nope', isPositive: true }),
      (e: unknown) => e instanceof NotFoundError && /Q&A not found: nope/.test(e.message),
    );
    await assert.rejects(
      as(sato).faq.feedback({ query: 'q', id: vpn } as never),
      (e: unknown) => e instanceof BadRequestError && e.field === 'isPositive',
    );
    await assert.rejects(
      as(sato).faq.feedback({ query: 'q', id: vpn, isPositive: 'yes' } as never),
      (e: unknown) => e instanceof BadRequestError && e.field === 'isPositive',
    );
    await assert.rejects(
      as(sato).faq.feedback({ id: vpn, isPositive: true } as never),
      (e: unknown) => e instanceof BadRequestError && e.field === 'query',
    );
    await assert.rejects(
      as(sato).faq.feedback({ query: 'q', id: '', isPositive: true }),
      (e: unknown) => e instanceof BadRequestError && e.field === 'id',
    );
  });

  it('lists current votes grouped by query, latest first, with who voted', async () => {
    await as({ ownUserId: 'user-9' }).faq.feedback({ query: 'latest query', id: leave, isPositive: true });
    const all = await t.client().faq.feedbackHistory();
    assert.equal(all.count, all.result.length);
    assert.deepEqual(
      all.result.map((g) => g.query),
      ['latest query', 'vpn'],
    );
    const [latest, vpnGroup] = all.result;
    assert.deepEqual(
      latest.feedbacks.map((f) => ({ ...f, createdAt: typeof f.createdAt })),
      [{ faqId: leave, question: '有給休暇の申請', isPositive: true, createdAt: 'number', ownUserId: 'user-9' }],
    );
    assert.equal(vpnGroup.feedbacks.length, 6, 'sato, user-1, 山田, guest, anonymous, user-2');
    assert.deepEqual(
      vpnGroup.feedbacks[0],
      { ...vpnGroup.feedbacks[0], faqId: vpn, question: 'VPN setup', isPositive: true, agentEmail: sato.agentEmail },
      'sato voted last',
    );
    assert.ok(vpnGroup.feedbacks.some((f) => f.ownUserId === '山田'));
    const times = vpnGroup.feedbacks.map((f) => f.createdAt as number);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
  });

  it('filters the history by AGENT-EMAIL or OWN-USER-ID', async () => {
    const bySato = await as(sato).faq.feedbackHistory();
    assert.deepEqual(
      bySato.result.map((g) => [g.query, g.feedbacks.length]),
      [['vpn', 1]],
    );
    assert.equal(bySato.result[0].feedbacks[0].agentEmail, sato.agentEmail);
    const byUser = await as({ ownUserId: 'user-1' }).faq.feedbackHistory();
    assert.deepEqual(
      byUser.result.map((g) => g.feedbacks.map((f) => [f.ownUserId, f.isPositive])),
      [[['user-1', false]]],
    );
    assert.equal((await as(suzuki).faq.feedbackHistory()).count, 0, 'suzuki cancelled his vote');
    assert.equal((await as({ ownUserId: 'nobody' }).faq.feedbackHistory()).result.length, 0);
  });

  it('pages the history (limit at most 100) and forgets the votes of a deleted Q&A', async () => {
    const page = await t.client().faq.feedbackHistory({ offset: 1, limit: 1 });
    assert.deepEqual([page.count, page.result.length, page.result[0].query], [2, 1, 'vpn']);
    for (const [params, field] of [
      [{ limit: 101 }, 'limit'],
      [{ limit: 0 }, 'limit'],
      [{ offset: -1 }, 'offset'],
    ] as const) {
      await assert.rejects(t.client().faq.feedbackHistory(params), (e: unknown) => e instanceof BadRequestError && e.field === field);
    }
    assert.equal((await t.client().faq.feedbackHistory({ limit: 100 })).count, 2);
    await as(sato).faq.delete(leave);
    const after = await t.client().faq.feedbackHistory();
    assert.deepEqual(
      after.result.map((g) => g.query),
      ['vpn'],
    );
  });
});
