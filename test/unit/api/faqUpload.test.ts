import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { FormData, request } from 'undici';
import { BadRequestError } from '../../../src/api/errors';
import { faqStatus } from '../../../src/api/resources/faq';
import { startTestService, type TestService } from '../support/localService';
import { zipOf } from '../support/zip';

const part = (data: Uint8Array | string, fileName: string) => ({ kind: 'buffer' as const, data, fileName });

async function xlsxOf(rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Q&A');
  for (const row of rows) sheet.addRow(row);
  workbook.addWorksheet('Ignored').addRow(['question', 'answer']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('Q&A file upload (local service)', () => {
  let t: TestService;
  const agent = () => t.client({ identity: { agentEmail: 'importer@example.com' } });
  const byQuestion = async (question: string) =>
    (await t.client().faq.filter({ searchTerm: `"${question}"` })).results.find((r) => r.question === question);

  before(async () => (t = await startTestService({ fsync: false })));
  after(() => t.stop());

  it('registers the valid rows of a CSV and lists each rejected row with its reason (partial)', async () => {
    const csv = [
      'question,answer,similar_questions,hashtags,status,folder,memo',
      'VPNの設定方法,クライアントを入れる,VPN setup|VPN install,"#it, vpn",on,IT,internal memo',
      '"Two-line\nquestion?","Yes, it ""works""",,,off,,',
      'No answer here,,,,,,',
      'Bad status,Some answer,,,maybe,,',
    ].join('\r\n');
    const res = await agent().faq.uploadFile(part(`\ufeff${csv}`, 'qa.csv'));
    assert.equal(res.result, 'partial');
    assert.deepEqual(
      res.notUploaded.map((n) => n.question),
      ['No answer here', 'Bad status'],
    );
    assert.match(res.notUploaded[0].state, /answer is empty/i);
    assert.match(res.notUploaded[1].state, /status/i);

    const vpn = await byQuestion('VPNの設定方法');
    assert.ok(vpn, 'registered');
    const detail = await t.client().faq.get(vpn.id);
    assert.equal(detail.answer, 'クライアントを入れる');
    assert.deepEqual(detail.similar_questions, ['VPN setup', 'VPN install']);
    assert.deepEqual(detail.hashtags, ['it', 'vpn']);
    assert.equal(detail.folder, 'IT');
    assert.ok(!JSON.stringify(detail).includes('internal memo'));
    const twoLine = await byQuestion('Two-line\nquestion?');
    assert.equal(twoLine?.answer, 'Yes, it "works"');
    assert.equal(faqStatus(await t.client().faq.get(twoLine!.id)), 'off');
    assert.equal((await t.client().faq.filter({ createdByAgent: true })).total_count, 2, 'created with AGENT-EMAIL');
    // Uploaded Q&As are searchable at once.
    const search = await t.client().faq.search({ query: 'VPN install', autoRegisterCandidates: false });
    assert.equal(search.result[0]?.id, vpn.id);
  });

  it('updates the Q&A with the same question instead of adding one (success)', async () => {
    const before = (await t.client().faq.list()).total_count;
    const res = await agent().faq.uploadFile(part('question,answer\nvpnの設定方法,新しい手順\n', 'again.csv'));
    assert.deepEqual(res, { result: 'success', notUploaded: [] });
    assert.equal((await t.client().faq.list()).total_count, before);
    assert.equal((await byQuestion('VPNの設定方法'))?.answer, '新しい手順');
  });

  it('reads TSV with Japanese headers', async () => {
    const tsv =
      '質問\t回答\tハッシュタグ\tステータス\n有給休暇の申請方法\t人事システムから申請\t#hr\ton\n経費精算の締め日\t毎月25日\t経理\toff\n';
    const res = await agent().faq.uploadFile(part(tsv, '社内FAQ.tsv'));
    assert.deepEqual(res, { result: 'success', notUploaded: [] });
    assert.deepEqual((await byQuestion('有給休暇の申請方法'))?.hashtags, ['hr']);
    assert.equal(faqStatus(await t.client().faq.get((await byQuestion('経費精算の締め日'))!.id)), 'off');
  });

  it('reads the first sheet of an XLSX workbook', async () => {
    const xlsx = await xlsxOf([
      ['Question', 'Answer', 'Similar_Questions'],
      ['How do I reset my password?', 'Use the portal.', 'password reset\nforgot password'],
      ['', 'An answer without a question', ''],
    ]);
    const res = await agent().faq.uploadFile(part(xlsx, 'faq.xlsx'));
    assert.equal(res.result, 'partial');
    assert.equal(res.notUploaded.length, 1);
    assert.match(res.notUploaded[0].state, /question is empty/i);
    const row = await byQuestion('How do I reset my password?');
    assert.deepEqual((await t.client().faq.get(row!.id)).similar_questions, ['password reset', 'forgot password']);
    assert.equal(await byQuestion('question'), undefined, 'the second sheet is ignored');
  });

  it('reads every CSV, TSV and XLSX inside a ZIP, naming the file of each rejected row', async () => {
    const zip = await zipOf({
      'faq/general.csv': 'question,answer\nWhere is the cafeteria?,Floor 3\nBroken row,\n',
      'faq/hr.tsv': 'question\tanswer\nHow many leave days?\t10 days\n',
      'more/it.xlsx': await xlsxOf([
        ['question', 'answer'],
        ['Printer offline?', 'Restart it.'],
      ]),
      'README.md': '# not a Q&A file',
    });
    const res = await agent().faq.uploadFile(part(zip, 'bundle.zip'));
    assert.equal(res.result, 'partial');
    assert.deepEqual(
      res.notUploaded.map((n) => n.question),
      ['Broken row'],
    );
    assert.match(res.notUploaded[0].state, /^faq\/general\.csv: .*answer is empty/i);
    for (const q of ['Where is the cafeteria?', 'How many leave days?', 'Printer offline?']) assert.ok(await byQuestion(q), q);
  });

  it('answers failed when no row could be registered', async () => {
    const res = await agent().faq.uploadFile(part('question,answer\n,no question\nno answer,\n', 'bad.csv'));
    assert.equal(res.result, 'failed');
    assert.equal(res.notUploaded.length, 2);
    const missingHeader = await agent().faq.uploadFile(part('foo,bar\n1,2\n', 'wrong.csv'));
    assert.equal(missingHeader.result, 'failed');
    assert.ok(missingHeader.notUploaded.length >= 1);
    assert.match(missingHeader.notUploaded.map((n) => n.state).join(' '), /question/i);
  });

  it('rejects unsupported files with 400 naming file', async () => {
    for (const [data, name] of [
      ['%PDF-1.4', 'manual.pdf'],
      ['{}', 'faq.json'],
      ['question,answer', 'noextension'],
    ] as const) {
      await assert.rejects(
        agent().faq.uploadFile(part(data, name)),
        (e: unknown) => e instanceof BadRequestError && e.field === 'file',
        name,
      );
    }
    const noTable = await zipOf({ 'notes.txt.md': 'x', 'image.png': 'x' });
    await assert.rejects(
      agent().faq.uploadFile(part(noTable, 'nothing.zip')),
      (e: unknown) => e instanceof BadRequestError && e.field === 'file',
    );
    await assert.rejects(
      agent().faq.uploadFile(part('not a zip at all', 'broken.zip')),
      (e: unknown) => e instanceof BadRequestError && e.field === 'file',
    );
    const form = new FormData();
    form.append('document', new Blob(['question,answer\nq,a\n']), 'qa.csv');
    const res = await request(`${t.service.url}/webapi/upload_faq_file`, {
      method: 'POST',
      headers: { 'API-KEY': t.service.apiKey },
      body: form,
    });
    assert.equal(res.statusCode, 400);
    assert.equal(((await res.body.json()) as { field?: string }).field, 'file');
  });

  it('leaves no temporary files behind (uploads and ZIP entries are removed)', async () => {
    assert.deepEqual(await readdir(path.join(t.dir, 'blobs', 'tmp')), []);
  });
});
