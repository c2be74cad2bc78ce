// What dist/mcp.js serves, from its arguments and environment. The key never comes from an argument
// (arguments show in process lists and client configs): an environment variable or a key file only.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REGION_INFO, checkServiceUrl, isRegion } from '../core/regions';

export const KEY_ENV = 'KNOWLEDGE_DESK_API_KEY';
export const KEY_FILE_ENV = 'KNOWLEDGE_DESK_API_KEY_FILE';

/** The help, naming the command as it was run (`node dist/mcp.js`, or `knowledge-desk mcp`). */
export const mcpUsage = (
  command = 'node dist/mcp.js',
): string => `Usage: ${command} [--local [--data DIR]] [--region us|ja] [--base-url URL] [--key-file FILE]

An MCP server (stdio) exposing the Knowledge Desk knowledge tools.

  --local            serve the local service's data (offline): the service already running on the data
                     folder (its lock file names it), or one started here
  --data DIR         data folder of the local service (default: the VS Code extension's, or $KNOWLEDGE_DESK_DATA_DIR)
  --region us|ja     a hosted region (or $KNOWLEDGE_DESK_REGION)
  --base-url URL     an on-premises service, https:// (http:// on this machine only) (or $KNOWLEDGE_DESK_BASE_URL)
  --key-file FILE    a file holding the API key (or $${KEY_FILE_ENV})

The API key of a remote service comes from $${KEY_ENV} or the key file, never from an argument.`;

export type McpConfig =
  { kind: 'local'; dataDir: string } | { kind: 'remote'; baseUrl: string; label: string; apiKey?: string; keyProblem?: string };

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** The folder the extension keeps its local service in (VS Code's global storage of this extension). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = homedir();
  const userDir =
    platform === 'win32'
      ? path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Code', 'User')
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support', 'Code', 'User')
        : path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Code', 'User');
  return path.join(userDir, 'globalStorage', 'knowledge-desk.knowledge-desk', 'local-service');
}

const TEXT = { type: 'string' } as const;
const FLAG = { type: 'boolean' } as const;

/** The options naming a service, shared by every command that connects (dist/mcp.js, `knowledge-desk test`). */
export const CONNECTION_OPTIONS = { local: FLAG, data: TEXT, region: TEXT, 'base-url': TEXT, 'key-file': TEXT } as const;
export type ConnectionValues = Partial<{ local: boolean; data: string; region: string; 'base-url': string; 'key-file': string }>;

/** A key given as an argument is refused before anything else reads the arguments. */
export function refuseKeyArguments(argv: readonly string[]): void {
  for (const arg of argv) {
    if (/^--(api-?key|key)(=|$)/i.test(arg)) {
      throw new ConfigError(
        `${arg.split('=')[0]} is not accepted: a key on the command line leaks into process lists. Set ${KEY_ENV} or use --key-file.`,
      );
    }
  }
}

export function parseConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): McpConfig | 'help' {
  refuseKeyArguments(argv);
  let values;
  try {
    values = parseArgs({ args: argv, options: { ...CONNECTION_OPTIONS, help: { ...FLAG, short: 'h' } } }).values;
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (values.help) return 'help';
  return connectionFrom(values, env);
}

/** The service the options and the environment name: the local service's data folder, or a remote URL and its key. */
export function connectionFrom(values: ConnectionValues, env: NodeJS.ProcessEnv = process.env): McpConfig {
  const region = values.region ?? env.KNOWLEDGE_DESK_REGION;
  const baseUrl = values['base-url'] ?? env.KNOWLEDGE_DESK_BASE_URL;
  const local = values.local || region === 'local' || (!region && !baseUrl);
  if (local) {
    if (values.region && values.region !== 'local') throw new ConfigError('--local and --region cannot be combined.');
    if (values['base-url']) throw new ConfigError('--local and --base-url cannot be combined.');
    return { kind: 'local', dataDir: path.resolve(values.data ?? env.KNOWLEDGE_DESK_DATA_DIR ?? defaultDataDir(env)) };
  }
  if (values.data) throw new ConfigError('--data applies to --local only.');
  let resolved: { baseUrl: string; label: string };
  if (baseUrl) {
    const checked = checkServiceUrl(baseUrl);
    if (checked.error) throw new ConfigError(`--base-url ${checked.error}`);
    resolved = { baseUrl: checked.url!, label: checked.url! };
  } else if (isRegion(region) && region !== 'custom' && region !== 'local') {
    resolved = { baseUrl: REGION_INFO[region].baseUrl!, label: `region ${REGION_INFO[region].label}` };
  } else {
    throw new ConfigError(`Unknown region "${region}": use us, ja or local, or --base-url for an on-premises service.`);
  }
  return { kind: 'remote', ...resolved, ...readKey(values['key-file'] ?? env[KEY_FILE_ENV], env) };
}

/** The key, or why there is none (reported on each tool call, so the client shows it where the user looks). */
function readKey(keyFile: string | undefined, env: NodeJS.ProcessEnv): { apiKey?: string; keyProblem?: string } {
  if (keyFile) {
    try {
      const key = readFileSync(keyFile, 'utf8').trim();
      return key ? { apiKey: key } : { keyProblem: `The key file ${keyFile} is empty.` };
    } catch (error) {
      return { keyProblem: `Cannot read the key file ${keyFile} (${(error as NodeJS.ErrnoException).code ?? 'error'}).` };
    }
  }
  const key = env[KEY_ENV]?.trim();
  return key ? { apiKey: key } : { keyProblem: 'No API key is configured.' };
}
