// What dist/mcp.js serves, from its arguments and environment. The key never comes from an argument
// (arguments show in process lists and client configs): an environment variable or a key file only.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CONNECTION_FILE_NAME, findInConnectionFile } from '../core/connectionFile';
import { REGION_INFO, checkServiceUrl, isRegion } from '../core/regions';

export const KEY_ENV = 'KNOWLEDGE_DESK_API_KEY';
export const KEY_FILE_ENV = 'KNOWLEDGE_DESK_API_KEY_FILE';
export const CONNECTIONS_FILE_ENV = 'KNOWLEDGE_DESK_CONNECTIONS_FILE';

/** The help, naming the command as it was run (`node dist/mcp.js`, or `knowledge-desk mcp`). */
export const mcpUsage = (
  command = 'node dist/mcp.js',
): string => `Usage: ${command} [--local [--data DIR]] [--region us|ja] [--base-url URL] [--connection NAME] [--key-file FILE]

An MCP server (stdio) exposing the Knowledge Desk knowledge tools.

  --local            serve the local service's data (offline): the service already running on the data
                     folder (its lock file names it), or one started here
  --data DIR         data folder of the local service (default: the VS Code extension's, or $KNOWLEDGE_DESK_DATA_DIR)
  --region us|ja     a hosted region (or $KNOWLEDGE_DESK_REGION)
  --base-url URL     an on-premises service, https:// (http:// on this machine only) (or $KNOWLEDGE_DESK_BASE_URL)
  --connection NAME  a connection of VS Code, by name, from the connection file the extension keeps in sync
                     (no keys in it: a remote connection's key comes from the environment or --key-file)
  --connections-file FILE  that file (default: the VS Code extension's, or $${CONNECTIONS_FILE_ENV})
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
export const CONNECTION_OPTIONS = {
  local: FLAG,
  data: TEXT,
  region: TEXT,
  'base-url': TEXT,
  'key-file': TEXT,
  connection: TEXT,
  'connections-file': TEXT,
} as const;
export type ConnectionValues = Partial<{
  local: boolean;
  data: string;
  region: string;
  'base-url': string;
  'key-file': string;
  connection: string;
  'connections-file': string;
}>;

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
  if (values.connection !== undefined) return namedConnection(values, env);
  if (values['connections-file']) throw new ConfigError('--connections-file applies to --connection only.');
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

/** `--connection NAME`: where the connection file says it goes; the key as for --base-url. */
function namedConnection(values: ConnectionValues, env: NodeJS.ProcessEnv): McpConfig {
  for (const other of ['local', 'data', 'region', 'base-url'] as const)
    if (values[other] !== undefined) throw new ConfigError(`--connection and --${other} cannot be combined.`);
  const file = path.resolve(values['connections-file'] ?? env[CONNECTIONS_FILE_ENV] ?? defaultConnectionsFile(env));
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      code === 'ENOENT'
        ? `There is no connection file at ${file}: start VS Code with Knowledge Desk once, or name the file with --connections-file.`
        : `Cannot read the connection file ${file} (${code ?? 'error'}).`,
    );
  }
  const found = findInConnectionFile(text, values.connection ?? '', file);
  if (found.problem !== undefined) throw new ConfigError(found.problem);
  const { entry } = found;
  if (entry.kind === 'local') return { kind: 'local', dataDir: path.resolve(entry.dataDir) };
  if (!entry.baseUrl) throw new ConfigError(`The connection "${entry.name}" has no service URL yet: set it in VS Code.`);
  const checked = checkServiceUrl(entry.baseUrl);
  if (checked.error) throw new ConfigError(`The connection "${entry.name}" in ${file}: its URL ${checked.error}`);
  return {
    kind: 'remote',
    baseUrl: checked.url!,
    label: `connection "${entry.name}" (${checked.url})`,
    ...readKey(values['key-file'] ?? env[KEY_FILE_ENV], env),
  };
}

/** The connection file of the VS Code extension: beside its local service folder, in its global storage. */
export function defaultConnectionsFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(path.dirname(defaultDataDir(env)), CONNECTION_FILE_NAME);
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
