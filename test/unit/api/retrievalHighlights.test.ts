import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiClient } from '../../../src/api/client';
import { NotFoundError } from '../../../src/api/errors';
import type { BBox } from '../../../src/api/schemas/answers';
import { extractFile } from '../../../src/local/extract/extractFile';
import { defaultAssetsDir } from '../../../src/local/extract/extractorPool';
import { decodeClueId } from '../../../src/local/search/clueId';
import type { TextItem } from '../../../src/local/extract/types';
import { startLocalService } from '../../../src/local/service';
import { SAMPLES, idsByName, startSeeded, text } from '../../fixtures/retrieval/seededService';
import type { TestService } from '../support/localService';

const overlaps = (b: BBox, box: TextItem['box']) =>
  Math.min(b.right, box[2]) > Math.max(b.left, box[0]) && Math.min(b.bottom, box[3]) > Math.max(b.top, box[1]);
const inUnitSquare = (b: BBox) => b.left >= 0 && b.top >= 0 && b.right <= 1 && b.bottom <= 1 && b.left < b.right && b.top < b.bottom;
const clueOf = (item: unknown) => (item as { clueId: string }).clueId;

describe('Highlights (GET /webapi/v2/highlights/{clue_id}, POST /webapi/v2/retrieval/highlight)', () => {
  let t: TestService;
  let ids: Record<string, string>;
  let handbookItems: TextItem[];
  const client = () => t.client();

  before(async () => {
    t = await startSeeded();
    ids = await idsByName(client());
    const extraction = await extractFile(path.join(SAMPLES, 'Handbook/employee-handbook.pdf'), 'employee-handbook.pdf', {
      assetsDir: defaultAssetsDir(),
    });
    handbookItems = extraction.pages[0].items!;
  });
  after(() => t.stop());

  it('gives PDF boxes in page fractions, on the right page, over the items of the cited text', async () => {
    const answer = await client().answers.generate({
      query: 'How many days of paid leave do new employees get in their first year?',
      includeCitations: true,
    });
    const citation = answer.citations[0];
    assert.equal(citation.knowledgeBaseId, ids['employee-handbook.pdf']);
    const h = await client().answers.highlightsForClue(citation.clueId!);
    assert.equal(h.type, 'PARAGRAPH');
    assert.equal(h.pageNo, 1);
    assert.ok(h.bboxes.length >= 3, `${h.bboxes.length} line boxes`);
    assert.ok(h.bboxes.every(inUnitSquare), JSON.stringify(h.bboxes));
    const quoted = handbookItems.find((i) => i.str.startsWith('New employees get 15 days'))!;
    assert.ok(
      h.bboxes.some((b) => overlaps(b, quoted.box)),
      'a box covers the quoted sentence',
    );
    for (const b of h.bboxes)
      assert.ok(
        handbookItems.some((i) => overlaps(b, i.box)),
        'every box lies over text',
      );
    const sorted = [...h.bboxes].sort((a, b) => a.top - b.top);
    assert.deepEqual(h.bboxes, sorted, 'one box per line, top to bottom');
  });

  it("an answer's citation highlights the sentences it quotes, not the whole passage they come from", async () => {
    const answer = await client().answers.generate({
      query: 'How many days of paid leave do new employees get in their first year?',
      includeCitations: true,
    });
    const clue = decodeClueId(answer.citations[0].clueId!);
    assert.ok(clue?.kind === 'passage' && clue.range, 'the citation names a range of its passage');
    const sentences = await client().answers.highlightsForClue(answer.citations[0].clueId!);
    const passage = await client().answers.highlightForRetrieval({
      kbId: clue.nodeId,
      pageNo: clue.pageNo,
      subTextIndex: clue.subTextIndex,
    });
    const extent = (boxes: BBox[]) => boxes.reduce((n, b) => n + (b.bottom - b.top), 0);
    assert.ok(
      extent(sentences.bboxes) < extent(passage.bboxes),
      `sentences ${extent(sentences.bboxes)} < passage ${extent(passage.bboxes)}`,
    );
    const quoted = handbookItems.find((i) => i.str.startsWith('New employees get 15 days'))!;
    assert.ok(
      sentences.bboxes.some((b) => overlaps(b, quoted.box)),
      'the quoted sentence is marked',
    );
    const top = Math.min(...passage.bboxes.map((b) => b.top));
    const bottom = Math.max(...passage.bboxes.map((b) => b.bottom));
    assert.ok(
      sentences.bboxes.every((b) => b.top >= top && b.bottom <= bottom),
      'within the passage',
    );
  });

  it('resolves a retrieval result by (kbId, pageNo, subTextIndex), and a quoted sentence by passageText', async () => {
    const [hit] = await client().answers.retrieve({ question: 'Every expense above 5,000 yen needs a receipt' });
    assert.equal(hit.kb_id, ids['employee-handbook.pdf']);
    assert.equal(hit.pageNo, 3);
    const subTextIndex = (hit as { subTextIndex?: number }).subTextIndex!;
    const byIndex = await client().answers.highlightForRetrieval({ kbId: hit.kb_id, pageNo: 3, subTextIndex });
    assert.deepEqual(byIndex, await client().answers.highlightsForClue(clueOf(hit)));
    const sentence = await client().answers.highlightForRetrieval({
      kbId: hit.kb_id,
      pageNo: 3,
      passageText: 'Client dinners are limited to 10,000 yen per person, including drinks.',
    });
    assert.equal(sentence.bboxes.length, 1, 'one line');
    assert.ok(
      byIndex.bboxes.some((b) =>
        overlaps(b, [sentence.bboxes[0].left, sentence.bboxes[0].top, sentence.bboxes[0].right, sentence.bboxes[0].bottom]),
      ),
    );
    const stale = await client().answers.highlightForRetrieval({
      kbId: hit.kb_id,
      pageNo: 3,
      subTextIndex: 7,
      passageText: 'Approved expenses are reimbursed with the next monthly salary payment.',
    });
    assert.equal(stale.bboxes.length, 1, 'a stale subTextIndex falls back to the text');
    await assert.rejects(client().answers.highlightForRetrieval({ kbId: hit.kb_id, pageNo: 3, subTextIndex: 7 }), NotFoundError);
    await assert.rejects(client().answers.highlightForRetrieval({ kbId: hit.kb_id, pageNo: 9, subTextIndex: 0 }), NotFoundError);
    await assert.rejects(client().answers.highlightForRetrieval({ kbId: 'no-such-node', pageNo: 1, subTextIndex: 0 }), NotFoundError);
  });

  it('gives other documents the line span of the passage as one full-width box', async () => {
    const [hit] = await client().answers.retrieve({ question: 'How do I book a meeting room?' });
    assert.equal(hit.title, 'faq-overview.md');
    const { pages } = await client().localDocs.pages(hit.kb_id);
    const page = pages[0].text;
    const start = page.indexOf(hit.text);
    assert.ok(start > 0, 'the second passage of the page');
    const lines = page.split('\n').length;
    const first = page.slice(0, start).split('\n').length - 1;
    const last = page.slice(0, start + hit.text.length).split('\n').length - 1;
    const h = await client().answers.highlightsForClue(clueOf(hit));
    const r4 = (n: number) => Math.round(n * 10000) / 10000;
    assert.deepEqual(h.bboxes, [{ left: 0, top: r4(first / lines), right: 1, bottom: r4((last + 1) / lines) }]);
    assert.equal(h.pageNo, 1);
  });

  it('answers 404 for unknown, malformed and Q&A clues', async () => {
    const fake = Buffer.from(JSON.stringify(['no-such-node', 1, 0, '0123456789ab'])).toString('base64url');
    for (const clue of [
      fake,
      'not a clue',
      'AAAA',
      Buffer.from('["x",1]').toString('base64url'),
      Buffer.from(JSON.stringify(['qna', 'faq-1'])).toString('base64url'),
    ]) {
      await assert.rejects(client().answers.highlightsForClue(clue), NotFoundError, clue);
    }
  });

  it('stops resolving the clues of a document once it is replaced', async () => {
    const [node] = await client().kbNodes.upload({
      file: text('Parking: the garage opens at 6:30 and closes at midnight.'),
      fileName: 'parking.txt',
    });
    await t.service.processingIdle();
    const [hit] = await client().answers.retrieve({ question: 'garage opens', knowledgeBaseIds: [node.id] });
    assert.equal((await client().answers.highlightsForClue(clueOf(hit))).pageNo, 1);
    await client().kbNodes.replace(node.id, { ...text('Parking: the garage is closed for repairs until May.'), fileName: 'parking.txt' });
    await t.service.processingIdle();
    await assert.rejects(client().answers.highlightsForClue(clueOf(hit)), NotFoundError);
    const [fresh] = await client().answers.retrieve({ question: 'garage repairs', knowledgeBaseIds: [node.id] });
    assert.notEqual(clueOf(fresh), clueOf(hit));
    assert.equal((await client().answers.highlightsForClue(clueOf(fresh))).pageNo, 1);
  });
});

describe('Retrieval across a restart of the local service', () => {
  it('rebuilds the index from the stored extractions and keeps old clue ids valid', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kd-restart-'));
    try {
      let service = await startLocalService({ dataDir: dir, seedDir: SAMPLES, fsync: false });
      let client = new ApiClient({ baseUrl: service.url, apiKey: service.apiKey });
      await service.processingIdle();
      const question = '出張の宿泊費の上限はいくらですか';
      const before = await client.answers.retrieve({ question });
      const clue = clueOf(before[0]);
      const boxes = await client.answers.highlightsForClue(clue);
      await service.close();

      service = await startLocalService({ dataDir: dir, fsync: false });
      client = new ApiClient({ baseUrl: service.url, apiKey: service.apiKey });
      // Asked at once: the search waits for the background rebuild instead of answering from an empty index.
      const after = await client.answers.retrieve({ question });
      assert.deepEqual(after, before);
      assert.deepEqual(await client.answers.highlightsForClue(clue), boxes);
      const info = (await (await fetch(`${service.url}/_local/info`, { headers: { 'API-KEY': service.apiKey } })).json()) as {
        counts: Record<string, number>;
      };
      assert.ok(info.counts['retrieval.passages'] >= 10, JSON.stringify(info.counts));
      await service.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
