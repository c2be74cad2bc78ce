// Journey 2: export the Q&As to CSV, edit the file as a person does in the editor, dry-run it (what does it say it
// will change?), import it (nothing lost), then import the same file again (nothing changes).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { QaFields } from '../../src/core/qaFields';
import { DETAILS_SCHEME } from '../../src/platform/detailsDocument';
import { getApi, resetWorkbench, runCommand, scriptInput, useService } from '../integration/support/host';
import { shoot } from './support/journey';

const TAG = `journey-rt-${process.pid}`;
const A: QaFields = {
  question: 'Journey: when is the expense report due?',
  answer: 'By the 5th of the next month.',
  status: 'on',
  similarQuestions: ['Expense report deadline', '経費精算の締め日は？'],
  hashtags: [TAG, 'expenses'],
  folder: 'Finance',
  allowOtherUsersView: false,
};
const B: QaFields = {
  question: 'Journey: who approves paid leave?',
  answer: 'Your manager approves it.',
  status: 'off',
  similarQuestions: ['Leave approval'],
  hashtags: [TAG, 'hr'],
  folder: 'HR',
};
const C: QaFields = {
  question: 'Journey: where is the VPN guide?',
  answer: 'In the IT folder of the knowledge base.',
  status: 'on',
  similarQuestions: ['VPN manual', 'VPN setup guide'],
  hashtags: [TAG, 'it'],
  folder: 'IT',
};

/** What a person would call "the Q&A": every field the service keeps for it. */
async function record(client: ApiClient, id: string): Promise<Record<string, unknown>> {
  const d = await client.faq.get(id, { format: 'text' });
  return {
    question: d.question,
    answer: d.answer,
    status: d.status,
    similarQuestions: [...d.similar_questions].sort(),
    hashtags: [...d.hashtags].sort(),
    folder: d.folder,
    allowOtherUsersView: d.allowOtherUsersView,
    allowOtherAgentsView: d.allowOtherAgentsView,
  };
}

/** Reads a localized message back: the numbers in its placeholders `{0}`…, by index (a translation may reorder them). */
function readMessage(template: string, args: number, message: string): string[] | undefined {
  const marks = Array.from({ length: args }, (_, i) => `\u0001${i}\u0001`);
  const filled = vscode.l10n.t(template, ...marks);
  const order = marks.map((m, i) => [filled.indexOf(m), i] as const).sort((a, b) => a[0] - b[0]);
  const pattern = marks.reduce((t, m) => t.replace(m, '(.*?)'), filled.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const m = new RegExp(pattern).exec(message);
  if (!m) return undefined;
  const values: string[] = [];
  order.forEach(([, index], group) => (values[index] = m[group + 1]));
  return values;
}

const DRY_RUN =
  'Dry run of {0} rows ({1}): {2} can be imported ({3} new, {4} update existing Q&As); {5} with errors, {6} warnings. Columns: {7}.';

/** New and updated rows the dry run's summary counts ("{3} new, {4} update existing Q&As"). */
function dryRunCounts(message: string): { created: number; updated: number } | undefined {
  const v = readMessage(DRY_RUN, 8, message);
  return v ? { created: Number(v[3]), updated: Number(v[4]) } : undefined;
}

interface ImportRun {
  /** Every prompt's message, in order. */
  asked: string[];
  /** The dry run's summary. */
  dryRun: string;
  /** The text of the "Show Changes" report ('' when the dry run did not offer it). */
  changes: string;
}

/**
 * Runs Import Q&A File as a person does: on the dry run, "Show Changes" (when offered) and reads the report, then
 * "Import N Rows"; "Keep what is there" when asked about removals.
 */
async function importFile(api: KnowledgeDeskTestApi, file: vscode.Uri): Promise<ImportRun> {
  const run: ImportRun = { asked: [], dryRun: '', changes: '' };
  const [importPre, importPost] = vscode.l10n.t('Import {0} Rows', '\u0000').split('\u0000');
  const showChanges = vscode.l10n.t('Show Changes');
  const keep = vscode.l10n.t('Keep what is there');
  const respond = (p: { kind: string; options: unknown; actions?: readonly string[] }): unknown => {
    const message = typeof p.options === 'string' ? p.options : JSON.stringify(p.options);
    const actions = p.actions ?? [];
    run.asked.push(`${p.kind}: ${message} [${actions.join(' | ')}]`);
    if (p.kind !== 'warningMessage') throw new Error(`unexpected ${p.kind} during the import: ${message}`);
    if (actions.includes(keep)) return keep;
    const importRows = actions.find((a) => a.startsWith(importPre) && a.endsWith(importPost));
    if (!importRows) throw new Error(`the dry run offers no import button: ${message} [${actions.join(' | ')}]`);
    run.dryRun = message;
    if (actions.includes(showChanges) && !run.changes) {
      run.changes = '(asked)';
      return showChanges;
    }
    if (run.changes === '(asked)') {
      // The report Show Changes just opened: the newest of its kind (an earlier import's may still be open).
      const report = vscode.workspace.textDocuments
        .filter((d) => d.uri.scheme === DETAILS_SCHEME && d.getText().includes(path.basename(file.fsPath)))
        .sort((a, b) => Number(b.uri.query) - Number(a.uri.query))[0];
      run.changes = report?.getText() ?? '(Show Changes opened no report)';
    }
    return importRows;
  };
  const input = scriptInput(api, [respond, respond, respond, respond]);
  const errors = api.probe.errorsShown.total;
  try {
    await vscode.commands.executeCommand('knowledgeDesk.qna.importFile', file);
  } finally {
    input.restore();
  }
  assert.deepEqual(api.probe.errorsShown.since(errors), [], 'the import showed an error');
  console.log(`journey qna: the import asked:\n  ${run.asked.join('\n  ')}`);
  return run;
}

describe('Journey: Q&A round trip through a CSV', () => {
  let api: KnowledgeDeskTestApi;
  let client: ApiClient;
  const ids: Record<'A' | 'B' | 'C', string> = { A: '', B: '', C: '' };
  let file: vscode.Uri;

  before(async () => {
    api = await getApi();
    await resetWorkbench(api);
    client = await useService(api);
    for (const [key, qa] of Object.entries({ A, B, C }) as Array<['A' | 'B' | 'C', QaFields]>)
      ids[key] = (await client.faq.register(qa)).id;
    file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, `qna-journey-${process.pid}.csv`);
  });

  after(async () => {
    for (const id of Object.values(ids)) if (id) await client.faq.delete(id).catch(() => undefined);
    await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
    await resetWorkbench(api);
  });

  it('export → edit the CSV → dry run lists the changes → import: nothing lost → import again: only the kept removal is asked again', async function () {
    this.timeout(300_000);
    const before = { A: await record(client, ids.A), B: await record(client, ids.B), C: await record(client, ids.C) };

    // 1. Export every Q&A to a CSV and open it.
    await runCommand(api, 'knowledgeDesk.qna.exportCsv', [], file);
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    const exported = doc.getText();
    for (const qa of [A, B, C]) assert.ok(exported.includes(qa.question), `${qa.question} is in the export`);
    await shoot('qna-round-trip-01-exported');

    // 2. Edit it: A's answer changes; B's hashtags are typed with Japanese and full-width separators (、，) and gain
    //    "leave"; C's similar questions are deleted from the file (the Q&A keeps them unless the person says remove).
    const edited = exported
      .replace('By the 5th of the next month.', 'By the 7th of the next month.')
      .replace(new RegExp(`"${TAG}, hr"`), `${TAG}、hr，leave`)
      .replace(/"VPN manual\r?\nVPN setup guide"|"VPN setup guide\r?\nVPN manual"/, '');
    assert.notEqual(edited, exported);
    for (const [what, changed] of [
      ['A answer', !edited.includes('5th')],
      ['B hashtags', edited.includes(`${TAG}、hr，leave`)],
      ['C similar questions', !edited.includes('VPN manual')],
    ] as const) {
      assert.ok(changed, `the export did not have ${what} where a person finds it:\n${exported}`);
    }
    await editor.edit((e) => e.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(exported.length)), edited));
    await doc.save();
    await shoot('qna-round-trip-02-edited');

    // 3. and 4. Dry run, then import: the dry run lists what changes, the import changes only that.
    const findings: string[] = [];
    const first = await importFile(api, file);
    const counts = dryRunCounts(first.dryRun);
    // A and B change; C only loses its similar questions (counted as an update, asked about on its own).
    if (!counts || counts.created !== 0 || counts.updated !== 3) {
      findings.push(
        `dry run: expected 0 new and 3 updated rows (A, B, and C's removal; every other row identical), it said: ${first.dryRun}`,
      );
    }
    for (const qa of [A, B]) {
      if (!first.changes.includes(qa.question)) findings.push(`dry run: Show Changes does not list the change of "${qa.question}"`);
    }
    if (!first.asked.some((m) => m !== first.asked[0] && m.includes(C.question) && m.includes(vscode.l10n.t('Keep what is there')))) {
      findings.push(`dry run: did not ask whether to remove the similar questions of "${C.question}" left empty in the file`);
    }
    await shoot('qna-round-trip-03-imported');
    const after = { A: await record(client, ids.A), B: await record(client, ids.B), C: await record(client, ids.C) };
    const expected = {
      A: { ...before.A, answer: 'By the 7th of the next month.' },
      B: { ...before.B, hashtags: [TAG, 'hr', 'leave'].sort() },
      C: before.C,
    };
    for (const key of ['A', 'B', 'C'] as const) {
      for (const [field, value] of Object.entries(expected[key])) {
        const got = after[key][field];
        const same = field === 'answer' ? String(got).includes(String(value)) : JSON.stringify(got) === JSON.stringify(value);
        if (!same) findings.push(`after the import: ${key}.${field} is ${JSON.stringify(got)}, expected ${JSON.stringify(value)}`);
      }
    }

    // 5. Import the same file again: the dry run finds nothing to change, and nothing changes.
    const again = await importFile(api, file);
    const counts2 = dryRunCounts(again.dryRun);
    // What was kept is still what the file would remove: only C's removal is asked again; A and B are as the file has them.
    if (!counts2 || counts2.created !== 0 || counts2.updated !== 1)
      findings.push(`second dry run: expected only C's removal (0 new, 1 update), it said: ${again.dryRun}`);
    if (again.changes.includes(A.question) || again.changes.includes(B.question))
      findings.push(`second dry run: Show Changes lists A or B again:\n${again.changes}`);
    const final = { A: await record(client, ids.A), B: await record(client, ids.B), C: await record(client, ids.C) };
    for (const key of ['A', 'B', 'C'] as const) {
      if (JSON.stringify(final[key]) !== JSON.stringify(after[key])) {
        findings.push(`second import changed ${key}: ${JSON.stringify(after[key])} → ${JSON.stringify(final[key])}`);
      }
    }
    await shoot('qna-round-trip-04-imported-again');
    assert.deepEqual(findings, [], findings.join('\n'));
  });
});
