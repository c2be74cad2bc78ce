// The MCP server's program, run by dist/mcp.js (src/mcp/entry.ts) and by `knowledge-desk mcp` (src/cli):
// `--local` (or --region/--base-url with the key in the environment) serves the knowledge tools over stdio.
// Logs go to stderr, never the key; it exits when stdin closes.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ApiClient } from '../api/client';
import { MissingKeyError } from '../ai/toolErrors';
import { openLocalEndpoint, type LocalEndpoint } from './localEndpoint';
import { ConfigError, KEY_ENV, KEY_FILE_ENV, mcpUsage, parseConfig, type McpConfig } from './mcpConfig';
import { createMcpServer } from './mcpServer';

const VERSION = '0.1.0';
export const log = (message: string): void => void process.stderr.write(`[knowledge-desk mcp] ${message}\n`);

export async function main(argv: string[], command?: string): Promise<void> {
  let config: McpConfig | 'help';
  try {
    config = parseConfig(argv);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n\n${mcpUsage(command)}\n`);
    process.exitCode = 2;
    return;
  }
  if (config === 'help') {
    process.stderr.write(`${mcpUsage(command)}\n`);
    return;
  }
  const cfg = config;
  log(
    cfg.kind === 'local'
      ? `serving the local service's data in ${cfg.dataDir}`
      : `serving ${cfg.label}${cfg.apiKey ? '' : ' (no API key)'}`,
  );

  let local: Promise<LocalEndpoint> | undefined;
  let client: Promise<ApiClient> | undefined;
  const makeClient = async (): Promise<ApiClient> => {
    if (cfg.kind === 'remote') {
      if (!cfg.apiKey) throw new MissingKeyError(`${cfg.keyProblem ?? 'No API key is configured.'}`);
      return new ApiClient({ baseUrl: cfg.baseUrl, apiKey: cfg.apiKey, userAgent: `knowledge-desk-mcp/${VERSION}` });
    }
    local ??= openLocalEndpoint(cfg.dataDir, { info: log, warn: log });
    const endpoint = await local.catch((error: unknown) => {
      local = undefined;
      throw error;
    });
    return new ApiClient({ baseUrl: endpoint.url, apiKey: endpoint.apiKey, userAgent: `knowledge-desk-mcp/${VERSION}` });
  };
  const hints =
    cfg.kind === 'local'
      ? {
          setKey: `The key of the local service is read from ${cfg.dataDir}/keys.json: check the data folder is readable.`,
          unreachable: `The local service of ${cfg.dataDir} does not answer: close the program serving it (its lock.json names it) or restart the MCP server.`,
        }
      : {
          setKey: `Set ${KEY_ENV} (or ${KEY_FILE_ENV}, or --key-file) in the MCP client's configuration for this server.`,
          unreachable: `Check the network and proxy, and --region / --base-url (${cfg.label}).`,
        };
  const server = createMcpServer({
    client: () => {
      client ??= makeClient().catch((error: unknown) => {
        client = undefined;
        throw error;
      });
      return client;
    },
    hints,
    log,
    version: VERSION,
  });

  let closing = false;
  const shutdown = async (why: string): Promise<void> => {
    if (closing) return;
    closing = true;
    log(`${why}: stopping`);
    try {
      await server.close();
      const endpoint = await local?.catch(() => undefined);
      await endpoint?.close?.();
    } finally {
      process.exit(0);
    }
  };
  const transport = new StdioServerTransport();
  // The client went away: stdin ends. Without this the local service's handles would keep the process alive.
  process.stdin.once('end', () => void shutdown('stdin closed'));
  process.stdin.once('close', () => void shutdown('stdin closed'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await server.connect(transport);
}
