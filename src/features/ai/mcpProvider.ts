// Offers dist/mcp.js to VS Code's MCP support (1.101+). engines.vscode stays ^1.100.0 and @types/vscode is
// 1.100, so the API is detected at run time and typed here with the few members used.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Region } from '../../core/regions';

export const MCP_PROVIDER_ID = 'knowledgeDesk.mcp';

export interface McpServerDefinition {
  env?: Record<string, string | number | null>;
}
export type McpStdioServerDefinitionCtor = new (
  label: string,
  command: string,
  args?: string[],
  env?: Record<string, string | number | null>,
  version?: string,
) => McpServerDefinition;
export interface McpServerDefinitionProvider {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<McpServerDefinition[]>;
  resolveMcpServerDefinition?(server: McpServerDefinition, token: vscode.CancellationToken): vscode.ProviderResult<McpServerDefinition>;
}
type RegisterProvider = (id: string, provider: McpServerDefinitionProvider) => vscode.Disposable;

export interface McpProviderDeps {
  extensionPath: string;
  /** The data folder of the active connection's local project. */
  localDataDir(): string;
  region(): Region;
  customBaseUrl(): string;
  /** The region's key from SecretStorage; never prompts. */
  apiKey(region: Region): Promise<string | undefined>;
  /**
   * Starts the window's connection, as any first use does (for Local: the service, whose lock file the
   * server's --local then finds); never throws.
   */
  start(): Promise<void>;
  onDidChange: vscode.Event<void>;
}

/** The MCP API of this VS Code, or undefined before 1.101. */
export function mcpApi(): { register: RegisterProvider; Stdio: McpStdioServerDefinitionCtor } | undefined {
  const register = (vscode.lm as unknown as { registerMcpServerDefinitionProvider?: RegisterProvider }).registerMcpServerDefinitionProvider;
  const Stdio = (vscode as unknown as { McpStdioServerDefinition?: McpStdioServerDefinitionCtor }).McpStdioServerDefinition;
  return typeof register === 'function' && typeof Stdio === 'function' ? { register, Stdio } : undefined;
}

/** Arguments of dist/mcp.js for a region: never the key (it goes in the environment). */
export function mcpArgs(region: Region, localDataDir: string, customBaseUrl: string): string[] {
  if (region === 'local') return ['--local', '--data', localDataDir];
  if (region === 'custom') return ['--base-url', customBaseUrl];
  return ['--region', region];
}

/**
 * Registers the definition, or returns undefined when this VS Code has no MCP API or refuses it. The API is
 * stable from 1.101 (contribution point `mcpServerDefinitionProviders`); 1.100 keeps it behind the
 * `mcpConfigurationProvider` proposal, which an extension from the Marketplace cannot enable, so there it is
 * absent. Never throws: activation must go on.
 */
export function registerMcpProvider(deps: McpProviderDeps, warn: (message: string) => void): vscode.Disposable | undefined {
  const api = mcpApi();
  if (!api) return undefined;
  try {
    return register(api, deps);
  } catch (error) {
    warn(`the MCP server definition was not registered: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

function register(api: NonNullable<ReturnType<typeof mcpApi>>, deps: McpProviderDeps): vscode.Disposable {
  return api.register(MCP_PROVIDER_ID, mcpDefinitionProvider(api.Stdio, deps));
}

/** The provider, apart from its registration (integration tests resolve it with a window's deps). */
export function mcpDefinitionProvider(Stdio: McpStdioServerDefinitionCtor, deps: McpProviderDeps): McpServerDefinitionProvider {
  const script = path.join(deps.extensionPath, 'dist', 'mcp.js');
  const definition = (env: Record<string, string> = {}) =>
    // VS Code's own runtime runs the server, so no separate Node.js is needed.
    new Stdio(
      'Knowledge Desk',
      process.execPath,
      [script, ...mcpArgs(deps.region(), deps.localDataDir(), deps.customBaseUrl())],
      { ELECTRON_RUN_AS_NODE: '1', ...env },
      '0.1.0',
    );
  return {
    onDidChangeMcpServerDefinitions: deps.onDidChange,
    provideMcpServerDefinitions: () => [definition()],
    // Called when the server starts: only then is the key read, and it travels in the environment.
    async resolveMcpServerDefinition() {
      await deps.start();
      const region = deps.region();
      if (region === 'local') return definition();
      const key = await deps.apiKey(region);
      return definition(key ? { KNOWLEDGE_DESK_API_KEY: key } : {});
    },
  };
}
