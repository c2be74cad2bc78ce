// `knowledge-desk qna plan|apply` end to end: the bundled CLI against the standalone local service (started
// here; the CLI finds it through the data folder's lock file), the Q&As read back with the real client.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildCliBundle, runCli, type Ran } from '../support/cliBundle';
import { startTestService, type TestService } from '../support/localService';

// Row 2 changes an answer and takes a hashtag away (a removal), row 3 is as it is, row 4 is new.
const CSV = `question,answer,hashtags
How many days of paid leave do I get?,Twenty-five days a year.,
Where is the Tokyo office?,In Marunouchi.,office
What time does the office open?,At 9:00.,office
`;

describe('knowledge-desk qna (dist/cli.js) against the standalone local service', function () {
  let bundle: Awaited<ReturnType<typeof buildCliBundle>>;
  let svc: TestService;
  let work: string;

  const qna = (...args: string[]): Promise<Ran> => runCli(bundle.cli, ['qna', ...args, '--local', '--data', svc.dir], work);

  /** Every Q&A as "question = answer #tags". */
  async function qas(): Promise<string[]> {
    const client = svc.client();
    const list = await client.faq.list({ limit: 1000, format: 'text' });
    const out: string[] = [];
    for (const r of list.results) {
      const d = await client.faq.get(r.id, { format: 'text' });
      out.push(`${d.question} = ${d.answer.trim()}${d.hashtags.map((t) => ` #${t}`).join('')}`);
    }
    return out.sort();
  }

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'kd-qna-cli-'));
    await writeFile(path.join(work, 'qa.csv'), CSV);
    await mkdir(path.join(work, 'folder.csv'));
    [bundle, svc] = await Promise.all([buildCliBundle(), startTestService({ fsync: false })]);
    const client = svc.client();
    await client.faq.register({
      question: 'How many days of paid leave do I get?',
      answer: 'Twenty days a year.',
      status: 'on',
      hashtags: ['hr'],
    });
    await client.faq.register({ question: 'Where is the Tokyo office?', answer: 'In Marunouchi.', status: 'on', hashtags: ['office'] });
  });
  after(async () => {
    await svc?.stop();
    await bundle?.remove();
    await rm(work, { recursive: true, force: true });
  });

  const BEFORE = ['How many days of paid leave do I get? = Twenty days a year. #hr', 'Where is the Tokyo office? = In Marunouchi. #office'];

  it('plan: the dry run with its field-by-field changes, nothing changed (exit 0); --json the same as data', async () => {
    const ran = await qna('plan', 'qa.csv');
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(
      ran.stdout,
      [
        'create   row 4 "What time does the office open?"',
        'update   row 2 "How many days of paid leave do I get?" (removes something: only with --remove)',
        '           answer changed',
        '           removal: hashtags #hr → (none)',
        '3 rows: 1 to create, 1 to update (1 with removals), 1 unchanged; 0 errors, 0 warnings (plan only: nothing was changed)',
        '',
      ].join('\n'),
    );
    const json = await qna('plan', 'qa.csv', '--json');
    assert.equal(json.code, 0, json.stderr);
    const data = JSON.parse(json.stdout) as {
      summary: Record<string, number>;
      update: Array<{ row: number; changes: Array<{ field: string; removes: boolean }> }>;
    };
    assert.deepEqual([data.summary.willCreate, data.summary.willUpdate, data.summary.unchanged, data.summary.removals], [1, 1, 1, 1]);
    assert.deepEqual(data.update[0].changes.map((c) => `${c.field}:${c.removes}`).sort(), ['answer:false', 'hashtags:true']);
    assert.deepEqual(await qas(), BEFORE);
  });

  it('apply: creates the new, updates the changed (a removal kept without --remove); a second apply sends nothing', async () => {
    const ran = await qna('apply', 'qa.csv');
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, 'imported 2 of 2 (1 created, 1 updated), 1 unchanged, 0 failed\n');
    assert.match(ran.stderr, /1 existing Q&A\(s\) would lose something: kept as they are \(--remove applies the removals\)/);
    const after = [
      'How many days of paid leave do I get? = Twenty-five days a year. #hr',
      'What time does the office open? = At 9:00. #office',
      'Where is the Tokyo office? = In Marunouchi. #office',
    ];
    assert.deepEqual(await qas(), after);
    const again = await qna('apply', 'qa.csv');
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, 'imported 0 of 0 (0 created, 0 updated), 2 unchanged, 0 failed\n');
    assert.deepEqual(await qas(), after);
    const removing = await qna('apply', 'qa.csv', '--remove', '--json');
    assert.equal(removing.code, 0, removing.stderr);
    assert.deepEqual(JSON.parse(removing.stdout), {
      total: 1,
      imported: 1,
      created: 0,
      updated: 1,
      unchanged: 2,
      cancelled: 0,
      failed: [],
    });
    assert.equal((await qas())[0], 'How many days of paid leave do I get? = Twenty-five days a year.');
  });

  it('a file with a bad row: the plan names the row (exit 1) and apply imports nothing (exit 1)', async () => {
    await writeFile(path.join(work, 'bad.csv'), `${CSV}A question without an answer,,\nWhat time does the office close?,At 18:00.,\n`);
    const before = await qas();
    const plan = await qna('plan', 'bad.csv');
    assert.equal(plan.code, 1);
    assert.match(plan.stdout, /^bad\.csv:5: error: Row 5 \(answer\): The answer is empty\.$/m);
    assert.match(plan.stdout, /; 1 errors, /);
    const apply = await qna('apply', 'bad.csv');
    assert.equal(apply.code, 1);
    assert.equal(apply.stdout, '');
    assert.match(
      apply.stderr,
      /Row 5 \(answer\): The answer is empty\.[\s\S]*bad\.csv: nothing imported: fix the rows with errors and apply again\./,
    );
    assert.deepEqual(await qas(), before);
  });

  it('bad arguments are usage errors (exit 2) that say what is wrong; keys are refused as arguments', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /plan or apply\?/],
      [['import', 'qa.csv'], /Unknown qna action "import": use plan or apply\./],
      [['plan'], /FILE: the Q&A file to plan is missing\./],
      [['apply', 'missing.csv'], /missing\.csv: no such file\./],
      [['plan', 'folder.csv'], /folder\.csv is a folder: qna takes a CSV, TSV or XLSX file\./],
      [['plan', 'qa.csv', 'more.csv'], /One file at a time, not 2\./],
      [['plan', 'qa.csv', '--remove'], /--remove applies to qna apply only/],
      [['plan', 'qa.csv', '--dry'], /Unknown option '--dry'/],
    ];
    for (const [args, message] of cases) {
      const ran = await qna(...args);
      assert.equal(ran.code, 2, args.join(' '));
      assert.match(ran.stderr, message, args.join(' '));
      assert.equal(ran.stdout, '');
    }
    const key = await runCli(bundle.cli, ['qna', 'apply', 'qa.csv', '--key=kd_secret_value', '--region', 'ja'], work);
    assert.equal(key.code, 2);
    assert.match(key.stderr, /--key is not accepted/);
    assert.doesNotMatch(key.stderr, /kd_secret_value/);
    const keyless = await runCli(bundle.cli, ['qna', 'plan', 'qa.csv', '--region', 'ja'], work);
    assert.equal(keyless.code, 2);
    assert.match(keyless.stderr, /No API key is configured\. Set KNOWLEDGE_DESK_API_KEY or use --key-file\./);
  });

  it('--help on qna (stdout, exit 0), and the tool lists sync and qna', async () => {
    const help = await runCli(bundle.cli, ['qna', 'plan', '--help'], work);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: knowledge-desk qna plan FILE \[options\]\n {7}knowledge-desk qna apply FILE \[--remove\]/);
    const top = await runCli(bundle.cli, ['--help'], work);
    assert.match(top.stdout, /^ {2}sync DIR --folder PATH {2}sync a folder/m);
    assert.match(top.stdout, /^ {2}qna plan\|apply FILE/m);
  });
});
