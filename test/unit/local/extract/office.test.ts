import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { extractDocx } from '../../../../src/local/extract/docx';
import { extractXlsx } from '../../../../src/local/extract/xlsx';
import { ExtractionError } from '../../../../src/local/extract/types';

const docs = path.resolve(__dirname, '../../../fixtures/docs');
const options = { assetsDir: '/unused' };

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof ExtractionError, `expected an ExtractionError, got ${String(error)}`);
  return error;
}

describe('extractDocx', () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'kd-docx-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('splits sample.docx into estimated pages of about 3,000 characters at paragraph boundaries', async () => {
    const result = await extractDocx(path.join(docs, 'sample.docx'), options);
    assert.equal(result.kind, 'docx');
    assert.equal(result.estimatedPages, true);
    assert.equal(result.title, 'Quarterly Operations Review');
    assert.equal(result.pages.length, 2);
    for (const page of result.pages) assert.ok(page.text.length <= 3000, `${page.text.length}`);
    const [one, two] = result.pages.map((p) => p.text);
    assert.ok(one?.startsWith('Quarterly Operations Review\nThe warehouse in Osaka shipped 12,400 orders in the third quarter.'));
    assert.ok(two?.includes('大阪倉庫の出荷件数は前年比で八パーセント増加しました。'));
    assert.ok(two?.endsWith('The final paragraph confirms the support backlog fell below 40 tickets.'));
    // Page breaks fall between paragraphs: every filler paragraph is whole on one page.
    const fillers = [one, two]
      .join('\n')
      .split('\n')
      .filter((l) => l.startsWith('Paragraph'));
    assert.equal(fillers.length, 22);
    for (const line of fillers) assert.match(line, /^Paragraph \d+ about .+ before the next review meeting\.$/);
  });

  it('keeps table cells apart with tabs, one row per line', async () => {
    const { pages } = await extractDocx(path.join(docs, 'sample.docx'), options);
    assert.ok(pages[0]?.text.includes('Region\tOrders\tGrowth\nNorth\t1,200\t4%\nSouth\t980\t-2%'));
  });

  it('reports a document without text as empty', async () => {
    const error = await failure(extractDocx(path.join(docs, 'empty.docx'), options));
    assert.equal(error.reason, 'empty');
    assert.equal(error.message, 'The Word document contains no text.');
  });

  it('reports a ZIP that is not a Word document as broken', async () => {
    const error = await failure(extractDocx(path.join(docs, 'corrupt.docx'), options));
    assert.equal(error.reason, 'broken');
    assert.match(error.message, /^The file is not a valid DOCX \(.*main document part.*\); open it in Word, save it as \.docx/);
  });

  it('explains a file that is not a ZIP at all, a legacy .doc, and a password-protected document', async () => {
    const text = path.join(tmp, 'text.docx');
    writeFileSync(text, 'just text');
    assert.match((await failure(extractDocx(text, options))).message, /not a valid DOCX \(it is not a ZIP package\)/);

    const cfb = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const legacy = path.join(tmp, 'legacy.docx');
    writeFileSync(legacy, Buffer.concat([cfb, Buffer.alloc(504)]));
    const legacyError = await failure(extractDocx(legacy, options));
    assert.equal(legacyError.reason, 'unsupported');
    assert.match(legacyError.message, /older Word 97-2003 document \(\.doc\)/);

    const encrypted = path.join(tmp, 'locked.docx');
    writeFileSync(encrypted, Buffer.concat([cfb, Buffer.alloc(504), Buffer.from('EncryptedPackage', 'utf16le')]));
    const encryptedError = await failure(extractDocx(encrypted, options));
    assert.equal(encryptedError.reason, 'encrypted');
    assert.equal(encryptedError.message, 'The DOCX file is password-protected; remove the password in Word and upload it again.');
  });
});

describe('extractXlsx', () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'kd-xlsx-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('gives one page per sheet: the sheet name, then tab-separated rows', async () => {
    const result = await extractXlsx(path.join(docs, 'sheets.xlsx'), options);
    assert.equal(result.kind, 'xlsx');
    assert.deepEqual(
      result.pages.map((p) => p.pageNo),
      [1, 2],
    );
    assert.equal(
      result.pages[0]?.text,
      [
        'Budget',
        'Item\tQty\tUnit price\tTotal',
        'Laptop stand\t4\t60\t240', // formula B2*C2 → its result
        'USB-C dock\t3\t180.5\t541.5',
        'Approved by Finance', // merged A5:D5: once, not four times; the empty row 4 is skipped
        'Approved on\t2024-04-01', // a date → ISO date
        'Note\tPrices include tax', // rich text → plain
      ].join('\n'),
    );
    assert.equal(result.pages[1]?.text, 'Contacts\nName\tTeam\tOn call\nAiko Sato\t経理部\tTRUE\nBen Carter\tIT Help Desk\tFALSE');
  });

  it('reports a ZIP that is not a workbook as broken', async () => {
    const error = await failure(extractXlsx(path.join(docs, 'corrupt.docx'), options));
    assert.equal(error.reason, 'broken');
    assert.match(error.message, /^The file is not a valid XLSX \(.+\); open it in Excel, save it as \.xlsx/);
  });

  it('keeps each row on one line: a multi-line cell is joined with spaces', async () => {
    const file = path.join(tmp, 'lines.xlsx');
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Steps').addRow(['Reset', 'Open Settings\nthen Reset  ', new Date(Date.UTC(2024, 0, 2, 13, 45))]);
    await workbook.xlsx.writeFile(file);
    const result = await extractXlsx(file, options);
    assert.equal(result.pages[0]?.text, 'Steps\nReset\tOpen Settings then Reset\t2024-01-02 13:45');
  });
});
