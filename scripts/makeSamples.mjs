// Dev script: regenerates the seed knowledge base (samples/knowledge-base/) and the extraction test
// fixtures (test/fixtures/docs/). The outputs are committed; run this only to change them.
//   node scripts/makeSamples.mjs            needs chromium (PDF printing) and qpdf (encrypted.pdf)
// PDFs are printed by headless Chromium so they look like real-world PDFs (embedded subset fonts, CJK).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import yazl from 'yazl';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const kb = path.join(root, 'samples/knowledge-base');
const fixtures = path.join(root, 'test/fixtures/docs');
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
const FIXED_DATE = new Date(Date.UTC(2025, 0, 15, 9, 0, 0));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-samples-'));

const write = (file, data) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
};
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// ---------- builders ----------

const PAGE_CSS = `@page { size: A4; margin: 20mm 18mm; }
body { font-family: "Liberation Sans", "Noto Sans CJK JP", sans-serif; font-size: 11pt; line-height: 1.45; color: #222; }
body:lang(ja) { font-family: "Noto Sans CJK JP", sans-serif; }
body:lang(ja) h1, body:lang(ja) h2 { font-weight: normal; } /* one CJK font instead of two keeps the PDF small */
h1 { font-size: 20pt; margin: 0 0 8pt; } h2 { font-size: 14pt; margin: 14pt 0 6pt; }
.page { break-after: page; } .page:last-child { break-after: auto; }
p { margin: 0 0 7pt; } li { margin-bottom: 4pt; }`;

/** pages: HTML fragments, one per printed page. */
function printPdf(file, { title, lang = 'en', pages, css = '' }) {
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>${PAGE_CSS}${css}</style></head><body>${pages.map((p) => `<section class="page">${p}</section>`).join('')}</body></html>`;
  const htmlFile = path.join(tmp, 'print.html');
  fs.writeFileSync(htmlFile, html);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      `--user-data-dir=${path.join(tmp, 'profile')}`,
      '--no-pdf-header-footer',
      `--print-to-pdf=${file}`,
      `file://${htmlFile}`,
    ],
    { stdio: 'ignore' },
  );
  // Chromium writes CJK glyphs as Type 3 fonts with little compression: recompressing halves the file.
  execFileSync('qpdf', [
    '--object-streams=generate',
    '--compress-streams=y',
    '--recompress-flate',
    '--compression-level=9',
    '--replace-input',
    file,
  ]);
}

/** A minimal WordprocessingML package. blocks: { h1 | h2 | p: text } or { table: string[][] }. */
function docx(file, { title, blocks }) {
  const run = (text) => `<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
  const para = (text, style) => `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}${text ? run(text) : ''}</w:p>`;
  const body = blocks
    .map((b) => {
      if (b.table)
        return `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/></w:tblPr>${b.table.map((row) => `<w:tr>${row.map((c) => `<w:tc>${para(c)}</w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;
      if (b.h1 !== undefined) return para(b.h1, 'Heading1');
      if (b.h2 !== undefined) return para(b.h2, 'Heading2');
      return para(b.p);
    })
    .join('');
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const style = (id, name, size) =>
    `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="${id.endsWith('1') ? 0 : 1}"/></w:pPr><w:rPr><w:b/><w:sz w:val="${size}"/></w:rPr></w:style>`;
  zip(file, {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
    'docProps/core.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${esc(title)}</dc:title></cp:coreProperties>`,
    'word/_rels/document.xml.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    'word/styles.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>${style('Heading1', 'heading 1', 32)}${style('Heading2', 'heading 2', 26)}<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style></w:styles>`,
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`,
  });
}

function zip(file, entries) {
  const z = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) z.addBuffer(Buffer.from(content), name, { mtime: FIXED_DATE });
  z.end();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return new Promise((resolve, reject) => {
    z.outputStream.pipe(fs.createWriteStream(file)).on('close', resolve).on('error', reject);
  });
}

/** sheets: { name, rows: cell[][], merges?: string[], widths?: number[], setup?(ws) } */
async function xlsx(file, sheets) {
  const wb = new ExcelJS.Workbook();
  wb.created = wb.modified = FIXED_DATE;
  for (const s of sheets) {
    const ws = wb.addWorksheet(s.name);
    s.rows.forEach((row, i) =>
      row.forEach((v, j) => {
        if (v !== undefined) ws.getCell(i + 1, j + 1).value = v;
      }),
    );
    for (const range of s.merges ?? []) ws.mergeCells(range);
    ws.columns.forEach((c, i) => {
      c.width = s.widths?.[i] ?? 16;
    });
    s.setup?.(ws);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await wb.xlsx.writeFile(file);
}

const date = (y, m, d) => new Date(Date.UTC(y, m - 1, d));

/** Shift_JIS encoder built from the platform's decoder (Node has no Shift_JIS encoder). */
function encodeShiftJis(text) {
  const table = new Map();
  const decoder = new TextDecoder('shift_jis');
  for (let b = 0xa1; b <= 0xdf; b++) table.set(decoder.decode(Uint8Array.of(b)), [b]); // half-width katakana
  for (let lead = 0x81; lead <= 0xfc; lead++) {
    if (lead > 0x9f && lead < 0xe0) continue;
    for (let trail = 0x40; trail <= 0xfc; trail++) {
      const ch = decoder.decode(Uint8Array.of(lead, trail));
      if (ch.length === 1 && ch !== '\ufffd' && !table.has(ch)) table.set(ch, [lead, trail]);
    }
  }
  const bytes = [];
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) bytes.push(ch.charCodeAt(0));
    else if (table.has(ch)) bytes.push(...table.get(ch));
    else throw new Error(`not in Shift_JIS: ${ch}`);
  }
  return Buffer.from(bytes);
}

/** A one-page PDF with a Japanese font that is NOT embedded (predefined CMap UniJIS-UCS2-H): pdfjs needs its cMaps. */
function pdfWithoutEmbeddedFont(lines) {
  const hex = (s) => [...s].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join('');
  const content = lines.map((l, i) => `BT /F1 20 Tf 72 ${760 - i * 36} Td <${hex(l)}> Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiKakuGo-W5 /Encoding /UniJIS-UCS2-H /DescendantFonts [6 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiKakuGo-W5 /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /FontDescriptor 7 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /HeiseiKakuGo-W5 /Flags 4 /FontBBox [-92 -250 1010 922] /ItalicAngle 0 /Ascent 752 /Descent -221 /CapHeight 737 /StemV 114 >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = Buffer.byteLength(pdf);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** Deterministic pseudo-random bytes (garbage that never changes between runs). */
function noise(length, seed) {
  const out = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

// ---------- test fixtures (test/fixtures/docs) ----------

async function makeFixtures() {
  const f = (name) => path.join(fixtures, name);
  printPdf(f('two-pages-en.pdf'), {
    title: 'Two Page Test Document',
    pages: [
      '<h1>Two Page Test Document</h1><p>The first line mentions the alpha project.</p><p>The second line mentions the beta budget.</p>',
      '<h1>Second Page</h1><p>Page two talks about the gamma release.</p>',
    ],
  });
  printPdf(f('japanese.pdf'), {
    title: '日本語テスト文書',
    lang: 'ja',
    pages: ['<h1>日本語のテスト文書</h1><p>東京本社の会議室は十二階にあります。</p><p>経費精算は月末までに申請してください。</p>'],
  });
  write(f('japanese-cmap.pdf'), pdfWithoutEmbeddedFont(['埋め込みなしの日本語フォント', '東京都千代田区']));
  // Only vector shapes: printing keeps them as paths, so the PDF has a page but no text layer.
  printPdf(f('image-only.pdf'), {
    title: 'Scanned page',
    pages: [
      '<svg width="600" height="400" viewBox="0 0 600 400"><rect x="20" y="20" width="560" height="360" fill="#e8eef7" stroke="#345"/><circle cx="160" cy="200" r="90" fill="#f5b041"/><path d="M300 300 L420 100 L540 300 Z" fill="#5dade2"/></svg>',
    ],
  });
  execFileSync('qpdf', ['--encrypt', 'user-secret', 'owner-secret', '256', '--', f('two-pages-en.pdf'), f('encrypted.pdf')]);
  write(f('broken.pdf'), Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Cat', 'latin1'), noise(2048, 7)]));

  const filler = (topic, n) =>
    Array.from(
      { length: n },
      (_, i) =>
        `Paragraph ${i + 1} about ${topic}: the operations team reviewed schedules, budgets and risks, and agreed on clear owners for every follow-up item before the next review meeting.`,
    );
  await docx(f('sample.docx'), {
    title: 'Quarterly Operations Review',
    blocks: [
      { h1: 'Quarterly Operations Review' },
      { p: 'The warehouse in Osaka shipped 12,400 orders in the third quarter.' },
      {
        table: [
          ['Region', 'Orders', 'Growth'],
          ['North', '1,200', '4%'],
          ['South', '980', '-2%'],
        ],
      },
      ...filler('logistics', 12).map((p) => ({ p })),
      { h2: 'Customer support' },
      ...filler('customer support', 10).map((p) => ({ p })),
      { p: '大阪倉庫の出荷件数は前年比で八パーセント増加しました。' },
      { p: 'The final paragraph confirms the support backlog fell below 40 tickets.' },
    ],
  });
  await docx(f('empty.docx'), { title: '', blocks: [{ p: '' }] });
  await zip(f('corrupt.docx'), { 'readme.txt': 'This ZIP archive is not a Word document.\n' });

  await xlsx(f('sheets.xlsx'), [
    {
      name: 'Budget',
      rows: [
        ['Item', 'Qty', 'Unit price', 'Total'],
        ['Laptop stand', 4, 60, { formula: 'B2*C2', result: 240 }],
        ['USB-C dock', 3, 180.5, { formula: 'B3*C3', result: 541.5 }],
        [],
        ['Approved by Finance', undefined, undefined, undefined],
        ['Approved on', date(2024, 4, 1)],
        ['Note', { richText: [{ text: 'Prices ' }, { font: { bold: true }, text: 'include' }, { text: ' tax' }] }],
      ],
      merges: ['A5:D5'],
      setup: (ws) => {
        ws.getCell('B6').numFmt = 'yyyy-mm-dd';
      },
    },
    {
      name: 'Contacts',
      rows: [
        ['Name', 'Team', 'On call'],
        ['Aiko Sato', '経理部', true],
        ['Ben Carter', 'IT Help Desk', false],
      ],
    },
  ]);

  write(
    f('table.html'),
    `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Office Supplies &amp; Prices</title>
<style>td { padding: 4px } .hidden-style-rule { color: red }</style>
<script>window.trackingSecret = "SCRIPT_TEXT_MUST_NOT_APPEAR"; document.write("<p>nope</p>");</script>
</head><body>
<h1>Supplies &amp; prices</h1>
<p>Prices are valid until March&nbsp;31 &mdash; ask &lt;purchasing&gt; for quotes. Caf&eacute; budget: &#x65E5;&#26412; yen.</p>
<table>
  <thead><tr><th>Item</th><th>Price</th><th>Stock</th></tr></thead>
  <tbody>
    <tr><td>Paper A4</td><td>450</td><td>120</td></tr>
    <tr><td><p>Toner</p><p>black</p></td><td>8,900</td><td>6</td></tr>
  </tbody>
</table>
<ul><li>First item</li><li>Second <b>bold</b> item</li></ul>
<noscript>NOSCRIPT_TEXT</noscript><template><p>TEMPLATE_TEXT</p></template>
<svg><text>SVG_TEXT</text></svg>
<p>Last line<br>after break</p>
</body></html>
`,
  );
  write(
    f('notes.md'),
    `---
title: Team Notes (front matter)
tags: [notes, test]
secret: FRONT_MATTER_VALUE
---
# Team Notes

Standup is at **09:30** every weekday.

\`\`\`
# not a heading inside code
\`\`\`

## Decisions

- Ship the beta on Friday.
`,
  );
  write(f('shift-jis.txt'), encodeShiftJis('シフトJISの文書です。\r\n東京都千代田区丸の内一丁目\r\n半角ｶﾅも含みます。\r\n'));
  const long = Array.from(
    { length: 109 },
    (_, i) => `Line ${String(i + 1).padStart(3, '0')}: ${'lorem ipsum dolor sit amet '.repeat(3).trim()}.`,
  );
  write(f('long.txt'), long.join('\n') + '\n');
  write(f('binary.bin'), Buffer.concat([Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff, 0xfe, 0x00, 0x00]), noise(1024, 3)]));
}

// ---------- seed knowledge base (samples/knowledge-base) ----------
// Each fact below is stated in exactly one document, so retrieval tests can ask for it.

async function makeKnowledgeBase() {
  const k = (name) => path.join(kb, name);
  const ul = (items) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;
  printPdf(k('Handbook/employee-handbook.pdf'), {
    title: 'Aozora Systems Employee Handbook',
    pages: [
      `<h1>Aozora Systems Employee Handbook</h1><p>Version 2025.1. This handbook applies to all full-time employees of Aozora Systems in Japan.</p>
<h2>1. Leave policy</h2>
<p>New employees get 15 days of paid leave in their first year of employment.</p>
<p>Paid leave increases by one day for each full year of service, up to a maximum of 25 days per year.</p>
<p>Up to 5 unused days of paid leave can be carried over to the next year; the remaining days expire on March 31.</p>
<p>Sick leave is separate from paid leave: employees have 10 days of paid sick leave per year.</p>
<p>A doctor's note is required for a sick leave of more than 3 consecutive days.</p>
<p>Request paid leave in the HR portal at least 5 business days in advance; your manager answers within 2 business days.</p>
<p>Parents can take 16 weeks of fully paid parental leave within the first year after a birth or adoption.</p>`,
      `<h2>2. Remote work</h2>
<p>Employees may work remotely up to 3 days per week after completing their 3-month probation period.</p>
<p>Core hours are 10:00 to 15:00 Japan time, and team meetings are scheduled within core hours.</p>
<p>The company pays a one-time home office allowance of 50,000 yen for a desk, a chair or a monitor.</p>
<p>A monthly internet allowance of 3,000 yen is paid together with the salary.</p>
<p>Working from another country requires written approval from HR at least 30 days before the trip.</p>
<p>Outside the office, company laptops must connect through the VPN (see the VPN Setup Guide in the IT folder).</p>
${ul(['Keep your camera on in customer meetings.', 'Lock your screen whenever you leave your desk, at home too.'])}`,
      `<h2>3. Expenses</h2>
<p>Everyday business expenses, such as client meals and office supplies, must be submitted in the finance portal within 30 days of the purchase.</p>
<p>Every expense above 5,000 yen needs a receipt; for smaller amounts a short note in the finance portal is enough.</p>
<p>Client dinners are limited to 10,000 yen per person, including drinks.</p>
<p>Approved expenses are reimbursed with the next monthly salary payment.</p>
<p>Purchases above 100,000 yen need approval from the department head before buying.</p>
<p>Business trips follow the separate Travel Expense Guide (経費精算ガイド) in the 経費 folder.</p>`,
    ],
  });
  printPdf(k('Handbook/就業規則.pdf'), {
    title: '青空システムズ株式会社 就業規則',
    lang: 'ja',
    pages: [
      `<h1>就業規則</h1><p>青空システムズ株式会社（2025年4月1日改定）</p>
<h2>第1章 総則</h2>
<p>第1条（目的）この規則は、青空システムズ株式会社の従業員の労働条件および服務規律を定めるものである。</p>
<p>第2条（適用範囲）この規則は、正社員および契約社員に適用する。</p>
<h2>第2章 勤務時間</h2>
<p>第5条（勤務時間）始業時刻は午前9時、終業時刻は午後6時とする。</p>
<p>第6条（休憩）休憩時間は正午から午後1時までの1時間とする。</p>
<p>第7条（時間外労働）時間外労働は1か月45時間、1年360時間を上限とする。</p>`,
      `<h2>第3章 休日および休暇</h2>
<p>第10条（休日）休日は土曜日、日曜日、国民の祝日および年末年始（12月29日から1月3日まで）とする。</p>
<p>第12条（慶弔休暇）従業員本人が結婚するときは、5日間の特別休暇を与える。</p>
<p>第13条（忌引）配偶者、父母または子が死亡したときは、5日間の忌引休暇を与える。</p>
<h2>第4章 服務</h2>
<p>第15条（副業）副業を始める場合は、開始日の30日前までに人事部へ届け出なければならない。</p>
<p>第16条（情報管理）業務上知り得た顧客情報は、退職後も第三者に開示してはならない。</p>`,
    ],
  });

  await docx(k('IT/vpn-setup.docx'), {
    title: 'VPN Setup Guide',
    blocks: [
      { h1: 'VPN Setup Guide' },
      { p: 'Use the VPN whenever you work outside the office network. This guide covers Windows and macOS laptops issued by IT.' },
      { h2: 'Install and connect' },
      { p: 'The VPN client is Aozora Connect, which you can install from the Software Center on every company laptop.' },
      { p: 'The VPN server address is vpn.aozora-systems.example, and the client connects over port 443.' },
      { p: 'Sign in with your company email address, then approve the push notification in the Authenticator app on your phone.' },
      { p: 'VPN sessions disconnect automatically after 12 hours; connect again to continue working.' },
      { h2: 'Troubleshooting' },
      {
        table: [
          ['Problem', 'What to do'],
          ['No push notification arrives', 'Open the Authenticator app and pull down to refresh, then try again.'],
          ['Error 809 on Windows', 'Restart the laptop; the hotel or cafe network may block VPN traffic, so try a phone hotspot.'],
          ['Slow connection', 'Close video calls you do not need; the VPN limits each laptop to 50 Mbit/s.'],
        ],
      },
      { p: 'If the VPN still does not work, contact the IT Help Desk at extension 4357 or it-help@aozora-systems.example.' },
    ],
  });

  write(
    k('IT/release-notes.html'),
    `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Knowledge Portal Release Notes</title>
<style>table { border-collapse: collapse } td, th { border: 1px solid #999; padding: 4px 8px }</style>
<script>/* analytics */ window.dataLayer = [];</script></head>
<body>
<h1>Knowledge Portal Release Notes</h1>
<p>The Knowledge Portal is the internal site for documents and FAQs, maintained by the IT team.</p>
<table>
<thead><tr><th>Version</th><th>Release date</th><th>Highlights</th></tr></thead>
<tbody>
<tr><td>2.4.0</td><td>2025-03-10</td><td>Single sign-on with Microsoft Entra ID</td></tr>
<tr><td>2.3.2</td><td>2025-02-03</td><td>Fixed the PDF preview of scanned documents</td></tr>
<tr><td>2.3.0</td><td>2025-01-15</td><td>Japanese full-text search</td></tr>
</tbody></table>
<h2>Version 2.4.0</h2>
<p>Version 2.4.0 adds single sign-on with Microsoft Entra ID, so portal passwords are no longer used.</p>
<p>The old portal address, wiki.aozora-systems.example, stops working on June 30, 2025.</p>
<h2>Known issues</h2>
<ul><li>Search results for Excel files can take up to 10 minutes to appear after an upload.</li>
<li>Printing from Safari cuts off wide tables; use Chrome or Edge to print.</li></ul>
</body></html>
`,
  );

  await xlsx(k('IT/asset-inventory.xlsx'), [
    {
      name: 'Laptops',
      widths: [10, 28, 16, 14, 15, 10],
      rows: [
        ['Asset tag', 'Model', 'Assigned to', 'Purchased', 'Warranty until', 'Status'],
        ['AZ-1042', 'ThinkPad X1 Carbon Gen 11', 'Yuki Tanaka', date(2024, 4, 1), date(2027, 3, 31), 'In use'],
        ['AZ-1043', 'MacBook Pro 14 M3', 'Daniel Kim', date(2024, 5, 20), date(2027, 5, 19), 'In use'],
        ['AZ-1044', 'ThinkPad T14 Gen 4', 'Spare pool', date(2023, 11, 2), date(2026, 11, 1), 'Available'],
        ['AZ-0977', 'ThinkPad T14 Gen 2', 'Retired', date(2021, 6, 14), date(2024, 6, 13), 'Recycled'],
      ],
      setup: (ws) => {
        ws.getColumn(4).numFmt = ws.getColumn(5).numFmt = 'yyyy-mm-dd';
      },
    },
    {
      name: 'Software Licenses',
      widths: [24, 8, 8, 8, 14, 16],
      rows: [
        ['Product', 'Seats', 'Used', 'Free', 'Renewal', 'Owner'],
        ['Microsoft 365 E3', 120, 112, { formula: 'B2-C2', result: 8 }, date(2025, 9, 30), 'IT team'],
        ['Adobe Acrobat Pro', 25, 25, { formula: 'B3-C3', result: 0 }, date(2025, 7, 1), 'IT team'],
        ['Figma Professional', 10, 7, { formula: 'B4-C4', result: 3 }, date(2026, 1, 15), 'Design team'],
        ['Licenses are reviewed every quarter by the IT team.'],
      ],
      merges: ['A6:F6'],
      setup: (ws) => {
        ws.getColumn(5).numFmt = 'yyyy-mm-dd';
      },
    },
  ]);

  write(
    k('経費/経費精算ガイド.md'),
    `# 経費精算ガイド

出張にかかった費用の精算方法をまとめています。日常の経費（会食・備品など）は従業員ハンドブックを参照してください。

## 申請期限

出張の経費は、帰着後14日以内に経費精算システムで申請してください。

## 宿泊費

宿泊費の上限は1泊12,000円です。東京23区と大阪市内は1泊15,000円まで認められます。

## 日当

国内出張の日当は1日2,000円、海外出張の日当は1日5,000円です。

## 交通費

- 新幹線は普通車指定席を利用してください。グリーン車は認められません。
- タクシーは22時以降の移動、または荷物が多い場合のみ利用できます。
- 飛行機はエコノミークラスを利用し、出発の14日前までに予約してください。

## 領収書

領収書の画像を経費精算システムに添付し、原本は申請した月の月末まで保管してください。

## 問い合わせ

不明な点は経理部（内線2200）に問い合わせてください。
`,
  );

  write(
    k('faq-overview.md'),
    `# Knowledge Desk FAQ

Quick answers to common questions at Aozora Systems. For details, open the documents in the Handbook, IT and 経費 folders.

## Where do I find the rules for leave and remote work?

The Employee Handbook (Handbook folder) covers paid leave, remote work and everyday expenses. The Japanese work rules (就業規則) cover working hours and holidays.

## Who answers payroll questions?

Payroll questions go to the payroll team at payroll@aozora-systems.example.

## When is the Tokyo office open?

The Tokyo office is open from 8:00 to 21:00 on weekdays; after 21:00 you need your ID card to enter.

## How do guests get Wi-Fi?

Guests use the Aozora-Guest network, and its password changes every Monday and is posted at reception.

## How do I book a meeting room?

Book meeting rooms in the calendar app; bookings longer than 4 hours need approval from the office manager.

## I cannot connect from home. What should I check first?

Check the VPN Setup Guide in the IT folder before you call the IT Help Desk.
`,
  );
}

await makeFixtures();
await makeKnowledgeBase();
fs.rmSync(tmp, { recursive: true, force: true });
for (const dir of [fixtures, kb]) {
  for (const file of fs.readdirSync(dir, { recursive: true })) {
    const full = path.join(dir, file);
    if (fs.statSync(full).isFile()) console.log(`${String(fs.statSync(full).size).padStart(7)}  ${path.relative(root, full)}`);
  }
}
