// Where the knowledge tools come from in VS Code (each tool once), the confirmation a remote region's tool call
// shows, and, where this VS Code can (1.101 or later), VS Code itself starting the extension's MCP server
// definition and listing its tools. Tests that need an API this VS Code lacks are skipped with the reason printed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import { knowledgeTool, type ToolDeps } from '../../src/features/ai/lmTools';
import { mcpApi } from '../../src/features/ai/mcpProvider';
import { getApi, useService, waitFor } from './support/host';

const TOOLS = ['knowledge_desk_answer', 'knowledge_desk_retrieve_pages', 'knowledge_desk_search_qna'];
const QUESTION = 'How many days of paid leave do new employees get?';

/** The extension's own language model tools in vscode.lm.tools. */
const lmTools = () =>
  vscode.lm.tools
    .filter((t) => TOOLS.includes(t.name))
    .map((t) => t.name)
    .sort();
/** The same tools as VS Code lists them from the MCP server (`mcp_<server>_<tool>`), by their tool name. */
const mcpTools = () =>
  vscode.lm.tools
    .map((t) => /^mcp_.*(knowledge_desk_(?:answer|retrieve_pages|search_qna))$/.exec(t.name)?.[1])
    .filter((n): n is string => !!n)
    .sort();

/** VS Code starts the MCP server definitions of extensions from 1.101 (1.100 has the API behind a proposal and refuses it). */
function startsExtensionMcpServers(): boolean {
  const [major, minor] = vscode.version.split('.').map(Number);
  return major > 1 || minor >= 101;
}

function skipWithReason(ctx: Mocha.Context, reason: string): void {
  console.log(`      skipped in VS Code ${vscode.version}: ${reason}`);
  ctx.skip();
}

async function setViaMcp(on: boolean | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('knowledgeDesk').update('ai.mcpServer', on, vscode.ConfigurationTarget.Global);
}

describe('AI: tool confirmations and the MCP server definition in VS Code', () => {
  let api: KnowledgeDeskTestApi;

  before(async function () {
    this.timeout(120_000);
    api = await getApi();
    await useService(api);
  });
  afterEach(async () => {
    await setViaMcp(undefined);
    await waitFor(() => !api.ai.registered.mcp && api.ai.registered.tools === 3, 'the language model tools to be back');
  });

  it('a remote region asks before the question leaves the machine, naming host and region; Local asks nothing', async () => {
    const deps = (destination: ReturnType<ToolDeps['destination']>): ToolDeps => ({
      client: () => Promise.reject(new Error('not called')),
      hints: { setKey: '', unreachable: '' },
      log: api.log('test'),
      destination: () => destination,
    });
    const token = new vscode.CancellationTokenSource().token;
    const prepare = (tool: vscode.LanguageModelTool<Record<string, unknown>>) =>
      Promise.resolve(tool.prepareInvocation!({ input: { question: QUESTION } }, token));

    for (const name of TOOLS) {
      const remote = await prepare(knowledgeTool(name as never, deps({ label: 'US', host: 'backend.alli.ai' })));
      const message = remote?.confirmationMessages?.message;
      const text = typeof message === 'string' ? message : message?.value;
      assert.equal(remote?.confirmationMessages?.title, 'Send the question to backend.alli.ai?', `${name}: ${JSON.stringify(remote)}`);
      assert.match(text ?? '', /leaves this machine: it is sent to the Knowledge Desk service at backend\.alli\.ai \(region US\)/, name);
      assert.match(text ?? '', /paid leave/, `${name}: the question itself is shown`);
      const local = await prepare(knowledgeTool(name as never, deps(undefined)));
      assert.equal(local?.confirmationMessages, undefined, `${name}: Local asks nothing`);
      assert.ok(local?.invocationMessage, name);
    }
  });

  it('without the MCP API (VS Code 1.100), knowledgeDesk.ai.mcpServer keeps the language model tools', async function () {
    if (startsExtensionMcpServers()) return skipWithReason(this, 'this VS Code starts MCP servers of extensions (the next test covers it)');
    await setViaMcp(true);
    // update() ran in the configuration event, before update() resolved: the registration was tried and refused,
    // and the tools stay registered and listed.
    assert.equal(api.settings.get<boolean>('ai.mcpServer', false), true);
    await waitFor(
      () => lmTools().length === 3,
      'the three language model tools',
      10_000,
      () => lmTools().join(', '),
    );
    assert.deepEqual(api.ai.registered, { participant: true, tools: 3, mcp: false });
  });

  it('with knowledgeDesk.ai.mcpServer, VS Code starts the MCP server definition and lists its tools instead of the language model tools', async function () {
    this.timeout(120_000);
    if (!startsExtensionMcpServers() || !mcpApi())
      return skipWithReason(this, 'vscode.lm.registerMcpServerDefinitionProvider is stable from VS Code 1.101 (1.100: behind a proposal)');
    assert.deepEqual(mcpTools(), [], 'by default VS Code gets the language model tools only');
    assert.equal(api.ai.registered.mcp, false);
    await setViaMcp(true);
    await waitFor(() => api.ai.registered.mcp, 'the MCP server definition to be registered');
    assert.equal(api.ai.registered.tools, 0, 'the language model tools are unregistered');
    // startServer '*' starts the servers VS Code knows at that moment; the new definition reaches its registry a
    // little after the provider is registered (its `when` clause is evaluated there), so ask again until it is.
    let asked = 0;
    const start = () => {
      asked = Date.now();
      void vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
    };
    start();
    await waitFor(
      () => {
        if (mcpTools().length === 3) return true;
        if (Date.now() - asked > 3000) start();
        return false;
      },
      "the MCP server's three tools in vscode.lm.tools",
      60_000,
      () => vscode.lm.tools.map((t) => t.name).join(', '),
    );
    assert.deepEqual(mcpTools(), TOOLS);
    // Each tool once. The contributed language model tools stay declared, but without an implementation (nothing
    // can call them), and their `when` (knowledgeDesk.ai.lmTools, now false) keeps them out of the chat's tool list.
    // vscode.lm.tools cannot show that: 1.139 lists every declared tool there, disabled ones included
    // (getAllToolsIncludingDisabled), so what is checked here is that calling one fails and the MCP one answers.
    const token = new vscode.CancellationTokenSource().token;
    await assert.rejects(
      Promise.resolve(
        vscode.lm.invokeTool('knowledge_desk_search_qna', { input: { question: 'paid leave' }, toolInvocationToken: undefined }, token),
      ),
      'the language model tool has no implementation while the MCP server provides it',
    );
    const mcpName = vscode.lm.tools.find((t) => /^mcp_.*knowledge_desk_search_qna$/.test(t.name))!.name;
    const answer = await vscode.lm.invokeTool(mcpName, { input: { question: 'paid leave' }, toolInvocationToken: undefined }, token);
    const text = answer.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.ok(text.length > 0, 'the MCP tool answers through VS Code');
  });
});
