// dist/mcp.js --connection NAME (issue 27): a connection of VS Code by name, from the connection file the
// extension keeps in sync (no keys in it), against two real local services; and a bad file or an unknown
// name stopping the server at once with the reason on stderr.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ConnectionFile } from '../../../src/core/connectionFile';
import { ConfigError, parseConfig } from '../../../src/mcp/mcpConfig';
import { buildMcpBundle } from '../support/mcpBundle';
import { startTestService, type TestService } from '../support/localService';

type ToolResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
const textOf = (r: ToolResult): string => r.content.map((c) => c.text ?? '').join('\n');
const BASE_ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() };

describe('MCP server --connection NAME (the connection file VS Code keeps)', function () {
  let bundle: Awaited<ReturnType<typeof buildMcpBundle>>;
  let alpha: TestService;
  let beta: TestService;
  let dir: string;
  let file: string;
  const clients: Client[] = [];

  before(async () => {
    bundle = await buildMcpBundle();
    [alpha, beta] = await Promise.all([startTestService({ fsync: false }), startTestService({ fsync: false })]);
    // What each project alone has: the server must reach the project the name says.
    await alpha.client().faq.register({ question: 'Which project is this, alpha?', answer: 'Alpha.', status: 'on' } as never);
    await beta.client().faq.register({ question: 'Which project is this, beta?', answer: 'Beta.', status: 'on' } as never);
    dir = await mkdtemp(path.join(tmpdir(), 'kd-mcp-connections-'));
    file = path.join(dir, 'connections.json');
    const content: ConnectionFile = {
      version: 1,
      connections: [
        { name: 'Local', kind: 'local', dataDir: alpha.dir },
        { name: 'Staging', kind: 'remote', baseUrl: beta.service.url },
        { name: 'Custom', kind: 'remote' },
      ],
    };
    await writeFile(file, JSON.stringify(content));
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  });
  after(async () => {
    await Promise.all([alpha?.stop(), beta?.stop()]);
    await rm(dir, { recursive: true, force: true });
    await bundle?.remove();
  });

  async function connect(args: string[], env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string }> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bundle.mcp, ...args],
      env: { ...BASE_ENV, ...env },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'kd-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return { client, stderr: () => stderr };
  }
  const ask = async (client: Client, question: string): Promise<string> => {
    const r = (await client.callTool({ name: 'knowledge_desk_search_qna', arguments: { question } })) as ToolResult;
    assert.equal(r.isError, undefined, textOf(r));
    return textOf(r);
  };

  /** The server started as a plain process: what it wrote to stderr and how it exited. */
  function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bundle.mcp, ...args], { env: { ...BASE_ENV, ...env }, stdio: ['pipe', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', reject);
      child.once('exit', (code) => resolve({ code, stderr }));
    });
  }

  it('serves the local project a name stands for, its data folder from the file (the name in any case)', async () => {
    const s = await connect(['--connection', 'local', '--connections-file', file]);
    assert.match(await ask(s.client, 'Which project is this, alpha?'), /A: Alpha\./);
    assert.doesNotMatch(await ask(s.client, 'Which project is this, beta?'), /A: Beta\./);
    assert.match(s.stderr(), new RegExp(`serving the local service's data in ${alpha.dir.replace(/[.]/g, '\\.')}`));
  });

  it('serves a remote connection with the key from the environment, the file found through KNOWLEDGE_DESK_CONNECTIONS_FILE', async () => {
    const key = beta.service.apiKey;
    const s = await connect(['--connection', 'Staging'], { KNOWLEDGE_DESK_CONNECTIONS_FILE: file, KNOWLEDGE_DESK_API_KEY: key });
    assert.match(await ask(s.client, 'Which project is this, beta?'), /A: Beta\./);
    assert.match(s.stderr(), /serving connection "Staging" \(http:\/\/127\.0\.0\.1:\d+\)/);
    assert.ok(!s.stderr().includes(key), 'the key is not logged');
  });

  it('an unknown name or a hand-broken file stops the spawned server with the reason on stderr and exit code 2', async () => {
    const unknown = await run(['--connection', 'Production', '--connections-file', file]);
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(
      unknown.stderr,
      /No connection named "Production" in .*connections\.json\. Its connections: "Local", "Staging", "Custom"\./,
    );
    const broken = path.join(dir, 'broken.json');
    await writeFile(broken, '{"version": 1, "connections": [');
    const nonsense = await run(['--connection', 'Staging', '--connections-file', broken]);
    assert.equal(nonsense.code, 2, nonsense.stderr);
    assert.match(nonsense.stderr, /The connection file .*broken\.json is not valid JSON \(.*\)\. VS Code writes it again/);
  });

  it('says what is wrong with a file of the wrong shape, a key written into it, a missing file or a connection without a URL', async () => {
    const broken = path.join(dir, 'shape.json');
    const cases: Array<[string, RegExp]> = [
      ['{"version": 1, "connections": [{"name": "Staging", "kind": "local"}]}', /is not a connection list \(connections\.0\.dataDir: /],
      [
        '{"version": 1, "connections": [{"name": "Staging", "kind": "remote", "baseUrl": "https://x.example", "apiKey": "kd_secret"}]}',
        /is not a connection list \(connections\.0: Unrecognized key.*apiKey/,
      ],
      ['[1, 2, 3]', /is not a connection list \(the file: /],
    ];
    for (const [text, expect] of cases) {
      await writeFile(broken, text);
      assert.throws(
        () => parseConfig(['--connection', 'Staging', '--connections-file', broken], {}),
        (e: Error) => {
          assert.ok(e instanceof ConfigError);
          assert.match(e.message, expect);
          assert.ok(!e.message.includes('kd_secret'), 'a key written into the file is not echoed');
          return true;
        },
      );
    }
    const problem = (args: string[]) => {
      try {
        parseConfig(args, {});
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    assert.match(
      problem(['--connection', 'Local', '--connections-file', path.join(dir, 'none.json')]),
      /There is no connection file at .*none\.json: start VS Code/,
    );
    assert.match(
      problem(['--connection', 'Custom', '--connections-file', file]),
      /The connection "Custom" has no service URL yet: set it in VS Code\./,
    );
    assert.match(
      problem(['--connection', 'Staging', '--region', 'us', '--connections-file', file]),
      /--connection and --region cannot be combined\./,
    );
    assert.match(problem(['--region', 'us', '--connections-file', file]), /--connections-file applies to --connection only\./);
  });
});
