import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { EntitiesTestView } from '../../src/testApiEntities';
import { getApi, resetWorkbench, runCommand, screenshot, useService, waitFor, withTheme } from './support/host';

// CRLF line endings on purpose: offsets from the service must land on the right characters anyway.
const DEMO = [
  '# Trip notes 🗂️',
  '',
  'Dr. Jane Smith of Acme Widgets, Inc. flies from London to Tokyo on November 21, 2026.',
  'Contact: jane.smith@example.com · +1 (415) 555-0123 · https://acme.example.com/trip',
  'Budget: $1,200 (about ¥180,000), approved yesterday.',
  '',
  '## 出張メモ 🚄',
  '',
  '株式会社ナレッジの田中さんは2026年11月21日に大阪府へ出張します。',
  '連絡先：tanaka@example.jp、03-1234-5678。予算は1.5万円です。',
  '詳細は https://example.jp/trip をご覧ください。',
  '',
].join('\r\n');

const summary = (doc: vscode.TextDocument, entities: ReadonlyArray<{ tag: string; token: string; range: vscode.Range }>): string[] =>
  entities.map((e) => {
    assert.equal(doc.getText(e.range), e.token, `range of ${e.tag} ${e.token}`);
    return `${e.tag}:${e.token}`;
  });

const run = runCommand;

describe('Entities', () => {
  let api: KnowledgeDeskTestApi;
  let feature: EntitiesTestView;
  let dir: string;

  const open = async (name: string, content: string): Promise<vscode.TextEditor> => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
  };

  before(async () => {
    api = await getApi();
    await useService(api);
    feature = api.entities;
  });
  // Each test writes its own files into a folder of its own and starts from an empty workbench.
  beforeEach(async () => {
    await resetWorkbench(api);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-entities-'));
  });
  afterEach(async () => {
    await resetWorkbench(api);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('decorates English and Japanese entities of a CRLF file, lists them, and clears them on edit', async () => {
    const editor = await open('trip-notes.md', DEMO);
    const doc = editor.document;
    assert.equal(doc.eol, vscode.EndOfLine.CRLF);
    await run(api, 'knowledgeDesk.entities.recognize');
    assert.deepEqual(summary(doc, feature.decorated(doc.uri)), [
      'PERSON:Jane Smith',
      'ORGANIZATION:Acme Widgets, Inc.',
      'LOCATION:London',
      'LOCATION:Tokyo',
      'DATE:November 21, 2026',
      'EMAIL:jane.smith@example.com',
      'PHONE:+1 (415) 555-0123',
      'URL:https://acme.example.com/trip',
      'MONEY:$1,200',
      'MONEY:¥180,000',
      'DATE:yesterday',
      'ORGANIZATION:株式会社ナレッジ',
      'PERSON:田中',
      'DATE:2026年11月21日',
      'LOCATION:大阪府',
      'EMAIL:tanaka@example.jp',
      'PHONE:03-1234-5678',
      'MONEY:1.5万円',
      'URL:https://example.jp/trip',
    ]);
    const tokyo = feature.decorated(doc.uri).find((e) => e.token === 'Tokyo')!;
    assert.deepEqual([tokyo.range.start.line, tokyo.range.start.character], [2, DEMO.split('\r\n')[2].indexOf('Tokyo')]);
    assert.equal(feature.statusBar.text, '$(symbol-keyword) 19 entities');

    editor.selection = new vscode.Selection(tokyo.range.start, tokyo.range.start);
    await screenshot('entities');
    await vscode.commands.executeCommand('editor.action.showHover');
    // The driver shoots once the entity's hover is on screen (its footer names the feature).
    await screenshot('entities-hover', { waitForSelector: '.monaco-hover:has-text("Knowledge Desk")' });
    // The colours must read well on a dark theme too.
    await withTheme('Default Dark Modern', () => screenshot('entities-dark'));

    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const picked = (await run(api, 'knowledgeDesk.entities.list', [
      (p: { items: vscode.QuickPickItem[] }) => {
        const labels = p.items.map((i) => i.label);
        assert.deepEqual(labels.slice(0, 3), ['PERSON (2)', 'Jane Smith', '田中']);
        return p.items.find((i) => i.label === '大阪府');
      },
    ])) as { token: string };
    assert.equal(picked.token, '大阪府');
    const active = vscode.window.activeTextEditor!;
    assert.equal(active.document.getText(active.selection), '大阪府');

    await active.edit((b) => b.insert(new vscode.Position(0, 0), 'x'));
    await waitFor(() => feature.decorated(doc.uri).length === 0, 'decorations cleared by the edit');
    await vscode.commands.executeCommand('undo');
  });

  it('the status-bar item is the colour legend: each tag’s colour, what it marks and how many', async () => {
    await open('legend.md', DEMO);
    await run(api, 'knowledgeDesk.entities.recognize');
    const tooltip = feature.statusBar.tooltip as vscode.MarkdownString;
    assert.ok(tooltip instanceof vscode.MarkdownString && tooltip.supportHtml, 'a Markdown tooltip with the colour swatches');
    const legend = tooltip.value;
    assert.match(legend, /what the colours mean/);
    for (const [tag, colour, line] of [
      ['PERSON', '#3b82f6', 'PERSON: names of people (2)'],
      ['ORGANIZATION', '#a855f7', 'ORGANIZATION: companies and organisations (2)'],
      ['LOCATION', '#16a34a', 'LOCATION: places: cities, countries, regions (3)'],
      ['DATE', '#f97316', 'DATE: dates and times (3)'],
      ['EMAIL', '#0d9488', 'EMAIL: email addresses (2)'],
      ['PHONE', '#db2777', 'PHONE: phone numbers (2)'],
      ['URL', '#dc2626', 'URL: web addresses (2)'],
      ['MONEY', '#ca8a04', 'MONEY: amounts of money (3)'],
    ]) {
      // appendText escapes Markdown and keeps spaces as &nbsp;: compare the text as read.
      const row = legend.split('\n').find((l) =>
        l
          .replace(/\\/g, '')
          .replace(/&nbsp;/g, ' ')
          .includes(line),
      );
      assert.ok(row, `${tag}: no legend line "${line}" in ${legend}`);
      assert.ok(row.includes(`color:${colour}`), `${tag}: its swatch has the decoration colour ${colour}`);
    }
  });

  it('recognises only the selection, with offsets from its start', async () => {
    const editor = await open('selection.md', DEMO);
    const doc = editor.document;
    const line = 9; // 連絡先：tanaka@example.jp、03-1234-5678。予算は1.5万円です。
    editor.selection = new vscode.Selection(line, 4, line, doc.lineAt(line).text.length);
    await run(api, 'knowledgeDesk.entities.recognize');
    const found = feature.decorated(doc.uri);
    assert.deepEqual(summary(doc, found), ['EMAIL:tanaka@example.jp', 'PHONE:03-1234-5678', 'MONEY:1.5万円']);
    assert.ok(found.every((e) => e.range.start.line === line));
    await run(api, 'knowledgeDesk.entities.clear');
    assert.equal(feature.decorated(doc.uri).length, 0);
  });

  it('teaches a phrase from a selection (scripted input), then recognises it elsewhere', async () => {
    const product = `Quasar${Date.now().toString(36)}`;
    const editor = await open('teach.md', `We ship ${product} Desk to Osaka next week.\nAsk about ${product} Desk today.\n`);
    const doc = editor.document;
    await run(api, 'knowledgeDesk.entities.recognize');
    assert.ok(!summary(doc, feature.decorated(doc.uri)).some((s) => s.includes(product)), 'not known before teaching');

    const start = doc.lineAt(0).text.indexOf(product);
    editor.selection = new vscode.Selection(0, start, 0, start + product.length + ' Desk'.length);
    await run(api, 'knowledgeDesk.entities.teachPhrase', ['New tag…', 'product', 'Train']);
    const taught = feature.taught.last!;
    assert.deepEqual(
      { text: taught.text, startIndex: taught.startIndex, endIndex: taught.endIndex, tag: taught.tag, dataType: taught.dataType },
      {
        text: doc.lineAt(0).text,
        startIndex: start,
        endIndex: start + product.length + 5,
        tag: 'PRODUCT',
        dataType: 'train',
      },
    );
    // The public answer of Teach Phrase (docs/api.md#teach-phrase); the local service says it too.
    assert.equal((taught.response as { success?: boolean }).success, true);

    editor.selection = new vscode.Selection(0, 0, 0, 0);
    await run(api, 'knowledgeDesk.entities.recognize');
    assert.deepEqual(summary(doc, feature.decorated(doc.uri)), [
      `PRODUCT:${product} Desk`,
      'LOCATION:Osaka',
      'DATE:next week',
      `PRODUCT:${product} Desk`,
      'DATE:today',
    ]);
    // The new tag is offered next time, right after the built-in ones.
    editor.selection = new vscode.Selection(1, 10, 1, 10 + product.length + 5);
    await run(api, 'knowledgeDesk.entities.teachPhrase', [
      (p: { items: vscode.QuickPickItem[] }) => {
        assert.deepEqual(
          p.items.slice(0, 9).map((i) => i.label),
          ['PERSON', 'ORGANIZATION', 'LOCATION', 'DATE', 'EMAIL', 'PHONE', 'URL', 'MONEY', 'PRODUCT'],
        );
        return 'PRODUCT';
      },
      'Test',
    ]);
    assert.equal(feature.taught.last?.dataType, 'test');
  });

  it('sends a long file in parts of at most 2,000 characters and continues on request', async () => {
    const n = 70;
    const lines = Array.from(
      { length: n },
      (_, i) =>
        `${String(i + 1).padStart(2, '0')}. Meeting in Tokyo on 2026-11-${String((i % 28) + 1).padStart(2, '0')}, write to team${i}@example.com.`,
    );
    const editor = await open('long.md', lines.join('\n') + '\n');
    const doc = editor.document;
    assert.ok(doc.getText().length > 4000);
    await run(api, 'knowledgeDesk.entities.recognize');
    const first = feature.decorated(doc.uri).length;
    assert.match(
      feature.notices.last ?? '',
      /reads up to 2,000 characters per request: characters 1–\d,\d{3} of the 4,\d{3} in the file have been sent \(to line \d+\)/,
    );
    assert.ok(first > 0 && first < n * 3);
    assert.equal(first % 3, 0, 'parts end at a line break: no entity cut in two');
    let rounds = 0;
    while (feature.hasNextPart && rounds++ < 5) await run(api, 'knowledgeDesk.entities.recognizeNextPart');
    assert.equal(rounds, 2);
    assert.match(feature.notices.last ?? '', new RegExp(`Recognised the last part of the file: ${n * 3} entities in all`));
    assert.deepEqual(summary(doc, feature.decorated(doc.uri)).slice(-3), ['LOCATION:Tokyo', 'DATE:2026-11-14', 'EMAIL:team69@example.com']);
  });
});
