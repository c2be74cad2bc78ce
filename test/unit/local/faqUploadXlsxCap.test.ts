// An uploaded Q&A XLSX is read whole by exceljs, so its size is bounded before that (issue 23): the parts are
// inflated through a counting stream first, and a workbook that expands past the cap is refused with a 413 that
// says so, before any row is read or applied. Before, any workbook was read whole, whatever it expanded to.
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { PayloadTooLargeError } from '../../../src/api/errors';
import { startTestService, type TestService } from '../support/localService';
import { zipOf } from '../support/zip';

/** The cap in these tests: 200 KB, so a few thousand rows pass it. */
const CAP = 200 * 1024;
const part = (data: Uint8Array, fileName: string) => ({ kind: 'buffer' as const, data, fileName });

async function xlsxOf(rows: number, from = 0): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Q&A');
  sheet.addRow(['question', 'answer']);
  for (let i = from; i < from + rows; i++)
    sheet.addRow([`How do I configure item ${i}?`, `Open the settings page and choose option ${i}.`]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('Q&A XLSX upload: the decompressed size is capped (local service)', function () {
  this.timeout(60_000);
  let t: TestService;
  before(async () => (t = await startTestService({ fsync: false, maxFaqXlsxBytes: CAP })));
  after(() => t.stop());

  const total = async (): Promise<number> => (await t.client().faq.embeddingStatus()).total;

  it('refuses a workbook that expands past the cap with a 413 that says the cap, and applies none of it', async () => {
    const big = await xlsxOf(2_000);
    assert.ok(big.length < CAP, 'the file itself is under the cap: only its decompressed parts are over');
    const error = await t
      .client()
      .faq.uploadFile(part(big, 'big.xlsx'))
      .catch((e: unknown) => e);
    assert.ok(error instanceof PayloadTooLargeError, String(error));
    assert.match(error.message, /expands beyond 0\.2 MB when decompressed/);
    assert.match(error.message, /CSV/);
    assert.equal(await total(), 0);
  });

  it('in a ZIP, names the workbook, and a CSV beside it is not applied either', async () => {
    const zip = await zipOf({ 'a.csv': 'question,answer\nQ1?,A1\n', 'b.xlsx': await xlsxOf(2_000) });
    const error = await t
      .client()
      .faq.uploadFile(part(zip, 'both.zip'))
      .catch((e: unknown) => e);
    assert.ok(error instanceof PayloadTooLargeError, String(error));
    assert.match(error.message, /"b\.xlsx": The Excel workbook expands beyond/);
    assert.equal(await total(), 0);
  });

  it('reads a workbook under the cap, its rows applied as before', async () => {
    const result = await t.client().faq.uploadFile(part(await xlsxOf(200, 10_000), 'small.xlsx'));
    assert.deepEqual(result, { result: 'success', notUploaded: [] });
    assert.equal(await total(), 200);
  });
});
