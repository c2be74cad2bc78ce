import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractHtml } from '../../../../src/local/extract/html';
import { splitEstimated } from '../../../../src/local/extract/paginate';
import { decodeText, extractMarkdown, extractText, firstHeading, stripFrontMatter } from '../../../../src/local/extract/text';
import { ExtractionError } from '../../../../src/local/extract/types';

const docs = path.resolve(__dirname, '../../../fixtures/docs');
const options = { assetsDir: '/unused' };

describe('extractHtml', () => {
  it('keeps visible text only, table cells tab-separated, entities decoded, title from <title>', async () => {
    const result = await extractHtml(path.join(docs, 'table.html'), options);
    assert.equal(result.kind, 'html');
    assert.equal(result.title, 'Office Supplies & Prices');
    assert.equal(result.pages.length, 1);
    assert.equal(
      result.pages[0]?.text,
      [
        'Supplies & prices',
        'Prices are valid until March 31 — ask <purchasing> for quotes. Café budget: 日本 yen.',
        'Item\tPrice\tStock',
        'Paper A4\t450\t120',
        'Toner black\t8,900\t6',
        'First item',
        'Second bold item',
        'Last line',
        'after break',
      ].join('\n'),
    );
    for (const hidden of ['SCRIPT_TEXT', 'nope', 'NOSCRIPT_TEXT', 'TEMPLATE_TEXT', 'SVG_TEXT', 'hidden-style-rule', 'DOCTYPE']) {
      assert.ok(!result.pages[0]?.text.includes(hidden), hidden);
    }
  });

  describe('on generated pages', () => {
    let tmp: string;
    before(() => {
      tmp = mkdtempSync(path.join(os.tmpdir(), 'kd-html-'));
    });
    after(() => rmSync(tmp, { recursive: true, force: true }));

    it('takes the first <h1> as title when there is no <title>, and keeps <pre> lines', async () => {
      const file = path.join(tmp, 'a.html');
      writeFileSync(file, '<body><h1>Deploy &amp; rollback</h1><pre>step 1\n  step 2</pre><div hidden>secret</div></body>');
      const result = await extractHtml(file, options);
      assert.equal(result.title, 'Deploy & rollback');
      assert.equal(result.pages[0]?.text, 'Deploy & rollback\nstep 1\n  step 2');
    });

    it('splits a long page into estimated pages', async () => {
      const file = path.join(tmp, 'long.html');
      writeFileSync(
        file,
        `<html><body>${Array.from({ length: 80 }, (_, i) => `<p>Paragraph ${i + 1} ${'text '.repeat(20)}</p>`).join('')}</body></html>`,
      );
      const result = await extractHtml(file, options);
      assert.equal(result.estimatedPages, true);
      // 80 lines of 113-114 characters: 26 lines fit in 3,000 characters.
      assert.deepEqual(
        result.pages.map((p) => p.text.split('\n').length),
        [26, 26, 26, 2],
      );
      assert.ok(result.pages[3]?.text.endsWith('Paragraph 80 ' + 'text '.repeat(20).trim()));
    });

    it('reports a page without visible text as empty', async () => {
      const file = path.join(tmp, 'empty.html');
      writeFileSync(file, '<html><head><title>T</title><script>x()</script></head><body> </body></html>');
      await assert.rejects(extractHtml(file, options), (e: unknown) => e instanceof ExtractionError && e.reason === 'empty');
    });
  });
});

describe('extractMarkdown and extractText', () => {
  it('strips only the YAML front matter from Markdown and takes the first # heading as title', async () => {
    const result = await extractMarkdown(path.join(docs, 'notes.md'), options);
    assert.equal(result.kind, 'markdown');
    assert.equal(result.title, 'Team Notes');
    assert.equal(result.pages.length, 1);
    const text = result.pages[0]?.text ?? '';
    assert.ok(text.startsWith('# Team Notes\n\nStandup is at **09:30** every weekday.'));
    assert.ok(text.includes('```\n# not a heading inside code\n```'));
    assert.ok(!text.includes('FRONT_MATTER_VALUE') && !text.includes('tags:'));
  });

  it('decodes Shift_JIS text', async () => {
    const result = await extractText(path.join(docs, 'shift-jis.txt'), options);
    assert.equal(result.kind, 'text');
    assert.equal(result.pages[0]?.text, 'シフトJISの文書です。\n東京都千代田区丸の内一丁目\n半角ｶﾅも含みます。');
  });

  it('splits long.txt into 4 estimated pages at line boundaries, losing nothing', async () => {
    const result = await extractText(path.join(docs, 'long.txt'), options);
    assert.equal(result.estimatedPages, true);
    assert.equal(result.pages.length, 4);
    const lines = result.pages.flatMap((p) => p.text.split('\n'));
    assert.equal(lines.length, 109);
    lines.forEach((line, i) => assert.ok(line.startsWith(`Line ${String(i + 1).padStart(3, '0')}: `), line));
    for (const page of result.pages) assert.ok(page.text.length <= 3000 && page.text.length > 1000);
  });

  describe('on generated files', () => {
    let tmp: string;
    before(() => {
      tmp = mkdtempSync(path.join(os.tmpdir(), 'kd-text-'));
    });
    after(() => rmSync(tmp, { recursive: true, force: true }));

    it('uses form feeds as real page breaks', async () => {
      const file = path.join(tmp, 'ff.txt');
      writeFileSync(file, 'page one\fpage two\f\fpage four\f');
      const result = await extractText(file, options);
      assert.equal(result.estimatedPages, undefined);
      assert.deepEqual(
        result.pages.map((p) => p.text),
        ['page one', 'page two', '', 'page four'],
      );
    });

    it('strips a UTF-8 BOM and normalizes CRLF', async () => {
      const file = path.join(tmp, 'bom.md');
      writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# 見出し\r\n本文\r\n')]));
      const result = await extractMarkdown(file, options);
      assert.equal(result.title, '見出し');
      assert.equal(result.pages[0]?.text, '# 見出し\n本文');
    });

    it('reports whitespace-only text as empty and stops above maxPages', async () => {
      const blank = path.join(tmp, 'blank.txt');
      writeFileSync(blank, ' \n\n ');
      await assert.rejects(extractText(blank, options), { reason: 'empty', message: 'The file contains no text.' });
      await assert.rejects(extractText(path.join(docs, 'long.txt'), { ...options, maxPages: 3 }), { reason: 'tooLarge' });
    });
  });

  it('helpers: decodeText, stripFrontMatter, firstHeading, splitEstimated', () => {
    assert.equal(decodeText(Buffer.from([0xff, 0xfe, 0x42, 0x30])), 'あ');
    assert.equal(decodeText(Buffer.from([0x82, 0xa0])), 'あ'); // Shift_JIS
    assert.deepEqual(stripFrontMatter('---\ntitle: "Quoted"\n---\nbody'), { body: 'body', frontMatterTitle: 'Quoted' });
    assert.deepEqual(stripFrontMatter('body\n---\nx: 1\n---\n'), { body: 'body\n---\nx: 1\n---\n' });
    assert.equal(firstHeading('intro\n## two\n# One #\n# Later'), 'One');
    assert.equal(firstHeading('no heading'), undefined);
    const cjk = 'あ'.repeat(2000) + '。' + 'い'.repeat(2000);
    assert.deepEqual(
      splitEstimated(cjk).map((p) => p.length),
      [2001, 2000],
    );
    assert.deepEqual(
      splitEstimated('x'.repeat(7000)).map((p) => p.length),
      [3000, 3000, 1000],
    );
  });
});
