// The first use of Knowledge Desk in a window may be the @knowledge participant, a language model tool or the
// MCP server definition: each starts the window's connection (for Local: the service and its key) and works at
// once. The run's own window was used by other suites, so each case gets a window of its own whose connection
// is still idle: a new ConnectionManager over a new local service folder, empty SecretStorage and global state,
// with this window's settings (the Local region) and the product's AiServices on top.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_NAMES, type ToolName } from '../../src/ai/toolNames';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import type { AiServices } from '../../src/features/ai/aiServices';
import { mcpApi, mcpDefinitionProvider, type McpStdioServerDefinitionCtor } from '../../src/features/ai/mcpProvider';
import { ConnectionManager } from '../../src/platform/connection/connectionManager';
import { LocalProjects } from '../../src/platform/connection/localProjects';
import type { LocalServiceHost } from '../../src/platform/connection/localServiceHost';
import { Secrets } from '../../src/platform/secrets';
import { getApi } from './support/host';
import { MemoryMemento } from './support/memoryMemento';

class MemorySecretStorage implements vscode.SecretStorage {
  private readonly values = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  readonly onDidChange = this.emitter.event;
  async get(key: string) {
    return this.values.get(key);
  }
  async store(key: string, value: string) {
    this.values.set(key, value);
    this.emitter.fire({ key });
  }
  async delete(key: string) {
    this.values.delete(key);
    this.emitter.fire({ key });
  }
}

/** A ChatResponseStream stand-in: the markdown written, in order. */
class TextStream {
  text = '';
  markdown(value: string | vscode.MarkdownString) {
    this.text += typeof value === 'string' ? value : value.value;
  }
  anchor() {}
  reference() {}
  button() {}
  progress() {}
}

interface FreshWindow {
  services: AiServices;
  connection: ConnectionManager;
  local: LocalServiceHost;
  secrets: Secrets;
  dataDir: string;
}

describe('AI: the first use in a window starts the connection (participant, tools, MCP definition)', () => {
  let api: KnowledgeDeskTestApi;
  const windows: Array<FreshWindow & { dispose(): Promise<void> }> = [];

  before(async () => {
    api = await getApi();
    assert.equal(api.settings.region, 'local', 'the test host uses the Local region');
  });
  after(async () => {
    for (const w of windows) await w.dispose();
  });

  async function freshWindow(): Promise<FreshWindow> {
    const c = api;
    const storageDir = await mkdtemp(path.join(os.tmpdir(), 'kd-first-use-'));
    const projects = new LocalProjects({
      extensionPath: c.context.extensionPath,
      storageDir,
      log: c.log('first-use'),
      allowedRoots: () => [],
      maxUploadBytes: () => 16 * 1024 * 1024,
    });
    const secrets = new Secrets(new MemorySecretStorage());
    const local = projects.host();
    const dataDir = local.dataDir;
    const connection = new ConnectionManager(c.settings, secrets, projects, c.logger, new MemoryMemento());
    const window = {
      connection,
      settings: c.settings,
      secrets,
      localProjects: projects,
      context: c.context,
      log: (component: string) => c.log(component),
    };
    const services = api.ai.servicesOver(window);
    const fresh = { services, connection, local, secrets, dataDir };
    windows.push({
      ...fresh,
      dispose: async () => {
        // Stopped and waited for first: its service may still be writing (the index snapshot is written once
        // changes settle), and removing the folder under it failed with ENOTEMPTY in a CI run.
        await local.close();
        connection.dispose();
        projects.dispose();
        secrets.dispose();
        await rm(storageDir, { recursive: true, force: true, maxRetries: 5 });
      },
    });
    assert.equal(connection.status.state, 'idle', 'a window whose connection is still idle');
    assert.equal(local.isStarted, false);
    return fresh;
  }

  const started = async (w: FreshWindow, what: string) => {
    assert.equal(w.connection.isUsed, true, `${what} used the connection`);
    assert.equal(w.local.isStarted, true, `${what} started the local service`);
    assert.ok(await w.secrets.get('apiKey', 'local'), `${what}: the local service key is stored`);
  };

  it('the first @knowledge question is answered by the local service, not "No API key is set"', async () => {
    const w = await freshWindow();
    const stream = new TextStream();
    await w.services.chatHandler(
      { prompt: 'How many days of paid leave do new employees get?', command: undefined } as unknown as vscode.ChatRequest,
      { history: [] } as unknown as vscode.ChatContext,
      stream as unknown as vscode.ChatResponseStream,
      new vscode.CancellationTokenSource().token,
    );
    assert.doesNotMatch(stream.text, /API key/i);
    // The new folder is empty: the service's honest answer shows that it was reached.
    assert.match(stream.text, /No answer was found in the knowledge base/, stream.text);
    await started(w, '@knowledge');
  });

  for (const name of Object.values(TOOL_NAMES) as ToolName[]) {
    it(`the first call of ${name} is answered`, async () => {
      const w = await freshWindow();
      const result = await w.services
        .tool(name)
        .invoke({ input: { question: 'paid leave' }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
      const text = result!.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.ok(text.length > 0);
      assert.doesNotMatch(text, /API key/i);
      await started(w, name);
    });
  }

  it("resolving the MCP server definition starts the window's local service (its lock file names it for --local)", async () => {
    const w = await freshWindow();
    class StandIn {
      constructor(
        readonly label: string,
        readonly command: string,
        readonly args?: string[],
        readonly env?: Record<string, string | number | null>,
      ) {}
    }
    const Stdio: McpStdioServerDefinitionCtor = mcpApi()?.Stdio ?? StandIn;
    const changed = new vscode.EventEmitter<void>();
    const provider = mcpDefinitionProvider(Stdio, w.services.mcpDeps(changed.event));
    const [definition] = (await provider.provideMcpServerDefinitions(new vscode.CancellationTokenSource().token)) ?? [];
    assert.equal(w.connection.isUsed, false, 'listing the definition is not a use');
    const resolved = (await provider.resolveMcpServerDefinition!(definition, new vscode.CancellationTokenSource().token)) as {
      args?: string[];
    };
    assert.deepEqual(resolved.args?.slice(-3), ['--local', '--data', w.dataDir]);
    await started(w, 'the MCP definition');
    assert.ok(fs.existsSync(path.join(w.dataDir, 'lock.json')), 'the lock file that dist/mcp.js --local reads');
    changed.dispose();
  });
});
