// What every command that talks to a service shares: its arguments read strictly (a usage error is a
// ConfigError, exit 2), the service named as the MCP server names it (src/mcp/mcpConfig.ts), and a client.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ApiClient } from '../api/client';
import { openLocalEndpoint } from '../mcp/localEndpoint';
import { CONNECTION_OPTIONS, ConfigError, KEY_ENV, connectionFrom, type ConnectionValues, type McpConfig } from '../mcp/mcpConfig';

/** The same codes for every command (src/cli/entry.ts). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export const VERSION = '0.1.0';

/** A command's arguments: its positionals, its own options and those of every command that connects. */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], own: O) {
  return parseStrict({ args: argv, allowPositionals: true as const, options: { ...COMMAND_OPTIONS, ...own } });
}

/** The connection options' lines of every command's --help. */
export const CONNECTION_HELP = `  --local              the local service of a data folder (the default when no region or URL is given)
  --data DIR           its data folder (default: the VS Code extension's, or $KNOWLEDGE_DESK_DATA_DIR)
  --region us|ja       a hosted region (or $KNOWLEDGE_DESK_REGION)
  --base-url URL       an on-premises service (or $KNOWLEDGE_DESK_BASE_URL)
  --key-file FILE      a file holding the API key (or $KNOWLEDGE_DESK_API_KEY_FILE); otherwise $${KEY_ENV}`;

/** The options of every command that connects: the service, --concurrency, --help. */
export const COMMAND_OPTIONS = {
  ...CONNECTION_OPTIONS,
  concurrency: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const progress = (message: string): void => void process.stderr.write(`${message}\n`);

/** node:util parseArgs, its errors (an unknown option, a missing value) as usage errors. */
export function parseStrict<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** The service the options name; a remote one without a key is a usage error (nothing can be done). */
export function connectionOf(values: ConnectionValues): McpConfig {
  const connection = connectionFrom(values);
  if (connection.kind === 'remote' && !connection.apiKey) {
    throw new ConfigError(`${connection.keyProblem ?? 'No API key is configured.'} Set ${KEY_ENV} or use --key-file.`);
  }
  return connection;
}

export interface Connected {
  client: ApiClient;
  isLocal: boolean;
  /**
   * Stops the local service when this process started it; after `processed`, once the documents it holds are
   * processed: a service started for one command would otherwise stop mid-way, and the next command (the
   * knowledge tests after a sync) would meet documents not yet searchable.
   */
  close(options?: { processed?: boolean }): Promise<void>;
}

/** A client of the service: the local service of the data folder (used where it runs, or started here), or the remote one. */
export async function connect(connection: McpConfig): Promise<Connected> {
  const userAgent = `knowledge-desk-cli/${VERSION}`;
  if (connection.kind === 'local') {
    const local = await openLocalEndpoint(connection.dataDir, { info: progress, warn: progress });
    return {
      client: new ApiClient({ baseUrl: local.url, apiKey: local.apiKey, userAgent }),
      isLocal: true,
      close: async (options) => {
        if (options?.processed && local.idle) {
          progress('waiting for the local service to process the documents before stopping it');
          await local.idle();
        }
        await local.close?.();
      },
    };
  }
  progress(`connecting to ${connection.label}`);
  return {
    client: new ApiClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey!, userAgent }),
    isLocal: false,
    close: () => Promise.resolve(),
  };
}

/** --concurrency N: a whole number from 1 to `max`. */
export function concurrencyOf(value: string | undefined, fallback: number, max: number): number {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new ConfigError(`--concurrency ${value}: a whole number from 1 to ${max}.`);
  return n;
}

/** What the commands that write to the service (qna, sync) take besides their own arguments. */
export interface WriteOptions {
  json: boolean;
  concurrency: number;
  connection: McpConfig;
}

/** parseCommandArgs for a command that writes: --json too (--concurrency and the service's options every command has). */
export function parseWriteCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], own: O) {
  return parseCommandArgs(argv, { json: { type: 'boolean' } as const, ...own });
}

/** --json, --concurrency (4 requests at once unless said, at most 16) and the service, from parsed values. */
export function writeOptionsOf(values: ConnectionValues & { json?: boolean; concurrency?: string }): WriteOptions {
  return { json: values.json === true, concurrency: concurrencyOf(values.concurrency, 4, 16), connection: connectionOf(values) };
}

/**
 * A command's start, the same for every command that connects: its arguments read (a usage error said with a
 * pointer to --help, exit 2), --help on stdout (exit 0), then the service opened. A number is the exit code.
 */
export async function openCommand<A extends { connection: McpConfig }>(
  name: string,
  usage: string,
  parse: () => Promise<A | 'help'>,
): Promise<{ args: A; connected: Connected } | number> {
  let args: A | 'help';
  try {
    args = await parse();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`knowledge-desk ${name}: ${error.message}\n\nRun knowledge-desk ${name} --help for its options.\n`);
    return EXIT.usage;
  }
  if (args === 'help') {
    process.stdout.write(`${usage}\n`);
    return EXIT.ok;
  }
  try {
    return { args, connected: await connect(args.connection) };
  } catch (error) {
    process.stderr.write(`knowledge-desk ${name}: cannot open the local service: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
}
