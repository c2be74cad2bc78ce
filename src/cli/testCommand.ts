// `knowledge-desk test [FILES…]`: reads the test files, connects as the MCP server does (the local service of a
// data folder, or a region / URL with the key from the environment), runs the tests and prints a report.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient } from '../api/client';
import { DEFAULT_CONCURRENCY, runKnowledgeTests, type TestToRun } from '../ai/knowledgeTestRunner';
import { REPORTERS, report, totals, type ReporterName, type RunReport } from '../core/knowledgeTests/reporters';
import { openLocalEndpoint, type LocalEndpoint } from '../mcp/localEndpoint';
import { CONNECTION_OPTIONS, ConfigError, KEY_ENV, KEY_FILE_ENV, connectionFrom } from '../mcp/mcpConfig';
import { findTestFiles, readTestFile } from './testFiles';

/** The same codes as src/cli/entry.ts. */
const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export const TEST_USAGE = `Usage: knowledge-desk test [FILES…] [options]

Runs knowledge tests (*.kdtest.yaml, *.kdtest.csv; a folder means the test files in it; none: those under
the current folder) and prints the results on stdout. Progress goes to stderr.

  --local              the local service of a data folder (the default when no region or URL is given)
  --data DIR           its data folder (default: the VS Code extension's, or $KNOWLEDGE_DESK_DATA_DIR)
  --region us|ja       a hosted region (or $KNOWLEDGE_DESK_REGION)
  --base-url URL       an on-premises service (or $KNOWLEDGE_DESK_BASE_URL)
  --key-file FILE      a file holding the API key (or $${KEY_FILE_ENV}); otherwise $${KEY_ENV}
  --reporter NAME      text (default), junit or json
  --out FILE           write the report to FILE instead of stdout
  --concurrency N      tests run at once (default ${DEFAULT_CONCURRENCY}, at most 32)
  -h, --help           this help

Exit status: 0 every test passed, 1 a test failed or errored or a test file has a problem,
2 a usage or configuration error (nothing was tested).`;

const VERSION = '0.1.0';
const progress = (message: string): void => void process.stderr.write(`${message}\n`);

interface TestArgs {
  files: string[];
  reporter: ReporterName;
  out?: string;
  concurrency: number;
  values: Record<string, unknown>;
}

export function parseTestArgs(argv: string[]): TestArgs | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...CONNECTION_OPTIONS,
        reporter: { type: 'string' },
        out: { type: 'string' },
        concurrency: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const reporter = values.reporter ?? 'text';
  if (!(REPORTERS as readonly string[]).includes(reporter)) throw new ConfigError(`--reporter ${reporter}: use ${REPORTERS.join(', ')}.`);
  const concurrency = values.concurrency === undefined ? DEFAULT_CONCURRENCY : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) {
    throw new ConfigError(`--concurrency ${values.concurrency}: a whole number from 1 to 32.`);
  }
  return { files: positionals, reporter: reporter as ReporterName, out: values.out, concurrency, values };
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
    connection = connectionFrom(args.values);
    if (connection.kind === 'remote' && !connection.apiKey) {
      throw new ConfigError(`${connection.keyProblem ?? 'No API key is configured.'} Set ${KEY_ENV} or use --key-file.`);
    }
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

  let local: LocalEndpoint | undefined;
  let client: ApiClient;
  try {
    if (connection.kind === 'local') {
      local = await openLocalEndpoint(connection.dataDir, { info: progress, warn: progress });
      client = new ApiClient({ baseUrl: local.url, apiKey: local.apiKey, userAgent: `knowledge-desk-cli/${VERSION}` });
    } else {
      progress(`testing against ${connection.label}`);
      client = new ApiClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey!, userAgent: `knowledge-desk-cli/${VERSION}` });
    }
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
    run.outcomes = await runKnowledgeTests(client, items, {
      concurrency: args.concurrency,
      signal: abort.signal,
      onOutcome: (o) => progress(`[${++done}/${items.length}] ${o.status.toUpperCase()} ${o.test.title} (${o.file}:${o.test.start.line})`),
    });
  } catch (error) {
    if (!abort.signal.aborted) throw error;
    progress('interrupted: no report');
    return EXIT.failed;
  } finally {
    process.off('SIGINT', onSigint);
    await local?.close?.();
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
