import assert from 'node:assert/strict';
import { request } from 'undici';
import { BadRequestError, NotFoundError } from '../../../src/api/errors';
import type { CandidateParams } from '../../../src/api/resources/faq';
import { startTestService, type TestService } from '../support/localService';

describe('Q&A candidates and select answer (local service)', () => {
  let t: TestService;
  let vpn = '';
  const c = () => t.client({ identity: { agentEmail: 'ops@example.com' } });
  const list = async (params: CandidateParams = {}) => (await c().faq.candidates(params)).faqCandidates;
  const questions = async (params: CandidateParams = {}) => (await list(params)).map((x) => x.questions[0].question);

  before(async () => {
    t = await startTestService({ fsync: false });
    vpn = (await c().faq.register({ question: 'How do I set up the VPN?', answer: 'Install the client.', status: 'on' })).id;
  });
  after(() => t.stop());

  it('registers a query whose best confidence is below 0.5 as a candidate, with the documented shape', async () => {
    const search = await c().faq.search({ query: 'How can I book a meeting room?' });
    assert.ok(
      search.result.every((r) => r.confidence < 0.5),
      'only weak matches ("how", "I")',
    );
    const res = await request(`${t.service.url}/webapi/faq_candidates`, { headers: { 'API-KEY': t.service.apiKey } });
    const json = (await res.body.json()) as any;
    assert.deepEqual(Object.keys(json), ['result', 'errors']);
    assert.deepEqual(json.errors, {});
    assert.equal(json.result.count, 1);
    const [cand] = json.result.faqCandidates;
    assert.deepEqual(Object.keys(cand).sort(), ['createdAt', 'frequency', 'id', 'questions', 'state', 'textAnswer']);
    assert.equal(cand.frequency, 1);
    assert.equal(cand.state, 'ACTIVE');
    assert.equal(cand.textAnswer, '');
    assert.ok(Math.abs(cand.createdAt - Date.now()) < 60_000, 'epoch milliseconds');
    assert.equal(cand.questions.length, 1);
    assert.deepEqual(
      { ...cand.questions[0], id: typeof cand.questions[0].id },
      { id: 'string', question: 'How can I book a meeting room?', frequency: 1, history: { id: search.hashId } },
    );
  });

  it('does not register a well-answered query, nor any query when autoRegisterCandidates is false', async () => {
    const good = await c().faq.search({ query: 'How do I set up the VPN?' });
    assert.equal(good.result[0].confidence, 1);
    await c().faq.search({ query: 'Where is the parking lot?', autoRegisterCandidates: false });
    assert.deepEqual(await questions(), ['How can I book a meeting room?']);
  });

  it('counts the same query (normalised) again instead of adding a candidate', async () => {
    await c().faq.search({ query: 'how can i book a MEETING room?' });
    const third = await c().faq.search({ query: '  How can I book a meeting room?  ' });
    const [cand] = await list();
    assert.equal((await list()).length, 1);
    assert.equal(cand.frequency, 3);
    assert.deepEqual(
      cand.questions.map((q) => [q.question, q.frequency]),
      [
        ['How can I book a meeting room?', 2],
        ['how can i book a MEETING room?', 1],
      ],
      'each spelling counted',
    );
    assert.equal(cand.questions[0].history?.id, third.hashId, 'the latest search asking it');
  });

  it('registers the query of a search when select answer has no id', async () => {
    const s = await c().faq.search({ query: 'How do I set up the VPN?' });
    assert.deepEqual(await c().faq.selectAnswer({ hashId: s.hashId }), { result: 'Success' });
    const cand = (await list()).find((x) => x.questions[0].question === 'How do I set up the VPN?');
    assert.equal(cand?.frequency, 1);
    assert.equal(cand?.questions[0].history?.id, s.hashId);
  });

  it('records a selected answer; an unknown hashId or Q&A id is 404', async () => {
    const s = await c().faq.search({ query: 'how do i set up the vpn' });
    assert.equal(s.result[0].id, vpn);
    assert.deepEqual(await c().faq.selectAnswer({ hashId: s.hashId, id: vpn }), { result: 'Success' });
    assert.deepEqual(await c().faq.selectAnswer({ hashId: s.hashId, id: vpn }), { result: 'Success' }, 'selecting twice is fine');
    await assert.rejects(
      c().faq.selectAnswer({ hashId: 'f'.repeat(32), id: vpn }),
      (e: unknown) => e instanceof NotFoundError && e.status === 404,
    );
    await assert.rejects(
      c().faq.selectAnswer({ hashId: s.hashId, id: 'no-such-qa' }),
      (e: unknown) => e instanceof NotFoundError && /Q&A not found: no-such-qa/.test(e.message),
    );
    await assert.rejects(c().faq.selectAnswer({ id: vpn } as never), (e: unknown) => e instanceof BadRequestError && e.field === 'hashId');
  });

  it('adds candidates directly; each query creates or counts one', async () => {
    const added = await c().faq.addCandidates(['経費精算の締め日は？', 'How can I book a meeting room?', '経費精算の締め日は？']);
    assert.equal(added.length, 3);
    assert.equal(added[0].id, added[2].id);
    const byQuestion = new Map((await list({ status: 'ALL' })).map((x) => [x.questions[0].question, x]));
    assert.equal(byQuestion.get('経費精算の締め日は？')?.frequency, 2);
    assert.equal(byQuestion.get('経費精算の締め日は？')?.questions[0].history, null, 'no search behind it');
    assert.equal(byQuestion.get('How can I book a meeting room?')?.frequency, 4);
    assert.equal(byQuestion.get('How can I book a meeting room?')?.id, added[1].id);
    for (const queries of [[], [''], ['x'.repeat(1001)], 'q' as never]) {
      await assert.rejects(
        c().faq.addCandidates(queries),
        (e: unknown) => e instanceof BadRequestError && e.field === 'queries',
        JSON.stringify(queries),
      );
    }
  });

  it('orders by frequency or creation time, ascending or descending', async () => {
    await c().faq.addCandidates(['Newest question ever']);
    // Equal frequencies: the newer first when descending, the older first when ascending.
    assert.deepEqual(await questions(), [
      'How can I book a meeting room?',
      '経費精算の締め日は？',
      'Newest question ever',
      'How do I set up the VPN?',
    ]);
    assert.deepEqual(await questions({ order: 'FREQUENCY_DESC' }), await questions());
    assert.deepEqual(await questions({ order: 'FREQUENCY_ASC' }), [
      'How do I set up the VPN?',
      'Newest question ever',
      '経費精算の締め日は？',
      'How can I book a meeting room?',
    ]);
    assert.deepEqual(await questions({ order: 'CREATED_AT_ASC' }), [
      'How can I book a meeting room?',
      'How do I set up the VPN?',
      '経費精算の締め日は？',
      'Newest question ever',
    ]);
    assert.deepEqual(await questions({ order: 'CREATED_AT_DESC' }), [
      'Newest question ever',
      '経費精算の締め日は？',
      'How do I set up the VPN?',
      'How can I book a meeting room?',
    ]);
  });

  it('archives a candidate when a Q&A with that question is registered; status filters ACTIVE (default), ARCHIVED, ALL', async () => {
    await c().faq.register({ question: 'how can I book a meeting room?', answer: 'Use the room calendar.', status: 'on' });
    assert.ok(!(await questions()).includes('How can I book a meeting room?'));
    const archived = await list({ status: 'ARCHIVED' });
    assert.deepEqual(
      archived.map((x) => [x.questions[0].question, x.state]),
      [['How can I book a meeting room?', 'ARCHIVED']],
    );
    assert.equal((await list({ status: 'ALL' })).length, 4);
    assert.equal((await c().faq.candidates({ status: 'ALL' })).count, 4);
    assert.equal((await c().faq.candidates({ status: 'ACTIVE' })).count, 3);
    // An update of the questions archives every candidate they now answer (its question and similar questions).
    await c().faq.update({ id: vpn, similar_questions: ['Newest question ever'] });
    assert.deepEqual((await list({ status: 'ARCHIVED' })).map((x) => x.questions[0].question).sort(), [
      'How can I book a meeting room?',
      'How do I set up the VPN?',
      'Newest question ever',
    ]);
  });

  it('reactivates an archived candidate asked again without a good answer', async () => {
    await c().faq.register({ question: 'how can I book a meeting room?', answer: 'Use the room calendar.', status: 'off' });
    await c().faq.search({ query: 'How can I book a meeting room?' });
    const cand = (await list()).find((x) => x.questions[0].question === 'How can I book a meeting room?');
    assert.equal(cand?.state, 'ACTIVE');
    assert.equal(cand?.frequency, 5);
  });

  it('filters by searchTerm (filter grammar) and by the hashtags of the asking searches', async () => {
    await c().faq.search({ query: 'Printer toner replacement', hashtags: ['office'] });
    await c().faq.search({ query: 'Printer paper jam', hashtags: ['#Office', 'it'] });
    assert.deepEqual(await questions({ searchTerm: 'printer', status: 'ALL' }), ['Printer paper jam', 'Printer toner replacement']);
    assert.deepEqual(await questions({ searchTerm: 'printer jam', status: 'ALL' }), ['Printer paper jam']);
    assert.deepEqual((await questions({ searchTerm: 'toner OR 経費', status: 'ALL' })).sort(), [
      'Printer toner replacement',
      '経費精算の締め日は？',
    ]);
    assert.deepEqual(await questions({ hashtags: ['it'] }), ['Printer paper jam']);
    assert.deepEqual(await questions({ hashtags: ['office', 'it'] }), ['Printer paper jam', 'Printer toner replacement']);
    assert.deepEqual(await questions({ hashtags: ['none'] }), []);
  });

  it('pages with offset and limit (at most 100) and rejects unknown order or status', async () => {
    const all = await c().faq.candidates({ status: 'ALL' });
    const page = await c().faq.candidates({ status: 'ALL', offset: 1, limit: 2 });
    assert.equal(page.count, all.count);
    assert.deepEqual(
      page.faqCandidates.map((x) => x.id),
      all.faqCandidates.slice(1, 3).map((x) => x.id),
    );
    assert.equal((await c().faq.candidates({ limit: 100 })).faqCandidates.length, (await list()).length);
    const bad: Array<[CandidateParams, string]> = [
      [{ limit: 101 }, 'limit'],
      [{ offset: -1 }, 'offset'],
      [{ order: 'NAME_ASC' as never }, 'order'],
      [{ status: 'DONE' as never }, 'status'],
    ];
    for (const [params, field] of bad)
      await assert.rejects(c().faq.candidates(params), (e: unknown) => e instanceof BadRequestError && e.field === field);
  });
});
