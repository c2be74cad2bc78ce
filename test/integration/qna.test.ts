import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../src/extension';
import type { QnaElement } from '../../src/features/qna/qnaTreeModel';
import type { SearchPickState } from '../../src/features/qna/qaSearchPick';
import { getApi, runCommand, screenshot, scriptInput, sleep, waitFor, useService } from './support/host';

const ws = (): vscode.Uri => vscode.workspace.workspaceFolders![0].uri;

const run = runCommand;

const qna = (api: KnowledgeDeskTestApi) => api.features.qna;
const labels = (els: QnaElement[]): string[] =>
  els.map((e) => (e.kind === 'qa' ? e.item.question : e.kind === 'group' ? `[${e.label}]` : e.kind));

describe('Q&A view, search, import and candidates (real extension host, local service)', () => {
  let api: KnowledgeDeskTestApi;
  before(async () => {
    api = await getApi();
    await useService(api);
    const client = await api.container.connection.getClient();
    await client.faq.register({ question: 'What are the office hours?', answer: '<p>Old answer</p>', status: 'on', hashtags: ['office'] });
    await client.faq.register({
      question: 'How do I book a meeting room?',
      answer: '<p>Use the <b>room portal</b>.</p>',
      status: 'on',
      similarQuestions: ['Reserve a conference room'],
      hashtags: ['office'],
      folder: 'General',
    });
    await client.faq.register({
      question: 'Is there parking for visitors?',
      answer: 'No, use the public garage.',
      status: 'off',
      folder: 'General',
    });
    await vscode.commands.executeCommand('knowledgeDesk.qna.focus');
    await qna(api).tree.refresh();
  });

  it('shows Q&As under On and Off with feedback counts, and filters on the service', async () => {
    const roots = await qna(api).tree.getChildren();
    assert.deepEqual(labels(roots), ['[On]', '[Off]']);
    const on = await qna(api).tree.getChildren(roots[0]);
    assert.ok(labels(on).includes('How do I book a meeting room?'));
    assert.deepEqual(labels(await qna(api).tree.getChildren(roots[1])), ['Is there parking for visitors?']);
    const booking = on.find((e: QnaElement) => e.kind === 'qa' && e.item.question.startsWith('How do I book'))!;
    await run(api, 'knowledgeDesk.qna.thumbsUp', [], booking);
    const after = (await qna(api).tree.getChildren((await qna(api).tree.getChildren())[0])).find(
      (e: QnaElement) => e.kind === 'qa' && e.item.question.startsWith('How do I book'),
    )!;
    assert.match(String(qna(api).tree.getTreeItem(after).description), /^👍 1 👎 0 · #office$/);
    await run(api, 'knowledgeDesk.qna.filterText', ['room OR parking']);
    const filtered = await qna(api).tree.getChildren();
    assert.deepEqual(labels(await qna(api).tree.getChildren(filtered[0])), ['How do I book a meeting room?']);
    assert.deepEqual(labels(await qna(api).tree.getChildren(filtered[1])), ['Is there parking for visitors?']);
    await run(api, 'knowledgeDesk.qna.filterStatus', ['Off only']);
    assert.deepEqual(labels(await qna(api).tree.getChildren()), ['Is there parking for visitors?']);
    await run(api, 'knowledgeDesk.qna.clearFilter', []);
    await run(api, 'knowledgeDesk.qna.groupByFolder', []);
    assert.deepEqual(labels(await qna(api).tree.getChildren()).slice(0, 2), ['[General]', '[(no folder)]']);
    await run(api, 'knowledgeDesk.qna.ungroup', []);
    await screenshot('qna-tree');
  });

  it('toggles a Q&A off and on', async () => {
    const client = await api.container.connection.getClient();
    const roots = await qna(api).tree.getChildren();
    const hours = (await qna(api).tree.getChildren(roots[0])).find(
      (e: QnaElement) => e.kind === 'qa' && e.item.question === 'What are the office hours?',
    )!;
    await run(api, 'knowledgeDesk.qna.toggle', [], hours);
    const off = await qna(api).tree.getChildren((await qna(api).tree.getChildren())[1]);
    assert.ok(labels(off).includes('What are the office hours?'));
    const id = (hours as Extract<QnaElement, { kind: 'qa' }>).item.id;
    const detail = await client.faq.get(id);
    assert.ok(detail.statusOffAt, 'statusOffAt recorded');
    await run(
      api,
      'knowledgeDesk.qna.toggle',
      [],
      off.find((e: QnaElement) => e.kind === 'qa' && e.item.id === id),
    );
  });

  it('searches as you type with confidence, cancelling the request of an earlier keystroke', async () => {
    const state = (await vscode.commands.executeCommand('knowledgeDesk.qna.search')) as SearchPickState;
    const qp = state.quickPick;
    qp.value = 'reserve';
    await sleep(30);
    qp.value = 'reserve a conference room';
    await state.settled();
    await waitFor(() => !qp.busy && qp.items.length > 0, 'results');
    assert.equal(qp.items[0].label, 'How do I book a meeting room?');
    assert.match(qp.items[0].description ?? '', /^confidence 1\.00 · effective 1\.00/);
    assert.equal(state.requests, 1, 'the first keystroke was debounced away');
    const client = await api.container.connection.getClient();
    const candidates = await client.faq.candidates({ status: 'ALL' });
    assert.ok(
      !candidates.faqCandidates.some((c) => c.questions.some((q) => q.question === 'reserve a conference room')),
      'searches from the editor do not register candidates',
    );
    qp.hide();
  });

  it('dry-runs a CSV import: row-level problems in the Problems panel, then imports the valid rows', async function () {
    this.timeout(60_000);
    const file = vscode.Uri.joinPath(ws(), 'qa', 'import.csv');
    await vscode.window.showTextDocument(file);
    const summaries: string[] = [];
    const input = scriptInput(api, [(p: { options: unknown }) => (summaries.push(String(p.options)), 'Show Problems')]);
    await vscode.commands.executeCommand('knowledgeDesk.qna.importFile', file);
    input.restore();
    const diags = vscode.languages.getDiagnostics(file);
    const byLine = diags
      .map((d) => `${d.range.start.line + 1}:${d.code}:${d.severity === vscode.DiagnosticSeverity.Error ? 'E' : 'W'}`)
      .sort();
    assert.deepEqual(byLine, ['4:missing-answer:E', '5:duplicate-in-file:E', '6:invalid-status:E', '8:exists:W'].sort());
    assert.match(summaries[0], /Dry run of 7 rows/);
    assert.match(summaries[0], /4 can be imported \(3 new, 1 update existing Q&As\)/);
    await vscode.commands.executeCommand('workbench.panel.markers.view.focus');
    await screenshot('qna-import-problems');
    await vscode.commands.executeCommand('workbench.action.closePanel');

    await run(api, 'knowledgeDesk.qna.importFile', ['Import 4 Rows'], file);
    const client = await api.container.connection.getClient();
    const vpn = (await client.faq.filter({ searchTerm: 'VPN' })).results.find((r) => r.question === 'How do I reset my VPN password?')!;
    const detail = await client.faq.get(vpn.id, { format: 'text' });
    assert.deepEqual(detail.similar_questions, ['VPN password reset', 'Forgot VPN password']);
    assert.deepEqual(detail.hashtags.sort(), ['it', 'vpn']);
    assert.equal(detail.folder, 'IT');
    const hours = (await client.faq.filter({ searchTerm: 'office hours' })).results;
    assert.equal(hours.length, 1, 'the existing question was updated, not duplicated');
    assert.match(hours[0].answer, /8:00–20:00/);
    await run(api, 'knowledgeDesk.qna.importFile', ['Import 4 Rows'], file);
    assert.equal((await client.faq.filter({ searchTerm: 'VPN' })).total_count, 1, 're-running an import is safe');
  });

  it('imports an XLSX with Japanese headers, and the local service reads one uploaded as is (exceljs loaded from its own bundle file)', async function () {
    this.timeout(60_000);
    const file = vscode.Uri.joinPath(ws(), 'qa', 'import.xlsx');
    await run(api, 'knowledgeDesk.qna.importFile', ['Import 2 Rows'], file);
    const client = await api.container.connection.getClient();
    const found = (await client.faq.filter({ hashtags: ['xlsx'] })).results.map((r) => r.question).sort();
    assert.deepEqual(found, ['Where is the XLSX help desk?', 'XLSXの問い合わせ先は？'].sort());
    for (const r of (await client.faq.filter({ hashtags: ['xlsx'] })).results) await client.faq.delete(r.id);
    const uploaded = await client.faq.uploadFile({ kind: 'file', path: file.fsPath, fileName: 'import.xlsx' });
    assert.deepEqual(uploaded.notUploaded, []);
    assert.equal((await client.faq.filter({ hashtags: ['xlsx'] })).results.length, 2);
    for (const r of (await client.faq.filter({ hashtags: ['xlsx'] })).results) await client.faq.delete(r.id);
  });

  it('exports Q&As to CSV with CSV-injection escaping', async () => {
    const client = await api.container.connection.getClient();
    await client.faq.register({ question: '=HYPERLINK("http://evil.example","click")', answer: '+1 dial now', status: 'on' });
    const target = vscode.Uri.joinPath(ws(), 'export.csv');
    await run(api, 'knowledgeDesk.qna.exportCsv', [], target);
    const text = Buffer.from(await vscode.workspace.fs.readFile(target)).toString('utf8');
    assert.ok(text.startsWith('\ufeffquestion,answer'), text.slice(0, 40));
    assert.match(text, /"'=HYPERLINK\(""http:\/\/evil\.example"",""click""\)",'\+1 dial now/);
    assert.match(text, /経費はいつまでに申請しますか？/);
  });

  it('adds candidates from selected lines and lists them with their frequency', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: '- How do I change my display language?\n- Where is the fire exit?\n' });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(0, 0, 1, 100);
    await run(api, 'knowledgeDesk.candidates.addFromSelection', []);
    const children = await qna(api).candidates.getChildren();
    const names = children.flatMap((e: { kind: string; candidate?: { questions: Array<{ question: string }> } }) =>
      e.kind === 'candidate' && e.candidate ? [e.candidate.questions[0].question] : [],
    );
    assert.ok(names.includes('How do I change my display language?') && names.includes('Where is the fire exit?'), names.join(', '));
  });
});
