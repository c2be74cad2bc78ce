import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';
import { BadRequestError } from '../../../src/api/errors';
import type { RetrievalRequest } from '../../../src/api/resources/answers';
import type { RetrievalItem } from '../../../src/api/schemas/answers';
import { FIXTURES, idsByName, startSeeded, text } from '../../fixtures/retrieval/seededService';
import type { TestService } from '../support/localService';

async function zipOf(files: string[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addBuffer(readFileSync(path.join(FIXTURES, f)), f);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('Retrieval (POST /webapi/retrieval) on the seeded samples', () => {
  let t: TestService;
  let ids: Record<string, string>;
  const client = () => t.client();
  const retrieve = (request: RetrievalRequest, identity?: { ownUserId?: string; userEmail?: string }) =>
    t.client(identity ? { identity } : {}).answers.retrieve(request);
  const kbIds = (items: RetrievalItem[]) => items.map((i) => i.kb_id);
  const upload = async (name: string, body: string, extra: Record<string, unknown> = {}): Promise<string> => {
    const [node] = await client().kbNodes.upload({ file: text(body), fileName: name, ...extra });
    return node.id;
  };

  before(async () => {
    t = await startSeeded();
    ids = await idsByName(client());
  });
  after(() => t.stop());

  const firstHits: Array<[question: string, document: string, pageNo: number]> = [
    ['How many days of paid leave do new employees get in their first year?', 'employee-handbook.pdf', 1],
    ['How many days per week can employees work remotely?', 'employee-handbook.pdf', 2],
    ['When must client dinners and office supplies be submitted in the finance portal?', 'employee-handbook.pdf', 3],
    ['休憩時間は何時から何時までですか', '就業規則.pdf', 1],
    ['副業を始めるときはいつまでに人事部へ届け出ますか', '就業規則.pdf', 2],
    ['Which laptop is assigned to Daniel Kim?', 'asset-inventory.xlsx', 1],
    ['How many Adobe Acrobat Pro seats are used?', 'asset-inventory.xlsx', 2],
    ['When does the old portal address stop working?', 'release-notes.html', 1],
    ['What is the VPN server address and port?', 'vpn-setup.docx', 1],
    ['Who answers payroll questions?', 'faq-overview.md', 1],
    ['出張の宿泊費の上限はいくらですか', '経費精算ガイド.md', 1],
  ];
  for (const [question, document, pageNo] of firstHits) {
    it(`finds ${document} p.${pageNo} first for "${question}"`, async () => {
      const result = await retrieve({ question });
      assert.equal(result.length, 3, 'maxDocumentClues defaults to 3');
      assert.deepEqual(
        result.map((r) => r.ranking),
        [1, 2, 3],
      );
      assert.equal(result[0].title, document);
      assert.equal(result[0].kb_id, ids[document]);
      assert.equal(result[0].pageNo, pageNo);
      assert.ok(result[0].text.length > 50, 'the passage text is returned');
    });
  }

  it('weights: BM25 alone needs the exact word, the lexical vectors alone match word pieces', async () => {
    const bm25Only = await retrieve({
      question: 'reimbursing',
      bm25_score_weight: 9,
      text_vector_score_weight: 0,
      title_vector_score_weight: 0,
    });
    assert.deepEqual(bm25Only, [], 'no passage has the token "reimbursing"');
    const vectorsOnly = await retrieve({ question: 'reimbursing', bm25_score_weight: 0, text_vector_score_weight: 9 });
    assert.equal(vectorsOnly[0]?.kb_id, ids['employee-handbook.pdf']);
    assert.equal(vectorsOnly[0]?.pageNo, 3, '"reimbursed" is on page 3');
    const titleOnly = await retrieve({
      question: 'asset inventory',
      bm25_score_weight: 0,
      text_vector_score_weight: 0,
      title_vector_score_weight: 9,
    });
    assert.equal(titleOnly[0]?.kb_id, ids['asset-inventory.xlsx']);
  });

  it('rejects all-zero and out-of-range weights and bounds with 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ bm25_score_weight: 0, text_vector_score_weight: 0, title_vector_score_weight: 0 }, 'bm25_score_weight'],
      [{ bm25_score_weight: 10 }, 'bm25_score_weight'],
      [{ text_vector_score_weight: -1 }, 'text_vector_score_weight'],
      [{ title_vector_score_weight: 9.5 }, 'title_vector_score_weight'],
      [{ maxDocumentClues: 0 }, 'maxDocumentClues'],
      [{ maxDocumentClues: 51 }, 'maxDocumentClues'],
      [{ reranker_candidates_num: 101, use_reranker: true }, 'reranker_candidates_num'],
      [{ reranker_max_tokens: 8 }, 'reranker_max_tokens'],
      [{ question: '' }, 'question'],
      [{ question: 'x'.repeat(2001) }, 'question'],
    ];
    for (const [body, field] of cases) {
      await assert.rejects(
        retrieve({ question: 'paid leave', ...body } as RetrievalRequest),
        (e: unknown) => e instanceof BadRequestError && e.field === field,
        JSON.stringify(body),
      );
    }
    assert.equal(
      (await retrieve({ question: 'paid leave', bm25_score_weight: 0, text_vector_score_weight: 9 })).length,
      3,
      'one weight above 0 is enough',
    );
  });

  it('bounds the number of results with maxDocumentClues and returns one result per (document, page)', async () => {
    assert.equal((await retrieve({ question: 'leave', maxDocumentClues: 1 })).length, 1);
    const many = await retrieve({ question: 'leave employees days', maxDocumentClues: 50 });
    assert.ok(many.length > 3 && many.length <= 50, `${many.length} results`);
    const pages = new Set(many.map((r) => `${r.kb_id}#${r.pageNo}`));
    assert.equal(pages.size, many.length, 'no page twice');
    // A one-page document with a lighthouse in every paragraph: several passages, one result.
    const para = (i: number) =>
      `Lighthouse note ${i}: the lighthouse keeper checks the lamp, the lens and the lighthouse stairs every evening before sunset, and writes the lighthouse log.`;
    const id = await upload('lighthouse.txt', Array.from({ length: 14 }, (_, i) => para(i)).join('\n\n'));
    await t.service.processingIdle();
    const hits = await retrieve({ question: 'lighthouse keeper', maxDocumentClues: 10 });
    assert.equal(hits.filter((r) => r.kb_id === id).length, 1, 'one result for the page');
    assert.equal(hits[0].kb_id, id);
    assert.ok(hits[0].text.length <= 900, 'a passage, not the whole page');
  });

  it('filters by hashtags (include and/or, exclude and/or)', async () => {
    const a = await upload('badge-a.txt', 'Badge policy A: visitor badges are returned at reception before leaving.', {
      hashtags: ['hr', 'policy'],
    });
    const b = await upload('badge-b.txt', 'Badge policy B: lost badges are reported to security within one day.', { hashtags: ['hr'] });
    const c = await upload('badge-c.txt', 'Badge policy C: badge readers are checked by facilities every month.', { hashtags: ['it'] });
    await t.service.processingIdle();
    const badges = async (request: Partial<RetrievalRequest>) =>
      new Set(
        kbIds(await retrieve({ question: 'badge policy badges', maxDocumentClues: 20, ...request })).filter((id) => [a, b, c].includes(id)),
      );
    assert.deepEqual(await badges({}), new Set([a, b, c]));
    assert.deepEqual(await badges({ hashtags: ['hr'] }), new Set([a, b]));
    assert.deepEqual(await badges({ hashtags: ['#HR', 'policy'], hashtags_operator: 'and' }), new Set([a]));
    assert.deepEqual(await badges({ hashtags: ['policy', 'it'], hashtags_operator: 'or' }), new Set([a, c]));
    assert.deepEqual(await badges({ exclude_hashtags: ['policy'] }), new Set([b, c]));
    assert.deepEqual(await badges({ exclude_hashtags: ['hr', 'policy'], exclude_hashtags_operator: 'and' }), new Set([b, c]));
    assert.deepEqual(await badges({ exclude_hashtags: ['hr', 'it'], exclude_hashtags_operator: 'or' }), new Set());
    const onlyTagged = await retrieve({ question: 'badge policy', hashtags: ['hr'], maxDocumentClues: 20 });
    assert.ok(
      onlyTagged.every((r) => [a, b].includes(r.kb_id)),
      'documents without the hashtag are left out',
    );
  });

  it('limits to targetFolders (by name), folderIds (subtrees) and knowledgeBaseIds, OR-ed together', async () => {
    const itDocs = new Set([ids['vpn-setup.docx'], ids['release-notes.html'], ids['asset-inventory.xlsx']]);
    const byName = await retrieve({ question: 'VPN laptop portal', targetFolders: ['IT'], maxDocumentClues: 10 });
    assert.ok(byName.length >= 3 && byName.every((r) => itDocs.has(r.kb_id)), JSON.stringify(kbIds(byName)));
    const byFolder = await retrieve({ question: 'paid leave VPN', folderIds: [ids.Handbook], maxDocumentClues: 10 });
    assert.ok(byFolder.length > 0 && byFolder.every((r) => [ids['employee-handbook.pdf'], ids['就業規則.pdf']].includes(r.kb_id)));
    const byDoc = await retrieve({ question: 'paid leave VPN', knowledgeBaseIds: [ids['vpn-setup.docx']], maxDocumentClues: 10 });
    assert.deepEqual([...new Set(kbIds(byDoc))], [ids['vpn-setup.docx']]);
    const both = await retrieve({
      question: 'VPN 宿泊費',
      folderIds: [ids['経費']],
      knowledgeBaseIds: [ids['vpn-setup.docx']],
      maxDocumentClues: 10,
    });
    assert.deepEqual(new Set(kbIds(both)), new Set([ids['vpn-setup.docx'], ids['経費精算ガイド.md']]));
  });

  it('searches personal documents only for their owner, with enablePersonalFolderSearch and an identity', async () => {
    const own = await upload('kestrel.txt', 'Project Kestrel launches in October; the kickoff is in room 4B.', {
      accessUserFilters: [{ variableName: 'CUSTOMER_ID', value: 'user-7' }],
    });
    const mail = await upload('osprey.txt', 'Project Osprey launches in November; the kickoff is in room 5C.', {
      accessUserFilters: [{ variableName: 'CUSTOMER_ID', value: 'kim@example.com' }],
    });
    await t.service.processingIdle();
    const q = { question: 'project Kestrel Osprey launch kickoff room', maxDocumentClues: 20 };
    const personal = { enablePersonalFolderSearch: true, personalDocumentIds: [own, mail] };
    const found = async (request: RetrievalRequest, identity?: { ownUserId?: string; userEmail?: string }) =>
      kbIds(await retrieve(request, identity)).filter((id) => id === own || id === mail);
    assert.deepEqual(await found(q), [], 'not searched by default');
    assert.deepEqual(
      await found({ ...q, personalDocumentIds: [own, mail] }, { ownUserId: 'user-7' }),
      [],
      'not without enablePersonalFolderSearch',
    );
    assert.deepEqual(await found({ ...q, ...personal }), [], 'not without an identity');
    assert.deepEqual(await found({ ...q, ...personal }, { ownUserId: 'user-7' }), [own], "only the user's own: the other id is dropped");
    assert.deepEqual(await found({ ...q, ...personal }, { ownUserId: 'user-8' }), [], 'not for another user');
    assert.deepEqual(await found({ ...q, ...personal }, { userEmail: 'kim@example.com' }), [mail], 'USER-EMAIL identifies the user too');
    const mixed = await retrieve({ ...q, ...personal, knowledgeBaseIds: [ids['vpn-setup.docx']] }, { ownUserId: 'user-7' });
    assert.deepEqual(new Set(kbIds(mixed)), new Set([own, ids['vpn-setup.docx']]), 'personal and shared scopes are OR-ed');
  });

  it('reflects moves at once, forgets deleted documents, and finds the new text of a replaced one only', async () => {
    const moved = await upload('forklift.txt', 'Forklift training happens on Thursdays in the north warehouse.');
    await t.service.processingIdle();
    const inHandbook = async () =>
      kbIds(await retrieve({ question: 'forklift training', folderIds: [ids.Handbook], maxDocumentClues: 10 })).includes(moved);
    assert.equal(await inHandbook(), false);
    await client().kbNodes.moveBulk({ targetFolderId: ids.Handbook, nodeIds: [moved], keepCurrentPermission: true });
    assert.equal(await inHandbook(), true, 'found below its new folder without re-indexing');
    assert.equal(kbIds(await retrieve({ question: 'forklift training', targetFolders: ['Handbook'] }))[0], moved);

    await client().kbNodes.delete(moved);
    assert.ok(!kbIds(await retrieve({ question: 'forklift training warehouse', maxDocumentClues: 50 })).includes(moved));

    const replaced = await upload('shuttle.txt', 'The shuttle bus leaves the station at 7:40 every weekday.');
    await t.service.processingIdle();
    assert.equal((await retrieve({ question: 'shuttle bus' }))[0].kb_id, replaced);
    await client().kbNodes.replace(replaced, { ...text('The ferry departs from pier 3 at 9:15 on weekends.'), fileName: 'shuttle.txt' });
    await t.service.processingIdle();
    const ferry = await retrieve({ question: 'ferry departs pier' });
    assert.equal(ferry[0].kb_id, replaced);
    assert.match(ferry[0].text, /ferry departs/);
    const shuttle = await retrieve({ question: 'shuttle bus leaves', text_vector_score_weight: 0, maxDocumentClues: 50 });
    assert.ok(!kbIds(shuttle).includes(replaced), 'the old text is gone');
    const all = await retrieve({ question: 'shuttle bus leaves station', maxDocumentClues: 50 });
    assert.ok(all.every((r) => !/shuttle/i.test(r.text)));
  });

  it('reranks: a passage with every query term close together beats one that scatters them', async () => {
    const files = ['whale-notes.md', 'ocean-survey.md', 'city-transport.md', 'paint-guide.md'];
    const [folder, ...docs] = await client().kbNodes.upload({
      file: { data: await zipOf(files), contentType: 'application/zip' },
      fileName: 'reranker-case.zip',
    });
    await t.service.processingIdle();
    const name = (id: string) => docs.find((d) => d.id === id)?.name;
    const q = { question: 'blue whale migration route', folderIds: [folder.id], maxDocumentClues: 4 };
    const plain = await retrieve(q);
    assert.equal(name(plain[0].kb_id), 'whale-notes.md', 'BM25 and vectors favour the short passage with scattered terms');
    const reranked = await retrieve({ ...q, use_reranker: true });
    assert.equal(name(reranked[0].kb_id), 'ocean-survey.md', 'the reranker prefers "the blue whale follows one migration route"');
    assert.deepEqual(new Set(kbIds(reranked)), new Set(kbIds(plain)), 'same candidates, new order');
    const cut = await retrieve({ ...q, use_reranker: true, reranker_max_tokens: 16 });
    assert.notEqual(name(cut[0].kb_id), 'ocean-survey.md', 'cut to 16 tokens, the survey no longer shows the phrase');
    const one = await retrieve({ ...q, use_reranker: true, reranker_candidates_num: 1 });
    assert.equal(name(one[0].kb_id), 'whale-notes.md', 'with one candidate there is nothing to reorder');
  });

  it('accepts use_keywords and use_clue_feedback (no effect locally)', async () => {
    const base = await retrieve({ question: 'VPN server address' });
    const flagged = await retrieve({ question: 'VPN server address', use_keywords: true, use_clue_feedback: true });
    assert.deepEqual(flagged, base);
  });
});
