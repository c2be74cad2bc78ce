import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startLocalService } from '../../../src/local/service';
import { SAMPLES } from '../../fixtures/retrieval/seededService';
import { buildMcpBundle } from '../support/mcpBundle';
import { startTestService, type TestService } from '../support/localService';

const LEAVE = 'How many days of paid leave do new employees get?';
const TOOLS = ['knowledge_desk_answer', 'knowledge_desk_retrieve_pages', 'knowledge_desk_search_qna'];

interface Session {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  process: ChildProcess;
}

type ToolResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
const textOf = (r: ToolResult): string => r.content.map((c) => c.text ?? '').join('\n');

describe('MCP server (dist/mcp.js) driven by the SDK client over stdio', function () {
  let bundle: Awaited<ReturnType<typeof buildMcpBundle>>;
  /** A seeded data folder whose service runs in this test process (it owns the lock). */
  let seeded: TestService;
  const sessions: Session[] = [];

  async function connect(args: string[], env: Record<string, string> = {}): Promise<Session> {
    const base: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() };
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bundle.mcp, ...args],
      env: { ...base, ...env },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'kd-test', version: '1.0.0' });
    await client.connect(transport);
    const process_ = (transport as unknown as { _process: ChildProcess })._process;
    const session = { client, transport, stderr: () => stderr, process: process_ };
    sessions.push(session);
    return session;
  }
  const call = (s: Session, name: string, args: Record<string, unknown>) =>
    s.client.callTool({ name, arguments: args }) as Promise<ToolResult>;

  before(async () => {
    bundle = await buildMcpBundle();
    seeded = await startTestService({ seedDir: SAMPLES, fsync: false });
    await seeded.service.processingIdle();
  });
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.client.close().catch(() => undefined);
  });
  after(async () => {
    await seeded?.stop();
    await bundle?.remove();
  });

  it('lists the three read-only tools with their input schemas', async () => {
    const s = await connect(['--local', '--data', seeded.dir]);
    const { tools } = await s.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
    for (const tool of tools) {
      assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
      assert.deepEqual(tool.inputSchema.required, ['question'], tool.name);
      assert.ok((tool.description ?? '').length > 100, `${tool.name} tells a model when to use it`);
      // No draft-07 `$schema` (MCP's default dialect is 2020-12; strict clients refuse draft-07), and the
      // closed object that the server enforces (the bad-input test below).
      assert.equal('$schema' in tool.inputSchema, false, tool.name);
      assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
    }
    // A fixed list: no tools.listChanged promise.
    assert.deepEqual(s.client.getServerCapabilities()?.tools, {});
  });

  it('--local uses the service already running on the data folder (named by its lock file)', async () => {
    const s = await connect(['--local', '--data', seeded.dir]);
    const pages = await call(s, 'knowledge_desk_retrieve_pages', { question: LEAVE, maxResults: 2 });
    assert.equal(pages.isError, undefined, textOf(pages));
    assert.match(textOf(pages), /\[1\] employee-handbook\.pdf — page 1 \(documentId [\w-]+\)\n[\s\S]*15 days of paid leave/);
    assert.match(
      s.stderr(),
      new RegExp(`using the local service of process ${process.pid} at ${seeded.service.url.replace(/[.]/g, '\\.')}`),
    );

    const answer = await call(s, 'knowledge_desk_answer', { question: LEAVE });
    assert.equal(answer.isError, undefined, textOf(answer));
    assert.match(textOf(answer), /15 days of paid leave[\s\S]*Citations:\n\n\[1\] employee-handbook\.pdf — page 1/);

    await seeded
      .client()
      .faq.register({ question: 'Where is the VPN guide?', answer: 'In the IT folder: vpn-setup.docx.', status: 'on' } as never);
    const qna = await call(s, 'knowledge_desk_search_qna', { question: 'Where is the VPN guide?' });
    assert.equal(qna.isError, undefined, textOf(qna));
    assert.match(textOf(qna), /\[1\] Q: Where is the VPN guide\? \(confidence [\d.]+, id [\w-]+\)\nA: In the IT folder/);
  });

  it('bad input is a tool error naming the problem, for every tool', async () => {
    const s = await connect(['--local', '--data', seeded.dir]);
    for (const name of TOOLS) {
      for (const [args, pattern] of [
        [{ question: '' }, /question is empty/],
        [{ question: 'x'.repeat(100_000) }, /longer than 2,000 characters/],
        [{}, /question/],
      ] as const) {
        const r = await call(s, name, args);
        assert.equal(r.isError, true, `${name} ${JSON.stringify(args).slice(0, 40)}`);
        assert.match(textOf(r), pattern, name);
      }
    }
    for (const name of ['knowledge_desk_answer', 'knowledge_desk_retrieve_pages']) {
      const r = await call(s, name, { question: LEAVE, scopeIds: ['no-such-folder'] });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /Unknown folder or document id: no-such-folder\./);
    }
    for (const [name, args, pattern] of [
      [
        'knowledge_desk_search_qna',
        { question: LEAVE, scopeIds: ['x'] },
        /^Invalid input: Unknown field scopeIds: use only question and maxResults\.$/,
      ],
      ['knowledge_desk_answer', { question: LEAVE, limit: 3 }, /^Invalid input: Unknown field limit: use only question and scopeIds\.$/],
      ['knowledge_desk_retrieve_pages', { question: 42 }, /^Invalid input: question must be text\.$/],
      ['knowledge_desk_retrieve_pages', { question: LEAVE, maxResults: 'two' }, /^Invalid input: maxResults must be a number\.$/],
    ] as const) {
      const r = await call(s, name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
      assert.match(textOf(r), pattern, name);
    }
    // A tool that is not listed is a protocol error (JSON-RPC -32602), as the MCP specification says.
    await assert.rejects(call(s, 'knowledge_desk_delete_everything', { question: LEAVE }), /-32602.*not found/);
    // The server is still there after all that.
    assert.equal((await s.client.listTools()).tools.length, 3);
  });

  it('a region without a key: each call says how to configure the key, and nothing is sent', async () => {
    const s = await connect(['--region', 'us']);
    const r = await call(s, 'knowledge_desk_answer', { question: LEAVE });
    assert.equal(r.isError, true);
    assert.equal(
      textOf(r),
      "No API key is configured. Set KNOWLEDGE_DESK_API_KEY (or KNOWLEDGE_DESK_API_KEY_FILE, or --key-file) in the MCP client's configuration for this server.",
    );
    assert.match(s.stderr(), /serving region US \(no API key\)/);
  });

  it('a key from the environment or a key file reaches the service and is never logged', async () => {
    const key = seeded.service.apiKey;
    const fromEnv = await connect(['--base-url', seeded.service.url], { KNOWLEDGE_DESK_API_KEY: key });
    const r1 = await call(fromEnv, 'knowledge_desk_retrieve_pages', { question: LEAVE, maxResults: 1 });
    assert.equal(r1.isError, undefined, textOf(r1));
    assert.match(textOf(r1), /employee-handbook\.pdf/);
    const keyFile = path.join(seeded.dir, '..', `kd-mcp-key-${process.pid}`);
    await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
    try {
      const fromFile = await connect(['--base-url', seeded.service.url, '--key-file', keyFile]);
      const r2 = await call(fromFile, 'knowledge_desk_search_qna', { question: LEAVE });
      assert.equal(r2.isError, undefined, textOf(r2));
      const wrong = await connect(['--base-url', seeded.service.url], { KNOWLEDGE_DESK_API_KEY: 'kd_wrong' });
      const r3 = await call(wrong, 'knowledge_desk_answer', { question: LEAVE });
      assert.equal(r3.isError, true);
      assert.match(textOf(r3), /^The service rejected the API key\. Set KNOWLEDGE_DESK_API_KEY/);
      for (const s of [fromEnv, fromFile, wrong])
        assert.ok(!s.stderr().includes(key) && !s.stderr().includes('kd_wrong'), 'the key is not logged');
    } finally {
      await rm(keyFile, { force: true });
    }
  });

  it('refuses a key on the command line', async () => {
    await assert.rejects(connect(['--region', 'us', '--api-key', 'secret']));
  });

  it('an unreachable service: the error says what to do', async () => {
    const remote = await connect(['--base-url', 'http://127.0.0.1:9'], { KNOWLEDGE_DESK_API_KEY: 'k' });
    const r1 = await call(remote, 'knowledge_desk_retrieve_pages', { question: LEAVE });
    assert.equal(r1.isError, true);
    assert.match(
      textOf(r1),
      /^Cannot reach the Knowledge Desk service .*Check the network and proxy, and --region \/ --base-url \(http:\/\/127\.0\.0\.1:9\)\.$/s,
    );

    // A data folder whose lock names a live process (this one) and a URL where nothing listens.
    const dir = await mkdtemp(path.join(tmpdir(), 'kd-mcp-stale-'));
    try {
      await writeFile(
        path.join(dir, 'lock.json'),
        JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: Date.now(), url: 'http://127.0.0.1:9', token: 'x' }),
      );
      const local = await connect(['--local', '--data', dir]);
      const r2 = await call(local, 'knowledge_desk_answer', { question: LEAVE });
      assert.equal(r2.isError, true);
      assert.match(
        textOf(r2),
        new RegExp(`does not answer: close the program serving it \\(its lock\\.json names it\\) or restart the MCP server\\.$`),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--local starts the service on a free data folder, and exits cleanly (lock released) when stdin closes', async () => {
    // A folder with documents but no running service: seeded once, then closed.
    const dir = await mkdtemp(path.join(tmpdir(), 'kd-mcp-own-'));
    try {
      const seeding = await startLocalService({ dataDir: dir, seedDir: SAMPLES, fsync: false });
      await seeding.processingIdle();
      await seeding.close();
      const s = await connect(['--local', '--data', dir]);
      const r = await call(s, 'knowledge_desk_retrieve_pages', { question: LEAVE, maxResults: 1 });
      assert.equal(r.isError, undefined, textOf(r));
      assert.match(textOf(r), /employee-handbook\.pdf — page 1/);
      assert.match(s.stderr(), /started the local service on http:\/\/127\.0\.0\.1:\d+/);
      assert.ok(existsSync(path.join(dir, 'lock.json')), 'the MCP server owns the folder');

      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        s.process.once('exit', (code, signal) => resolve({ code, signal })),
      );
      s.process.stdin!.end();
      assert.deepEqual(await exited, { code: 0, signal: null });
      assert.match(s.stderr(), /stdin closed: stopping/);
      assert.doesNotMatch(s.stderr(), /SIGTERM/);
      assert.ok(!existsSync(path.join(dir, 'lock.json')), 'the lock file is released before the process exits');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
