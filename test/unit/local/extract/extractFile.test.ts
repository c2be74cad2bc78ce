import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultAssetsDir } from '../../../../src/local/extract/extractorPool';
import { extractFile } from '../../../../src/local/extract/extractFile';
import type { DocKind } from '../../../../src/local/extract/types';

const docs = path.resolve(__dirname, '../../../fixtures/docs');
const options = { assetsDir: defaultAssetsDir() };

describe('extractFile', () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'kd-extract-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('picks the extractor from the file name, as the blob store keeps files without extensions', async () => {
    const cases: Array<[string, DocKind, string]> = [
      ['two-pages-en.pdf', 'pdf', 'alpha project'],
      ['sample.docx', 'docx', 'shipped 12,400 orders'],
      ['sheets.xlsx', 'xlsx', 'Laptop stand\t4\t60\t240'],
      ['table.html', 'html', 'Paper A4\t450\t120'],
      ['notes.md', 'markdown', 'Standup is at'],
      ['shift-jis.txt', 'text', '東京都千代田区'],
    ];
    for (const [name, kind, phrase] of cases) {
      const blob = path.join(tmp, `blob-${kind}`);
      copyFileSync(path.join(docs, name), blob);
      const result = await extractFile(blob, name, options);
      assert.equal(result.kind, kind, name);
      assert.ok(result.pages[0]?.text.includes(phrase), `${name}: ${result.pages[0]?.text.slice(0, 200)}`);
    }
  });

  it('rejects binary files as unsupported, naming the supported formats', async () => {
    await assert.rejects(extractFile(path.join(docs, 'binary.bin'), 'binary.bin', options), {
      reason: 'unsupported',
      message:
        '"binary.bin" is not a document the local service can read; it supports PDF, Word (.docx), Excel (.xlsx), HTML, Markdown and plain text files.',
    });
  });

  it('reports a 0-byte file as empty whatever its type', async () => {
    const file = path.join(tmp, 'zero');
    writeFileSync(file, '');
    await assert.rejects(extractFile(file, 'report.pdf', options), {
      reason: 'empty',
      message: '"report.pdf" is empty (0 bytes); upload the saved file again.',
    });
  });

  it('turns unexpected failures into a broken-file error with the cause', async () => {
    await assert.rejects(
      extractFile(path.join(docs, 'two-pages-en.pdf'), 'a.pdf', { assetsDir: path.join(tmp, 'nowhere') }),
      (e: { reason?: string; message?: string }) => {
        assert.equal(e.reason, 'broken');
        assert.match(e.message ?? '', /^"a\.pdf" could not be read as PDF \(the PDF support files are missing/);
        return true;
      },
    );
  });

  it('treats a renamed PDF as a PDF', async () => {
    const result = await extractFile(path.join(docs, 'two-pages-en.pdf'), 'download', options);
    assert.equal(result.kind, 'pdf');
    assert.equal(result.pages.length, 2);
  });
});
