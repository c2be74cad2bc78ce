// The citation viewer's source (documentSource.ts) against the real local service through the public
// operations: the downloaded PDF with the service's boxes, the parsed text when download is not offered
// (an offer memory that learned the 404/405), then page number and passage.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OfferMemory } from '../../../src/api/offers';
import { DocumentSource } from '../../../src/features/answers/citations/documentSource';
import { startTestService, type TestService } from '../support/localService';
import { waitFor } from '../support/waitFor';

describe('Citation viewer source: public download and text operations, with fallbacks', () => {
  let t: TestService;
  let pdfId: string;
  let mdId: string;
  before(async () => {
    t = await startTestService();
    const c = t.client();
    const [pdf] = await c.kbNodes.upload({
      file: { data: readFileSync('samples/knowledge-base/Handbook/employee-handbook.pdf') },
      fileName: 'handbook.pdf',
    });
    const [md] = await c.kbNodes.upload({
      file: { data: '# Leave\n\nNew employees get 15 days of paid leave.', contentType: 'text/markdown' },
      fileName: 'leave.md',
    });
    [pdfId, mdId] = [pdf.id, md.id];
    await waitFor(async () => {
      const nodes = await c.kbNodes.listAll();
      return [pdfId, mdId].every((id) => nodes.some((n) => n.id === id && (n as { processState?: string }).processState === 'completed'));
    }, 'both documents processed');
  });
  after(() => t.stop());

  const source = (memory = new OfferMemory()) =>
    new DocumentSource({
      region: () => 'us',
      client: async () => t.client({ offerMemory: memory }),
      download: async () => {
        throw new Error('no preview in this test');
      },
      describe: (e) => String(e),
      log: { debug: () => undefined, warn: () => undefined },
    });
  const passage = 'New employees get 15 days of paid leave in their first year of employment.';

  it('a PDF citation shows the downloaded original with the service highlight, in any region', async () => {
    const view = await source().resolve({ kbId: pdfId, pageNo: 1, passageText: passage, title: 'handbook.pdf' });
    assert.equal(view.kind, 'pdf');
    if (view.kind !== 'pdf') return;
    assert.equal(view.origin, 'document');
    assert.ok(Buffer.from(view.data.subarray(0, 5)).toString('latin1').startsWith('%PDF-'));
    assert.ok(view.bboxes.length > 0, 'the service gave highlight boxes');
  });

  it('a non-PDF document shows its parsed text per page', async () => {
    const view = await source().resolve({ kbId: mdId, pageNo: 1, passageText: 'New employees get 15 days', title: 'leave.md' });
    assert.equal(view.kind, 'text');
    if (view.kind !== 'text') return;
    assert.equal(view.format, 'markdown');
    assert.match(view.pages[0].text, /15 days of paid leave/);
  });

  it('download not offered (404/405 remembered): the PDF citation falls back to the page text; neither: page and passage', async () => {
    const memory = new OfferMemory();
    memory.remember(t.service.url, 'kbNodes.download');
    const textView = await source(memory).resolve({ kbId: pdfId, pageNo: 1, passageText: passage, title: 'handbook.pdf' });
    assert.equal(textView.kind, 'text');
    assert.ok(textView.kind === 'text' && textView.notes.some((n) => /does not offer downloading/.test(n)));
    memory.remember(t.service.url, 'kbNodes.text');
    const fallback = await source(memory).resolve({ kbId: pdfId, pageNo: 2, passageText: passage, title: 'handbook.pdf' });
    assert.equal(fallback.kind, 'fallback');
    assert.ok(fallback.kind === 'fallback' && /offers neither the document download nor its text/.test(fallback.reason));
    assert.equal(fallback.kind === 'fallback' && fallback.pageNo, 2);
  });

  it('a document deleted meanwhile says so', async () => {
    const view = await source().resolve({ kbId: 'no-such-node', pageNo: 1, passageText: 'x' });
    assert.equal(view.kind, 'fallback');
    assert.ok(view.kind === 'fallback' && /no longer in the knowledge base/.test(view.reason));
  });
});
