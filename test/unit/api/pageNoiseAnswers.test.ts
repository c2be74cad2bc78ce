// Running headers, page numbers and contents lines of a document stay out of answers and highlights, through
// the client against the real local service; the page text (GET …/text) keeps them.
import assert from 'node:assert/strict';
import { isFileNode } from '../../../src/api/values';
import { startTestService, type TestService } from '../support/localService';

const TOPICS = ['Holidays', 'Travel', 'Expenses', 'Laptops', 'Badges', 'Parking'];
const HEADER = 'Acme Staff Handbook, Release 2.1';

/** Six printed pages (form feeds): a contents page, then a header, one section and the page number on each. */
function handbook(): string {
  const contents = ['Contents', '', ...TOPICS.slice(1).map((t, i) => `${i + 1} ${t} rules . . . . . . . . . . ${i + 2}`)].join('\n');
  const pages = TOPICS.slice(1).map(
    (topic, i) =>
      `${HEADER}\n\n${i + 1} ${topic} rules\n\n` +
      `The ${topic.toLowerCase()} policy applies to every employee. Requests about ${topic.toLowerCase()} are made on the ` +
      `intranet and answered within five working days by the office team.\n\n${i + 2}`,
  );
  return [contents, ...pages].join('\n\f');
}

describe('Page noise in answers and highlights (client against the local service)', () => {
  let t: TestService;
  let nodeId = '';
  before(async () => {
    t = await startTestService();
    const [node] = await t.client().kbNodes.upload({ file: { data: handbook(), contentType: 'text/plain' }, fileName: 'handbook.txt' });
    assert.ok(isFileNode(node));
    nodeId = node.id;
    await t.service.processingIdle();
  });
  after(() => t.stop());

  it('answers from the section, never the header or a contents line, and highlights below the header', async () => {
    const answer = await t.client().answers.generate({ query: 'How are parking requests made?', includeCitations: true });
    assert.ok((answer.confidence ?? 0) > 0, answer.answer);
    assert.doesNotMatch(answer.answer, /Acme Staff Handbook|\. \. \./);
    const citation = answer.citations[0];
    assert.equal(citation.pageNo, 6, 'the parking page, not the contents page');
    const h = await t.client().answers.highlightsForClue(citation.clueId!);
    assert.equal(h.pageNo, 6);
    assert.ok(h.bboxes.length > 0);
    assert.ok(
      h.bboxes.every((b) => b.top > 0),
      `the header is the page's first line and not highlighted: ${JSON.stringify(h.bboxes)}`,
    );
    const pages = await t.client().kbNodes.text(nodeId);
    assert.ok(pages[5].text.startsWith(HEADER), 'the page text keeps its header');
  });

  it('finds no passage for words only the running header and the contents page have', async () => {
    // BM25 alone: the lexical vectors find some likeness (shared character n-grams) in any passage.
    const hits = await t.client().answers.retrieve({
      question: 'Acme Staff Handbook Release',
      maxDocumentClues: 10,
      bm25_score_weight: 1,
      text_vector_score_weight: 0,
    });
    assert.deepEqual(
      hits.map((h) => h.pageNo),
      [],
    );
  });
});
