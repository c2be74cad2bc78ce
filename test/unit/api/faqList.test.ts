import assert from 'node:assert/strict';
import { request } from 'undici';
import { BadRequestError } from '../../../src/api/errors';
import type { FaqFilterParams } from '../../../src/api/resources/faq';
import { startTestService, type TestService } from '../support/localService';

describe('Q&A list and filter (local service)', () => {
  let t: TestService;
  const ids: Record<string, string> = {};
  const agentEmail = 'kenji.tanaka@example.co.jp';
  const agent = () => t.client({ identity: { agentEmail } });
  const anonymous = () => t.client();

  before(async () => {
    t = await startTestService({ fsync: false });
    // Registered in this order, so "most recently updated first" lists them reversed.
    const rows: Array<[string, Parameters<ReturnType<typeof agent>['faq']['register']>[0], boolean]> = [
      ['vpnSetup', { question: 'VPN setup on a laptop', answer: 'Install the client.', status: 'on', hashtags: ['it', 'vpn'] }, true],
      [
        'vpnError',
        { question: 'VPN error 809', answer: 'Check the firewall; then run the <b>setup</b> again.', status: 'on', hashtags: ['it'] },
        false,
      ],
      ['expense', { question: '経費精算の締め日はいつですか', answer: '毎月25日です。', status: 'on', hashtags: ['経理'] }, true],
      [
        'expenseHow',
        { question: '経費の精算方法', answer: 'ワークフローから申請します。', status: 'off', hashtags: ['経理', 'how-to'] },
        false,
      ],
      [
        'printer',
        { question: 'Printer is offline', answer: 'Restart it.', status: 'off', similarQuestions: ['ＰＲＩＮＴＥＲ not found'] },
        false,
      ],
      ['leave', { question: '有給休暇の申請', answer: '人事システムから申請', status: 'on', hashtags: ['hr'] }, true],
    ];
    for (const [key, body, byAgent] of rows) ids[key] = (await (byAgent ? agent() : anonymous()).faq.register(body)).id;
    // Edited by an agent after registration (not created by one).
    await agent().faq.update({ id: ids.printer, answer: 'Restart it, then check the cable.' });
  });
  after(() => t.stop());

  const names = (results: Array<{ id: string }>): string[] => results.map((r) => Object.keys(ids).find((k) => ids[k] === r.id) ?? r.id);
  const filter = async (params: FaqFilterParams): Promise<string[]> => names((await anonymous().faq.filter(params)).results);

  it('lists everything most recently updated first, with list-item fields only', async () => {
    const page = await anonymous().faq.list();
    assert.equal(page.offset, 0);
    assert.equal(page.total_count, 6);
    assert.equal(page.count, 6);
    assert.deepEqual(names(page.results), ['printer', 'leave', 'expenseHow', 'expense', 'vpnError', 'vpnSetup']);
    const res = await request(`${t.service.url}/webapi/faqs?limit=1`, { headers: { 'API-KEY': t.service.apiKey } });
    const json = (await res.body.json()) as { results: Array<Record<string, unknown>> };
    assert.deepEqual(Object.keys(json).sort(), ['count', 'offset', 'results', 'total_count']);
    assert.deepEqual(Object.keys(json.results[0]).sort(), [
      'agentFeedback',
      'answer',
      'createdDate',
      'hashtags',
      'id',
      'lastUpdatedDate',
      'question',
      'userFeedback',
    ]);
  });

  it('pages with offset and limit; total_count stays the total', async () => {
    const all = names((await anonymous().faq.list()).results);
    const p1 = await anonymous().faq.list({ offset: 0, limit: 4 });
    const p2 = await anonymous().faq.list({ offset: 4, limit: 4 });
    assert.deepEqual([p1.count, p1.total_count, p2.offset, p2.count, p2.total_count], [4, 6, 4, 2, 6]);
    assert.deepEqual([...names(p1.results), ...names(p2.results)], all);
    const beyond = await anonymous().faq.list({ offset: 50 });
    assert.deepEqual([beyond.count, beyond.total_count, beyond.results.length], [0, 6, 0]);
    const f = await anonymous().faq.filter({ isUsed: true, offset: 1, limit: 2 });
    assert.deepEqual([f.offset, f.count, f.total_count], [1, 2, 4]);
    assert.deepEqual(names(f.results), ['expense', 'vpnError']);
  });

  it('rejects limit over 1000, limit 0, a negative offset and non-numbers with 400 naming the parameter', async () => {
    for (const [params, field] of [
      [{ limit: 1001 }, 'limit'],
      [{ limit: 0 }, 'limit'],
      [{ offset: -1 }, 'offset'],
      [{ limit: 'ten' as never }, 'limit'],
    ] as const) {
      await assert.rejects(anonymous().faq.list(params), (e: unknown) => e instanceof BadRequestError && e.field === field);
      await assert.rejects(anonymous().faq.filter(params), (e: unknown) => e instanceof BadRequestError && e.field === field);
    }
    assert.equal((await anonymous().faq.list({ limit: 1000 })).count, 6);
    await assert.rejects(
      anonymous().faq.filter({ hashtagsOperator: 'AND' as never }),
      (e: unknown) => e instanceof BadRequestError && e.field === 'hashtagsOperator',
    );
    await assert.rejects(
      anonymous().faq.filter({ isUsed: 'yes' as never }),
      (e: unknown) => e instanceof BadRequestError && e.field === 'isUsed',
    );
  });

  it('searchTerm: a single term is a substring match over question, similar questions and answer text', async () => {
    assert.deepEqual(await filter({ searchTerm: 'vpn' }), ['vpnError', 'vpnSetup']);
    assert.deepEqual(await filter({ searchTerm: '精算' }), ['expenseHow', 'expense']);
    assert.deepEqual(await filter({ searchTerm: 'printer not' }), ['printer'], 'matched in a full-width similar question after NFKC');
    assert.deepEqual(await filter({ searchTerm: 'firewall' }), ['vpnError'], 'answer text');
    assert.deepEqual(await filter({ searchTerm: '<b>' }), [], 'tags are not text');
    assert.deepEqual(await filter({ searchTerm: 'ＶＰＮ' }), ['vpnError', 'vpnSetup'], 'full-width term');
    assert.deepEqual(await filter({ searchTerm: 'zzz' }), []);
    assert.equal((await filter({ searchTerm: '   ' })).length, 6, 'blank: no condition');
  });

  it('searchTerm: spaces mean AND, the word OR separates alternatives', async () => {
    assert.deepEqual(await filter({ searchTerm: 'vpn setup' }), ['vpnError', 'vpnSetup'], 'vpnError has "setup" in its answer');
    assert.deepEqual(await filter({ searchTerm: 'vpn laptop' }), ['vpnSetup']);
    assert.deepEqual(await filter({ searchTerm: 'vpn laptop OR 経費 精算' }), ['expenseHow', 'expense', 'vpnSetup']);
    assert.deepEqual(await filter({ searchTerm: 'printer OR 有給' }), ['printer', 'leave']);
    assert.deepEqual(await filter({ searchTerm: 'vpn　laptop' }), ['vpnSetup'], 'an ideographic space separates terms too');
    assert.deepEqual(await filter({ searchTerm: 'vpn or laptop' }), [], 'lower-case "or" is a term, not the operator');
    assert.deepEqual(await filter({ searchTerm: '"error 809"' }), ['vpnError'], 'a quoted phrase is one term');
  });

  it('isUsed lists only turned-on (true) or turned-off (false) Q&As', async () => {
    assert.deepEqual(await filter({ isUsed: true }), ['leave', 'expense', 'vpnError', 'vpnSetup']);
    assert.deepEqual(await filter({ isUsed: false }), ['printer', 'expenseHow']);
    assert.deepEqual(await filter({ isUsed: false, searchTerm: '精算' }), ['expenseHow']);
  });

  it('hashtags with or (default) and and', async () => {
    assert.deepEqual(await filter({ hashtags: ['vpn', 'hr'] }), ['leave', 'vpnSetup']);
    assert.deepEqual(await filter({ hashtags: ['vpn', 'hr'], hashtagsOperator: 'or' }), ['leave', 'vpnSetup']);
    assert.deepEqual(await filter({ hashtags: ['it', 'vpn'], hashtagsOperator: 'and' }), ['vpnSetup']);
    assert.deepEqual(await filter({ hashtags: ['#IT'] }), ['vpnError', 'vpnSetup'], '# and case ignored');
    assert.deepEqual(await filter({ hashtags: ['経理', 'how-to'], hashtagsOperator: 'and' }), ['expenseHow']);
    assert.deepEqual(await filter({ hashtags: ['none'] }), []);
  });

  it('origin flags: each true/false alone, and OR between two or more', async () => {
    assert.deepEqual(await filter({ createdByAgent: true }), ['leave', 'expense', 'vpnSetup']);
    assert.deepEqual(await filter({ createdByAgent: false }), ['printer', 'expenseHow', 'vpnError']);
    assert.deepEqual(await filter({ editedByAgent: true }), ['printer']);
    assert.deepEqual(await filter({ answeredByMrc: true }), [], 'no answers are extracted from documents locally');
    assert.deepEqual(await filter({ autoGenerated: true }), []);
    assert.equal((await filter({ autoGenerated: false })).length, 6);
    assert.deepEqual(await filter({ createdByAgent: true, editedByAgent: true }), ['printer', 'leave', 'expense', 'vpnSetup']);
    assert.deepEqual(await filter({ autoGenerated: true, editedByAgent: true }), ['printer']);
    assert.deepEqual(
      await filter({ createdByAgent: true, editedByAgent: true, isUsed: false }),
      ['printer'],
      'other filters still apply (AND)',
    );
  });

  it('formats answers as text on request in filter', async () => {
    const page = await anonymous().faq.filter({ searchTerm: 'firewall', format: 'text' });
    assert.equal(page.results[0].answer, 'Check the firewall; then run the setup again.');
  });
});
