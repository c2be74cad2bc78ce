// `knowledge-desk test [FILES…]`: reads the test files, connects as the MCP server does (the local service of a
// data folder, or a region / URL with the key from the environment), runs the tests and prints a report.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runKnowledgeTestsInBulk } from '../ai/bulkTestRunner';
import { DEFAULT_CONCURRENCY, runKnowledgeTests, type TestOutcome, type TestToRun } from '../ai/knowledgeTestRunner';
import { REPORTERS, report, totals, type ReporterName, type RunReport } from '../core/knowledgeTests/reporters';
import { ConfigError } from '../mcp/mcpConfig';
import { CONNECTION_HELP, EXIT, concurrencyOf, connect, connectionOf, parseCommandArgs, progress, type Connected } from './connect';
import { findTestFiles, readTestFile } from './testFiles';

export const TEST_USAGE = `Usage: knowledge-desk test [FILES…] [options]

Runs knowledge tests (*.kdtest.yaml, *.kdtest.csv; a folder means the test files in it; none: those under
the current folder) and prints the results on stdout. Progress goes to stderr.

${CONNECTION_HELP}
  --reporter NAME      text (default), junit or json
  --out FILE           write the report to FILE instead of stdout
  --concurrency N      tests run at once (default ${DEFAULT_CONCURRENCY}, at most 32)
  --bulk               send the generative-answer tests (without scope, sources or hashtags) as one
                       bulk-processing job and check its result file; the others run one by one, and
                       all do when the deployment has no bulk processing
  -h, --help           this help

Exit status: 0 every test passed, 1 a test failed or errored or a test file has a problem,
2 a usage or configuration error (nothing was tested).`;

interface TestArgs {
  files: string[];
  reporter: ReporterName;
  out?: string;
  concurrency: number;
  bulk: boolean;
  values: Record<string, unknown>;
}

export function parseTestArgs(argv: string[]): TestArgs | 'help' {
  const { values, positionals } = parseCommandArgs(argv, {
    reporter: { type: 'string' },
    out: { type: 'string' },
    bulk: { type: 'boolean' },
  });
  if (values.help) return 'help';
  const reporter = values.reporter ?? 'text';
  if (!(REPORTERS as readonly string[]).includes(reporter)) throw new ConfigError(`--reporter ${reporter}: use ${REPORTERS.join(', ')}.`);
  const concurrency = concurrencyOf(values.concurrency, DEFAULT_CONCURRENCY, 32);
  return { files: positionals, reporter: reporter as ReporterName, out: values.out, concurrency, bulk: !!values.bulk, values };
}

export async function testCommand(argv: string[], cwd = process.cwd()): Promise<number> {
  let args: TestArgs | 'help';
  let connection;
  try {
    args = parseTestArgs(argv);
    if (args === 'help') {
      process.stdout.write(`${TEST_USAGE}\n`);
      return EXIT.ok;
    }
    connection = connectionOf(args.values);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`knowledge-desk test: ${error.message}\n\n${TEST_USAGE}\n`);
    return EXIT.usage;
  }
  const started = Date.now();
  const run: RunReport = { outcomes: [], problems: [], durationMs: 0 };
  const items: TestToRun[] = [];
  try {
    for (const full of await findTestFiles(args.files, cwd)) {
      const file = path.relative(cwd, full) || full;
      const parsed = await readTestFile(full);
      run.problems.push(...parsed.diagnostics.map((diagnostic) => ({ file, diagnostic })));
      items.push(...parsed.tests.map((test) => ({ file, test })));
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`knowledge-desk test: ${error.message}\n`);
    return EXIT.usage;
  }
  for (const { file, diagnostic: d } of run.problems) progress(`${file}:${d.start.line}:${d.start.column}: ${d.severity}: ${d.message}`);

  let connected: Connected;
  try {
    connected = await connect(connection);
  } catch (error) {
    process.stderr.write(`knowledge-desk test: cannot open the local service: ${(error as Error).message}\n`);
    return EXIT.usage;
  }

  const abort = new AbortController();
  const onSigint = (): void => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onSigint);
  let done = 0;
  try {
    progress(`running ${items.length} test${items.length === 1 ? '' : 's'} (${args.concurrency} at a time)`);
    const options = {
      concurrency: args.concurrency,
      signal: abort.signal,
      onOutcome: (o: TestOutcome) =>
        progress(`[${++done}/${items.length}] ${o.status.toUpperCase()} ${o.test.title} (${o.file}:${o.test.start.line})`),
    };
    run.outcomes = args.bulk
      ? await runKnowledgeTestsInBulk(connected.client, items, {
          ...options,
          log: progress,
          onBulkProgress: (p) => progress(`bulk job: ${p.status}${p.total != null ? ` ${p.processed ?? 0}/${p.total}` : ''}`),
        })
      : await runKnowledgeTests(connected.client, items, options);
  } catch (error) {
    if (!abort.signal.aborted) throw error;
    progress('interrupted: no report');
    return EXIT.failed;
  } finally {
    process.off('SIGINT', onSigint);
    await connected.close();
  }
  run.durationMs = Date.now() - started;
  const text = report(args.reporter, run);
  if (args.out) {
    await writeFile(path.resolve(cwd, args.out), text);
    progress(`report written to ${args.out}`);
  } else process.stdout.write(text);
  const t = totals(run);
  if (args.reporter !== 'text' || args.out) progress(`${t.tests} tests: ${t.passed} passed, ${t.failed} failed, ${t.errored} errored`);
  return t.failed || t.errored || t.problems ? EXIT.failed : EXIT.ok;
}
