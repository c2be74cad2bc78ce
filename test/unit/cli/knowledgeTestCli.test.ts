import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SAMPLES } from '../../fixtures/retrieval/seededService';
import { buildCliBundle, runCli, type Ran } from '../support/cliBundle';
import { startTestService, type TestService } from '../support/localService';

const PASSING = `tests:
  - question: 国内出張の日当はいくらですか
    assert:
      - cites: 経費精算ガイド.md
      - contains: ２，０００円
  - question: What are the opening hours of the Tokyo office?
    mode: retrieval
    assert:
      - retrieves: { document: faq-overview.md, page: 1 }
`;

const FAILING = `tests:
  - question: What are the opening hours of the Tokyo office?
    assert:
      - cites: faq-overview.md
      - contains: 24 hours
`;

describe('knowledge-desk test (dist/cli.js) against the standalone local service', function () {
  let bundle: Awaited<ReturnType<typeof buildCliBundle>>;
  let seeded: TestService;
  let work: string;

  const cli = (args: string[], env: Record<string, string> = {}): Promise<Ran> => runCli(bundle.cli, args, work, env);

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'kd-cli-'));
    // Two small sample documents: seeding the whole sample knowledge base (PDFs included) takes far longer.
    const seed = path.join(work, 'seed');
    await mkdir(path.join(seed, '経費'), { recursive: true });
    await cp(path.join(SAMPLES, 'faq-overview.md'), path.join(seed, 'faq-overview.md'));
    await cp(path.join(SAMPLES, '経費', '経費精算ガイド.md'), path.join(seed, '経費', '経費精算ガイド.md'));
    await writeFile(path.join(work, 'pass.kdtest.yaml'), PASSING);
    await writeFile(path.join(work, 'fail.kdtest.yaml'), FAILING);
    [bundle, seeded] = await Promise.all([buildCliBundle(), startTestService({ seedDir: seed, fsync: false })]);
    await seeded.service.processingIdle();
  });
  after(async () => {
    await seeded?.stop();
    await bundle?.remove();
    await rm(work, { recursive: true, force: true });
  });

  it('exits 0 when every test passes, results on stdout and progress on stderr', async () => {
    const ran = await cli(['test', 'pass.kdtest.yaml', '--local', '--data', seeded.dir]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /^PASS {2}国内出張の日当はいくらですか {2}\(pass\.kdtest\.yaml:2, \d+ ms\)$/m);
    assert.match(ran.stdout, /2 tests: 2 passed, 0 failed, 0 errored/);
    assert.match(ran.stderr, /using the local service of process \d+/);
    assert.match(ran.stderr, /\[2\/2\] PASSED/);
    assert.doesNotMatch(ran.stdout, /\[1\/2\]/);
  });

  it('exits 1 when a test fails, the failure in the JUnit report (--out writes it to a file)', async () => {
    const ran = await cli(['test', '--local', '--data', seeded.dir, '--reporter', 'junit', 'fail.kdtest.yaml', 'pass.kdtest.yaml']);
    assert.equal(ran.code, 1, ran.stderr);
    assert.match(
      ran.stdout,
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="knowledge-desk" tests="3" failures="1" errors="0"/,
    );
    assert.match(
      ran.stdout,
      /<testcase name="What are the opening hours of the Tokyo office\?" classname="fail\.kdtest\.yaml" file="fail\.kdtest\.yaml" line="2" time="[\d.]+">\n {6}<failure message="The answer does not contain &quot;24 hours&quot;\." type="assertion">/,
    );
    const out = await cli([
      'test',
      '.',
      '--local',
      '--data',
      seeded.dir,
      '--reporter',
      'json',
      '--out',
      'report.json',
      '--concurrency',
      '1',
    ]);
    assert.equal(out.code, 1);
    assert.equal(out.stdout, '');
    const report = JSON.parse(await readFile(path.join(work, 'report.json'), 'utf8')) as { totals: Record<string, number> };
    assert.deepEqual(report.totals, { tests: 3, passed: 2, failed: 1, errored: 0, problems: 0 });
  });

  it('--bulk gives the verdicts of one request per test, the answer tests through one bulk job', async () => {
    const args = ['test', 'fail.kdtest.yaml', 'pass.kdtest.yaml', '--local', '--data', seeded.dir];
    const [bulk, single] = [await cli([...args, '--bulk']), await cli(args)];
    assert.equal(bulk.code, 1, bulk.stderr);
    const verdicts = (out: string): string[] =>
      out
        .split('\n')
        .filter((l) => /^(PASS|FAIL|ERROR)/.test(l))
        .map((l) => l.replace(/, \d+ ms\)$/, ')'));
    assert.equal(verdicts(bulk.stdout).length, 3);
    assert.deepEqual(verdicts(bulk.stdout), verdicts(single.stdout));
    assert.match(bulk.stdout, /3 tests: 2 passed, 1 failed, 0 errored/);
    assert.match(bulk.stderr, /^bulk job [\w-]+: 2 tests, 1 more one by one$/m);
    assert.match(bulk.stderr, /^bulk job: completed 2\/2$/m);
  });

  it('exits 1 on a test file with a problem, reported at its line, while its other tests run', async () => {
    await writeFile(path.join(work, 'broken.kdtest.yaml'), PASSING.replace('      - contains: ２，０００円', '      - containz: x'));
    const ran = await cli(['test', 'broken.kdtest.yaml', '--local', '--data', seeded.dir]);
    await rm(path.join(work, 'broken.kdtest.yaml'));
    assert.equal(ran.code, 1);
    assert.match(ran.stdout, /^broken\.kdtest\.yaml:5:9: error: Unknown assertion "containz"/m);
    assert.match(ran.stdout, /1 tests: 1 passed, 0 failed, 0 errored; 1 problems in test files/);
  });

  it('exits 2 on a usage error, saying why: an unknown flag, a bad reporter, no test files', async () => {
    const flag = await cli(['test', '--bogus', '--local', '--data', seeded.dir]);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /Unknown option '--bogus'/);
    assert.equal(flag.stdout, '');
    const reporter = await cli(['test', '--reporter', 'xml', '--local', '--data', seeded.dir]);
    assert.equal(reporter.code, 2);
    assert.match(reporter.stderr, /--reporter xml: use text, junit, json\./);
    const none = await cli(['test', 'seed', '--local', '--data', seeded.dir]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /No knowledge test files/);
    const command = await cli(['tset']);
    assert.equal(command.code, 2);
    assert.match(command.stderr, /unknown command "tset"/);
  });

  it('refuses a key given as an argument (exit 2) without echoing it, and a remote service without a key', async () => {
    for (const args of [
      ['test', '--api-key=kd_secret_value', '--region', 'us'],
      ['test', '--key', 'kd_secret_value'],
      ['mcp', '--apikey=kd_secret_value'],
    ]) {
      const ran = await cli(args);
      assert.equal(ran.code, 2, args.join(' '));
      assert.match(ran.stderr, /is not accepted: a key on the command line leaks into process lists/);
      assert.doesNotMatch(ran.stderr + ran.stdout, /kd_secret_value/);
    }
    const keyless = await cli(['test', 'pass.kdtest.yaml', '--region', 'us']);
    assert.equal(keyless.code, 2);
    assert.match(keyless.stderr, /No API key is configured\. Set KNOWLEDGE_DESK_API_KEY or use --key-file\./);
  });

  it('--help on the tool and on each command (exit 0)', async () => {
    const top = await cli(['--help']);
    assert.equal(top.code, 0);
    assert.match(top.stdout, /^Usage: knowledge-desk <command>/);
    const test = await cli(['test', '--help']);
    assert.equal(test.code, 0);
    assert.match(test.stdout, /--reporter NAME {6}text \(default\), junit or json/);
    assert.match(test.stdout, /--bulk {15}send the generative-answer tests/);
    const mcp = await cli(['mcp', '--help']);
    assert.equal(mcp.code, 0);
    assert.match(mcp.stderr, /An MCP server \(stdio\)/);
    // Named as it was run, not as dist/mcp.js.
    assert.match(mcp.stderr, /^Usage: knowledge-desk mcp \[--local/);
  });

  it('mcp runs the MCP server over stdio, as dist/mcp.js does, and stops when stdin closes', async () => {
    const child = spawn(process.execPath, [bundle.cli, 'mcp', '--local', '--data', seeded.dir], { cwd: work, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'kd-test', version: '1' } };
    child.stdin.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init })}\n`);
    assert.equal(await exited, 0, stderr);
    const reply = JSON.parse(stdout.trim().split('\n')[0]) as { id: number; result: { serverInfo: { name: string } } };
    assert.equal(reply.id, 1);
    assert.equal(reply.result.serverInfo.name, 'knowledge-desk');
    assert.match(stderr, /\[knowledge-desk mcp\] stdin closed: stopping/);
  });

  it('starts the local service itself on a data folder nobody serves, and stops it after the run', async () => {
    const fresh = path.join(work, 'fresh-data');
    await writeFile(
      path.join(work, 'empty.kdtest.yaml'),
      'tests:\n  - question: What is the capital of Mongolia?\n    assert:\n      - noAnswer: true\n',
    );
    const ran = await cli(['test', 'empty.kdtest.yaml', '--local', '--data', fresh]);
    await rm(path.join(work, 'empty.kdtest.yaml'));
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stderr, /started the local service on http:\/\/127\.0\.0\.1:\d+/);
    assert.match(ran.stdout, /1 tests: 1 passed/);
  });
});
