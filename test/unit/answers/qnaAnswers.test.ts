// A question that matches a Q&A is answered with that Q&A first (docs/api.md#extractive-answers), against the
// real local service seeded with the samples: a short answer ("Run df -h.") is used whole, cited as a Q&A
// (source qna, faqId), whether the sources are Q&As only or documents and Q&As, and in the stream too.
import assert from 'node:assert/strict';
import type { GenerativeAnswerRequest } from '../../../src/api/resources/answers';
import { startSeeded, text } from '../../fixtures/retrieval/seededService';
import type { TestService } from '../support/localService';

const QUESTION = 'How do I check free disk space?';

describe('Generative answers: a matching Q&A answers first', () => {
  let t: TestService;
  let faqId: string;
  const generate = (body: Omit<GenerativeAnswerRequest, 'query'>, query = QUESTION) =>
    t.client().answers.generate({ query, includeCitations: true, clues: true, ...body });

  before(async () => {
    t = await startSeeded();
    const c = t.client();
    // A document whose table of contents names the question's words: it out-scored the Q&A before.
    await c.kbNodes.upload({
      file: text(
        'IT operations guide\n\nContents\nHow to check free disk space and memory on a server\nHow to restart a service\n\n' +
          'Servers are patched every month by the operations team.',
      ),
      fileName: 'it-operations.txt',
    });
    await t.service.processingIdle();
    ({ id: faqId } = await c.faq.register({ question: QUESTION, answer: 'Run df -h.', status: 'on' }));
    const search = await c.faq.search({ query: QUESTION, autoRegisterCandidates: false });
    assert.deepEqual([search.result[0]?.id, search.result[0]?.confidence], [faqId, 1], 'Search Q&A finds it at 1.00');
  });
  after(() => t.stop());

  const assertQnaAnswer = (a: Awaited<ReturnType<typeof generate>>) => {
    assert.equal(a.answer, 'Run df -h. [1]');
    assert.equal(a.confidence, 1);
    assert.deepEqual(
      { source: a.citations[0]?.source, faqId: a.citations[0]?.faqId, title: a.citations[0]?.title, index: a.citations[0]?.index },
      { source: 'qna', faqId, title: QUESTION, index: 1 },
    );
    assert.equal(a.citations.length, 1);
    assert.equal(a.clues[0]?.source, 'qna');
  };

  it('sources Q&A only: the Q&A is the answer', async () => {
    assertQnaAnswer(await generate({ search_from: ['qna'] }));
  });

  it('documents and Q&As (and the default): the Q&A wins over a table-of-contents line', async () => {
    assertQnaAnswer(await generate({ search_from: ['document', 'qna'] }));
    assertQnaAnswer(await generate({}));
  });

  it('a similar wording that still matches the Q&A is answered by it; a stream ends with the same answer', async () => {
    const a = await generate({ search_from: ['document', 'qna'] }, 'how can I check the free disk space');
    assert.match(a.answer, /^Run df -h\. \[1\]/);
    assert.equal(a.citations[0]?.faqId, faqId);
    let last = '';
    for await (const chunk of t.client().answers.stream({ query: QUESTION, includeCitations: true })) {
      if (chunk.type === 'done') last = chunk.result.answer;
    }
    assert.equal(last, 'Run df -h. [1]');
  });

  it('a Q&A that only shares words with the question (another question) does not answer it over the documents', async () => {
    const c = t.client();
    await c.faq.register({
      question: 'How do I list the contents of a compressed archive with tar?',
      answer: 'Run tar -tvf archive.tar.',
      status: 'on',
    });
    await c.kbNodes.upload({
      file: text('Archives\n\nTo create a compressed archive with tar, run tar -czf backup.tar.gz folder.'),
      fileName: 'archives.txt',
    });
    await t.service.processingIdle();
    const asked = 'How do I create a compressed archive with tar?';
    const search = await c.faq.search({ query: asked, autoRegisterCandidates: false });
    const best = search.result[0]?.confidence ?? 0;
    assert.ok(best >= 0.5 && best < 0.8, `the list Q&A matches as a weak hit (${best})`);
    const a = await generate({}, asked);
    assert.doesNotMatch(a.answer, /tar -tvf/);
    assert.match(a.answer, /tar -czf/);
    assert.equal(a.citations[0]?.source, 'document');
  });

  it('a multi-paragraph Q&A answer is used whole, each paragraph cited', async () => {
    const { id } = await t.client().faq.register({
      question: 'How do I reset my badge PIN?',
      answer: '<p>Open the badge portal.</p><p>Choose Reset PIN and follow the steps.</p>',
      status: 'on',
    });
    const a = await generate({ search_from: ['qna'] }, 'How do I reset my badge PIN?');
    assert.equal(a.answer, 'Open the badge portal. [1]\n\nChoose Reset PIN and follow the steps. [1]');
    assert.equal(a.citations[0]?.faqId, id);
  });

  it('a question that matches no Q&A leaves the documents to answer', async () => {
    const none = await generate({ search_from: ['qna'] }, 'What is the colour of the moon on Tuesdays?');
    assert.equal(none.citations.length, 0);
    const docs = await generate(
      { search_from: ['document', 'qna'] },
      'How many days of paid leave do new employees get in their first year?',
    );
    assert.equal(docs.citations[0]?.source, 'document');
  });
});
