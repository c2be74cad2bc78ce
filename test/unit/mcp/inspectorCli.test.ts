// The MCP Inspector's command-line client (a real MCP client, not ours) against dist/mcp.js --local, both
// run by the current lane's Node (the Inspector needs Node >= 22.19): tools/list in --strict mode, each tool
// called, and bad inputs that must come back as tool errors. Needs KD_NODE24 (a Node 24 binary) and the
// Inspector installed by test/mcp/install.sh (or KD_MCP_INSPECTOR, the path of its launcher); skipped, with
// the reason printed, without them.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SAMPLES } from '../../fixtures/retrieval/seededService';
import { buildMcpBundle } from '../support/mcpBundle';
import { startTestService, type TestService } from '../support/localService';

const ROOT = path.resolve(__dirname, '../../..');
const NODE24 = process.env.KD_NODE24;
const INSPECTOR =
  process.env.KD_MCP_INSPECTOR ?? path.join(ROOT, 'test/mcp/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const LEAVE = 'How many days of paid leave do new employees get?';
const TOOLS = ['knowledge_desk_answer', 'knowledge_desk_retrieve_pages', 'knowledge_desk_search_qna'];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
type ToolResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

function whyNot(): string | undefined {
  if (!NODE24) return 'KD_NODE24 is not set (the path of a Node >= 22.19 binary, e.g. the current lane’s Node 24)';
  if (!existsSync(NODE24)) return `KD_NODE24 (${NODE24}) does not exist`;
  if (!existsSync(INSPECTOR)) return `the MCP Inspector is not installed at ${INSPECTOR} (run test/mcp/install.sh with KD_NODE24 set)`;
  return undefined;
}

describe('MCP Inspector CLI (a real MCP client) against dist/mcp.js --local', function () {
  let bundle: Awaited<ReturnType<typeof buildMcpBundle>>;
  let seeded: TestService;

  /** One Inspector command (it starts dist/mcp.js, which uses the seeded folder's running service). */
  const inspect = (...args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      const argv = [INSPECTOR, '--cli', NODE24!, bundle.mcp, '--local', '--data', seeded.dir, ...args, '--format', 'json', '-q'];
      execFile(NODE24!, argv, { cwd: ROOT, timeout: 50_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  const call = async (tool: string, ...args: string[]): Promise<{ run: Run; result: ToolResult }> => {
    const run = await inspect('--method', 'tools/call', '--tool-name', tool, ...args);
    const parsed = JSON.parse(run.stdout || '{}') as { result?: ToolResult };
    assert.ok(parsed.result, `${tool}: a result on stdout (exit ${run.code}): ${run.stdout}${run.stderr}`);
    return { run, result: parsed.result };
  };
  const textOf = (r: ToolResult): string => r.content.map((c) => c.text ?? '').join('\n');

  before(async function () {
    const reason = whyNot();
    // npm test's own Inspector step sets KD_REQUIRE_INSPECTOR: there, a missing Inspector is a failure.
    if (reason && process.env.KD_REQUIRE_INSPECTOR) throw new Error(reason);
    if (reason) {
      console.log(`    skipped: ${reason}`);
      this.skip();
    }
    bundle = await buildMcpBundle();
    seeded = await startTestService({ seedDir: SAMPLES, fsync: false });
    await seeded.service.processingIdle();
    await seeded
      .client()
      .faq.register({ question: 'Where is the VPN guide?', answer: 'In the IT folder: vpn-setup.docx.', status: 'on' } as never);
  });
  after(async () => {
    await seeded?.stop();
    await bundle?.remove();
  });

  it('tools/list --strict: no portability problem, three closed schemas without a draft-07 $schema', async () => {
    const run = await inspect('--method', 'tools/list', '--strict');
    assert.equal(run.code, 0, `--strict exits 0 (6 = an error-severity finding): ${run.stderr}`);
    const { tools } = (JSON.parse(run.stdout) as { result: { tools: Array<{ name: string; inputSchema: Record<string, unknown> }> } })
      .result;
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
    for (const tool of tools) {
      assert.equal('$schema' in tool.inputSchema, false, `${tool.name}: no $schema (MCP's default dialect is 2020-12)`);
      assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
      assert.deepEqual(tool.inputSchema.required, ['question'], tool.name);
    }
  });

  it('calls each of the three tools against the seeded data folder', async () => {
    const [pages, answer, qna] = await Promise.all([
      call('knowledge_desk_retrieve_pages', '--tool-arg', `question=${LEAVE}`, 'maxResults=2'),
      call('knowledge_desk_answer', '--tool-arg', `question=${LEAVE}`),
      call('knowledge_desk_search_qna', '--tool-arg', 'question=Where is the VPN guide?'),
    ]);
    for (const { run, result } of [pages, answer, qna]) {
      assert.equal(run.code, 0, run.stderr);
      assert.equal(result.isError, undefined, textOf(result));
    }
    assert.match(textOf(pages.result), /^2 pages of the knowledge base[\s\S]*\[1\] employee-handbook\.pdf — page 1/);
    assert.match(textOf(answer.result), /15 days of paid leave[\s\S]*Citations:\n\n\[1\] employee-handbook\.pdf — page 1/);
    assert.match(textOf(qna.result), /\[1\] Q: Where is the VPN guide\? \(confidence [\d.]+, id [\w-]+\)\nA: In the IT folder/);
  });

  it('bad inputs (unknown argument, wrong type, missing question) are tool errors naming the problem', async () => {
    const cases: Array<[string, string[], RegExp]> = [
      [
        'knowledge_desk_search_qna',
        ['--tool-arg', `question=${LEAVE}`, 'folder=HR'],
        /^Invalid input: Unknown field folder: use only question and maxResults\.$/,
      ],
      ['knowledge_desk_answer', ['--tool-args-json', JSON.stringify({ question: 42 })], /^Invalid input: question must be text\.$/],
      ['knowledge_desk_retrieve_pages', [], /^Invalid input: question is missing/],
    ];
    const runs = await Promise.all(cases.map(([tool, args]) => call(tool, ...args)));
    runs.forEach(({ run, result }, i) => {
      const [tool, , pattern] = cases[i];
      assert.equal(result.isError, true, `${tool}: ${textOf(result)}`);
      assert.match(textOf(result), pattern, tool);
      // The Inspector's code for "the tool answered isError", not a crash or a protocol failure.
      assert.equal(run.code, 5, `${tool}: ${run.stderr}`);
    });
  });
});
