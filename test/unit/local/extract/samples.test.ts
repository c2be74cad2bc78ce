import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ExtractorPool, defaultAssetsDir } from '../../../../src/local/extract/extractorPool';
import { extractFile } from '../../../../src/local/extract/extractFile';
import type { Extraction } from '../../../../src/local/extract/types';

const root = path.resolve(__dirname, '../../../../samples/knowledge-base');
const assetsDir = defaultAssetsDir();

/** For each sample: [page number, an answer sentence that later retrieval tests can ask about]. */
const ANSWERS: Record<string, Array<[number, string]>> = {
  'Handbook/employee-handbook.pdf': [
    [1, 'New employees get 15 days of paid leave in their first year of employment.'],
    [1, 'Paid leave increases by one day for each full year of service, up to a maximum of 25 days per year.'],
    [2, 'Employees may work remotely up to 3 days per week after completing their 3-month probation period.'],
    [2, 'The company pays a one-time home office allowance of 50,000 yen for a desk, a chair or a monitor.'],
    [
      3,
      'Everyday business expenses, such as client meals and office supplies, must be submitted in the finance portal within 30 days of the purchase.',
    ],
    [3, 'Client dinners are limited to 10,000 yen per person, including drinks.'],
  ],
  'Handbook/就業規則.pdf': [
    [1, '始業時刻は午前9時、終業時刻は午後6時とする。'],
    [1, '青空システムズ株式会社の従業員の労働条件および服務規律を定めるものである。'],
    [2, '従業員本人が結婚するときは、5日間の特別休暇を与える。'],
    [2, '副業を始める場合は、開始日の30日前までに人事部へ届け出なければならない。'],
  ],
  'IT/vpn-setup.docx': [
    [1, 'The VPN server address is vpn.aozora-systems.example, and the client connects over port 443.'],
    [1, 'Error 809 on Windows\tRestart the laptop; the hotel or cafe network may block VPN traffic, so try a phone hotspot.'],
  ],
  'IT/release-notes.html': [
    [1, 'Version 2.4.0 adds single sign-on with Microsoft Entra ID, so portal passwords are no longer used.'],
    [1, '2.3.0\t2025-01-15\tJapanese full-text search'],
  ],
  'IT/asset-inventory.xlsx': [
    [1, 'AZ-1042\tThinkPad X1 Carbon Gen 11\tYuki Tanaka\t2024-04-01\t2027-03-31\tIn use'],
    [2, 'Microsoft 365 E3\t120\t112\t8\t2025-09-30\tIT team'],
    [2, 'Licenses are reviewed every quarter by the IT team.'],
  ],
  '経費/経費精算ガイド.md': [
    [1, '出張の経費は、帰着後14日以内に経費精算システムで申請してください。'],
    [1, '宿泊費の上限は1泊12,000円です。'],
  ],
  'faq-overview.md': [
    [1, 'Payroll questions go to the payroll team at payroll@aozora-systems.example.'],
    [1, 'Guests use the Aozora-Guest network, and its password changes every Monday and is posted at reception.'],
  ],
};

const PAGES: Record<string, number> = {
  'Handbook/employee-handbook.pdf': 3,
  'Handbook/就業規則.pdf': 2,
  'IT/asset-inventory.xlsx': 2,
};

function sampleFiles(): string[] {
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => statSync(path.join(root, f)).isFile())
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

describe('samples/knowledge-base', () => {
  const results = new Map<string, Extraction>();
  before(async function () {
    this.timeout(60_000);
    for (const file of sampleFiles()) results.set(file, await extractFile(path.join(root, file), path.basename(file), { assetsDir }));
  });

  it('holds exactly the documented seed files, each small enough to ship', () => {
    assert.deepEqual(sampleFiles(), Object.keys(ANSWERS).sort());
    for (const file of sampleFiles()) assert.ok(statSync(path.join(root, file)).size < 100 * 1024, file);
  });

  it('extracts every sample with the expected kind, page count and a title', () => {
    const kinds = Object.fromEntries([...results].map(([f, r]) => [f, r.kind]));
    assert.deepEqual(kinds, {
      'Handbook/employee-handbook.pdf': 'pdf',
      'Handbook/就業規則.pdf': 'pdf',
      'IT/asset-inventory.xlsx': 'xlsx',
      'IT/release-notes.html': 'html',
      'IT/vpn-setup.docx': 'docx',
      'faq-overview.md': 'markdown',
      '経費/経費精算ガイド.md': 'markdown',
    });
    for (const [file, result] of results) {
      assert.equal(result.pages.length, PAGES[file] ?? 1, file);
      if (result.kind !== 'xlsx') assert.ok(result.title, `${file} has a title`);
    }
    assert.equal(results.get('Handbook/就業規則.pdf')?.title, '青空システムズ株式会社 就業規則');
  });

  it('has each answer sentence on its page, and in no other sample', () => {
    for (const [file, answers] of Object.entries(ANSWERS)) {
      for (const [pageNo, sentence] of answers) {
        const page = results.get(file)?.pages[pageNo - 1];
        assert.ok(page?.text.includes(sentence), `${file} p.${pageNo} lacks: ${sentence}\n---\n${page?.text}`);
        const elsewhere = [...results].filter(([other, r]) => other !== file && r.pages.some((p) => p.text.includes(sentence)));
        assert.deepEqual(
          elsewhere.map(([other]) => other),
          [],
          sentence,
        );
      }
    }
  });

  it('states the facts behind the example questions in one document only', () => {
    const holders = (needle: string): string[] =>
      [...results].filter(([, r]) => r.pages.some((p) => p.text.includes(needle))).map(([f]) => f);
    assert.deepEqual(holders('days of paid leave'), ['Handbook/employee-handbook.pdf']);
    assert.deepEqual(holders('帰着後14日以内'), ['経費/経費精算ガイド.md']);
    assert.deepEqual(holders('port 443'), ['IT/vpn-setup.docx']);
  });

  it('extracts all samples through the worker pool as well', async function () {
    this.timeout(60_000);
    const pool = new ExtractorPool({ assetsDir });
    try {
      for (const file of sampleFiles()) {
        const viaWorker = await pool.extract(path.join(root, file), path.basename(file));
        assert.deepEqual(viaWorker, results.get(file), file);
      }
    } finally {
      await pool.close();
    }
  });
});
