// Issue 23, items 3 and 4: decompression bombs are refused with a reason the tree shows, a worker over its
// memory or time budget is stopped and replaced, and a small file is not held up by a slow one. Real uploads
// over HTTP to a real local service; the caps are made small so small bombs trip them (the full-size bombs
// are in `npm run bench`, test/bench/bombs.bench.ts).
import assert from 'node:assert/strict';
import type { KbNode } from '../../../../src/api/schemas/kbNodes';
import { isFileNode } from '../../../../src/api/values';
import { ExtractorPool, defaultAssetsDir, type ExtractorPoolOptions } from '../../../../src/local/extract/extractorPool';
import { startTestService, type TestService } from '../../support/localService';
import { waitFor } from '../../support/waitFor';
import { makeDocxBomb, makeFlateBombPdf, makeHexFlateBombPdf, makeManyOperatorsPdf } from './attackFiles';

const MiB = 1024 * 1024;
const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('Bombs refused and fair processing (local service, issue 23)', function () {
  this.timeout(120_000);
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  const start = async (options: Partial<ExtractorPoolOptions>): Promise<TestService> =>
    (t = await startTestService({ fsync: false, extractor: new ExtractorPool({ assetsDir: defaultAssetsDir(), ...options }) }));

  const upload = async (svc: TestService, fileName: string, data: Uint8Array | string, contentType: string): Promise<string> => {
    const [node] = await svc.client().kbNodes.upload({ file: { data, contentType }, fileName });
    assert.ok(node && isFileNode(node));
    return node.id;
  };
  const node = (svc: TestService, id: string): Promise<KbNode & { processState?: string; processError?: string }> =>
    svc.client().kbNodes.get(id);
  const settled = (svc: TestService, id: string, timeoutMs = 60_000) =>
    waitFor(
      async () => {
        const n = await node(svc, id);
        return n.processState === 'completed' || n.processState === 'parsing_fail' ? n : undefined;
      },
      `document ${id} processed`,
      timeoutMs,
      50,
    );

  it('refuses a PDF Flate bomb and a DOCX bomb with "expands beyond", and goes on with the next document', async () => {
    const svc = await start({ maxDecodedBytes: 2 * MiB });
    const pdf = await upload(svc, 'bomb.pdf', makeFlateBombPdf(32), PDF);
    const docx = await upload(svc, 'bomb.docx', makeDocxBomb(32), DOCX);
    const lying = await upload(svc, 'lying.docx', makeDocxBomb(32, true), DOCX);
    const note = await upload(svc, 'after.md', '# After\n\nThe service still reads this.', 'text/markdown');

    const pdfNode = await settled(svc, pdf);
    assert.equal(pdfNode.processState, 'parsing_fail');
    // Past the 2 MB cap before the ratio rule's 4 MB floor: the cap is what refused it.
    assert.match(pdfNode.processError ?? '', /^The PDF expands beyond 2 MB when decompressed/);
    const docxNode = await settled(svc, docx);
    assert.equal(docxNode.processState, 'parsing_fail');
    assert.match(docxNode.processError ?? '', /^The Word document expands beyond/);
    // Its headers say 1,000 bytes: the real bytes are counted.
    const lyingNode = await settled(svc, lying);
    assert.equal(lyingNode.processState, 'parsing_fail');
    assert.match(lyingNode.processError ?? '', /^The Word document expands beyond 2 MB when decompressed/);
    assert.equal((await settled(svc, note)).processState, 'completed');
  });

  it('stops a worker that passes its memory budget outside the V8 heap, and the next document is processed', async () => {
    // Flate behind ASCIIHexDecode gets past the stream scan: pdfjs decodes 256 MiB of zeros into ArrayBuffers.
    const svc = await start({ memoryBudgetMb: 128, size: 1 });
    const bomb = await upload(svc, 'hex-bomb.pdf', makeHexFlateBombPdf(512), PDF);
    const next = await upload(svc, 'next.txt', 'Read after the bomb was stopped.', 'text/plain');
    const bombNode = await settled(svc, bomb);
    assert.equal(bombNode.processState, 'parsing_fail');
    assert.match(bombNode.processError ?? '', /needs more memory than text extraction may use \(128 MB\)/);
    assert.equal((await settled(svc, next)).processState, 'completed');
  });

  it('gives each document a time budget that grows with its size, and stops a document past its own', async () => {
    // Both PDFs take seconds on any machine (300,000 and 1,200,000 text operators) and both budgets are a fraction of
    // a second, so both are stopped whatever the machine's speed; what is checked is the budget each one got.
    const small = makeManyOperatorsPdf(300_000);
    const large = makeManyOperatorsPdf(1_200_000);
    const budget = (bytes: number) => Number(((100 + (1000 * bytes) / MiB) / 1000).toFixed(1));
    assert.ok(budget(large.length) > budget(small.length), 'the larger file has the larger budget');
    const svc = await start({ timeoutMs: 100, timeoutMsPerMb: 1000, size: 1 });
    const ids = [await upload(svc, 'small-slow.pdf', small, PDF), await upload(svc, 'large-slow.pdf', large, PDF)];
    for (const [i, bytes] of [small.length, large.length].entries()) {
      const n = await settled(svc, ids[i]!);
      assert.equal(n.processState, 'parsing_fail', n.processError);
      assert.match(n.processError ?? '', new RegExp(`took longer than ${budget(bytes)} seconds and was stopped`));
    }
    // A document within its budget is not stopped: the next one completes on the replaced worker.
    const ok = await upload(svc, 'after.md', '# After\n\nProcessed by the new worker.', 'text/markdown');
    assert.equal((await settled(svc, ok)).processState, 'completed');
  });

  it('makes a small file ready while a slow one is still being extracted', async () => {
    const svc = await start({});
    const slow = await upload(svc, 'slow.pdf', makeManyOperatorsPdf(600_000), PDF);
    await waitFor(async () => (await node(svc, slow)).processState === 'parsing', 'the slow PDF in extraction', 30_000, 20);
    const small = await upload(svc, 'small.md', '# Small\n\nUploaded right behind the slow one.', 'text/markdown');
    assert.equal((await settled(svc, small)).processState, 'completed');
    assert.equal((await node(svc, slow)).processState, 'parsing', 'the slow one is still running');
  });
});
