import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { AuthenticationError, NotFoundError } from '../../../src/api/errors';
import { fileNameOf } from '../../../src/api/resources/localDocs';
import { SAMPLES, idsByName, startSeeded, text } from '../../fixtures/retrieval/seededService';
import type { TestService } from '../support/localService';

describe('Local document routes (/_local/documents/{node_id}/content and /pages)', () => {
  let t: TestService;
  let ids: Record<string, string>;
  const client = () => t.client();

  before(async () => {
    t = await startSeeded();
    ids = await idsByName(client());
  });
  after(() => t.stop());

  it('serves the stored file with its type and UTF-8 file name', async () => {
    const pdf = await client().localDocs.content(ids['就業規則.pdf']);
    assert.deepEqual(pdf.bytes, readFileSync(path.join(SAMPLES, 'Handbook/就業規則.pdf')));
    assert.equal(pdf.contentType, 'application/pdf');
    assert.equal(pdf.fileName, '就業規則.pdf');
    const md = await client().localDocs.content(ids['経費精算ガイド.md']);
    assert.equal(md.contentType, 'text/markdown; charset=utf-8');
    assert.equal(md.bytes.toString('utf8'), readFileSync(path.join(SAMPLES, '経費/経費精算ガイド.md'), 'utf8'));
    const res = await request(`${t.service.url}/_local/documents/${ids['release-notes.html']}/content`, {
      headers: { 'API-KEY': t.service.apiKey },
    });
    await res.body.dump();
    assert.match(
      String(res.headers['content-disposition']),
      /^inline; filename="release-notes\.html"; filename\*=UTF-8''release-notes\.html$/,
    );
    assert.match(String(res.headers['content-security-policy']), /sandbox/, 'stored HTML never runs as the service origin');
  });

  it('returns the extracted pages', async () => {
    const handbook = await client().localDocs.pages(ids['employee-handbook.pdf']);
    assert.equal(handbook.kind, 'pdf');
    assert.equal(handbook.estimatedPages, false);
    assert.deepEqual(
      handbook.pages.map((p) => p.pageNo),
      [1, 2, 3],
    );
    assert.match(handbook.pages[1].text, /^2\. Remote work/);
    const docx = await client().localDocs.pages(ids['vpn-setup.docx']);
    assert.equal(docx.kind, 'docx');
    assert.equal(docx.estimatedPages, true);
  });

  it('answers 404 for unknown nodes, folders and unprocessed documents, 401 without the key', async () => {
    await assert.rejects(client().localDocs.content('no-such-node'), NotFoundError);
    await assert.rejects(client().localDocs.pages(ids.Handbook), NotFoundError);
    const [broken] = await client().kbNodes.upload({
      file: { data: '%PDF-1.4 this is not really a PDF', contentType: 'application/pdf' },
      fileName: 'broken.pdf',
    });
    await t.service.processingIdle();
    await assert.rejects(client().localDocs.content(broken.id), NotFoundError, 'parsing failed: not served');
    await assert.rejects(client().localDocs.pages(broken.id), NotFoundError);
    // Queued behind a PDF to extract (one document at a time; its bytes differ from the sample's, so no reuse).
    await client().kbNodes.upload({
      file: {
        data: Buffer.concat([readFileSync(path.join(SAMPLES, 'Handbook/就業規則.pdf')), Buffer.from('\n% not a copy\n')]),
        contentType: 'application/pdf',
      },
      fileName: 'queue-ahead.pdf',
    });
    const [fresh] = await client().kbNodes.upload({ file: text('Fresh upload text.'), fileName: 'fresh.txt' });
    await assert.rejects(client().localDocs.pages(fresh.id), NotFoundError, 'not processed yet');
    await assert.rejects(client().localDocs.content(fresh.id), NotFoundError);
    await t.service.processingIdle();
    assert.equal((await client().localDocs.pages(fresh.id)).pages[0].text, 'Fresh upload text.');
    await assert.rejects(t.client({ apiKey: 'wrong' }).localDocs.content(ids['vpn-setup.docx']), AuthenticationError);
  });

  it('reads RFC 5987 and plain file names from Content-Disposition', () => {
    assert.equal(fileNameOf(`inline; filename="a_b.pdf"; filename*=UTF-8''%E5%B0%B1%E6%A5%AD%20%E8%A6%8F%E5%89%87.pdf`), '就業 規則.pdf');
    assert.equal(fileNameOf('attachment; filename="quoted \\"name\\".txt"'), 'quoted "name".txt');
    assert.equal(fileNameOf('inline; filename=plain.txt'), 'plain.txt');
    assert.equal(fileNameOf("inline; filename*=iso-8859-1'en'caf%E9.txt"), 'café.txt');
    assert.equal(fileNameOf('inline'), '');
  });
});
