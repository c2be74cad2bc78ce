// Entry of dist/cli.js, the `knowledge-desk` command: `test` runs knowledge tests, `sync` syncs a folder into the
// knowledge base, `qna` plans and applies a Q&A import, `mcp` runs the MCP server exactly as dist/mcp.js does.
// Results go to stdout, progress and problems to stderr. Exit codes: 0 done (all passed), 1 something failed
// (a test, a file, a row), 2 a usage or configuration error.
import { ConfigError, refuseKeyArguments } from '../mcp/mcpConfig';

// Each command's modules load when it runs (esbuild keeps a bundled import() lazy): `mcp` does not pay for the
// test runner, nor `test` for the MCP SDK.
const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export const VERSION = '0.1.0';

const USAGE = `Usage: knowledge-desk <command> [options]

Commands:
  test [FILES…]           run knowledge tests (*.kdtest.yaml, *.kdtest.csv) against a Knowledge Desk service
  sync DIR --folder PATH  sync a folder into a knowledge-base folder (--plan shows what it would do)
  qna plan|apply FILE     the Q&A import of a CSV, TSV or XLSX file: its dry run, or the import itself
  mcp                     run the MCP server (stdio) with the knowledge tools, as dist/mcp.js

Run knowledge-desk <command> --help for a command's options. API keys come from the environment
(KNOWLEDGE_DESK_API_KEY) or a key file (--key-file), never from an argument.`;

export async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    refuseKeyArguments(argv);
  } catch (error) {
    process.stderr.write(`knowledge-desk: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  if (command === 'test') return (await import('./testCommand')).testCommand(rest);
  if (command === 'sync') return (await import('./syncCommand')).syncCommand(rest);
  if (command === 'qna') return (await import('./qnaCommand')).qnaCommand(rest);
  if (command === 'mcp') {
    // The server keeps running until its client closes stdin; it sets the exit code itself.
    await (await import('../mcp/mcpMain')).main(rest, 'knowledge-desk mcp');
    return -1;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    (command === undefined ? process.stderr : process.stdout).write(`${USAGE}\n`);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  process.stderr.write(`knowledge-desk: unknown command "${command}"\n\n${USAGE}\n`);
  return EXIT.usage;
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `knowledge-desk: ${error instanceof ConfigError ? '' : 'failed: '}${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = error instanceof ConfigError ? EXIT.usage : EXIT.failed;
  },
);
