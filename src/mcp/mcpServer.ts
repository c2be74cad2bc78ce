// The MCP server: the knowledge tools of src/ai over the API client. A failed call is a tool error (isError)
// whose text says what to do; the process never crashes on bad input.
//
// It uses the SDK's low-level Server, not McpServer, because McpServer decides three things real clients
// refuse (the MCP Inspector's --strict): it converts the schemas with a draft-07 `$schema`, it strips
// unknown arguments before our check sees them (while the schema says additionalProperties: false), and it
// declares tools.listChanged although this list never changes. Here the schema is ours (no `$schema`: MCP's
// default dialect, 2020-12, reads it as it is), the arguments reach the tools' own strict zod check
// unchanged, and the capability is a plain `tools: {}`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { zodToJsonSchema } from 'zod-to-json-schema';
import type { ApiClient } from '../api/client';
import { TOOL_DESCRIPTIONS, TOOL_NAMES, TOOL_RUNNERS, type ToolName } from '../ai/knowledgeTools';
import { describeToolError, type ErrorHints } from '../ai/toolErrors';
import { answerInput, qnaInput, retrieveInput } from '../ai/toolInput';

export interface ServerDeps {
  /** The client, created on first use; rejects with MissingKeyError or a connection error. */
  client(): Promise<ApiClient>;
  hints: ErrorHints;
  log(message: string): void;
  version: string;
}

const TITLES: Record<ToolName, string> = {
  [TOOL_NAMES.retrieve]: 'Retrieve knowledge-base pages',
  [TOOL_NAMES.qna]: 'Search Q&As',
  [TOOL_NAMES.answer]: 'Answer with citations',
};
const INPUTS = { [TOOL_NAMES.retrieve]: retrieveInput, [TOOL_NAMES.qna]: qnaInput, [TOOL_NAMES.answer]: answerInput };

/** A tool's input schema as JSON Schema without a `$schema` line (the same object package.json declares). */
export function inputJsonSchema(name: ToolName): Tool['inputSchema'] {
  const { $schema: _dialect, ...schema } = zodToJsonSchema(INPUTS[name]) as Record<string, unknown>;
  return schema as Tool['inputSchema'];
}

const isToolName = (name: string): name is ToolName => (Object.values(TOOL_NAMES) as string[]).includes(name);

export function createMcpServer(deps: ServerDeps): Server {
  const tools: Tool[] = Object.values(TOOL_NAMES).map((name) => ({
    name,
    title: TITLES[name],
    description: TOOL_DESCRIPTIONS[name],
    inputSchema: inputJsonSchema(name),
    annotations: { readOnlyHint: true, openWorldHint: false },
  }));
  const server = new Server({ name: 'knowledge-desk', version: deps.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    // An unknown tool is a protocol error, as the specification says (the caller asked for something not listed).
    if (!isToolName(name))
      throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found: the tools are ${Object.values(TOOL_NAMES).join(', ')}.`);
    const started = Date.now();
    try {
      const text = await TOOL_RUNNERS[name](await deps.client(), request.params.arguments ?? {}, extra.signal);
      deps.log(`${name}: ${text.length} characters in ${Date.now() - started} ms`);
      return { content: [{ type: 'text' as const, text }] };
    } catch (error) {
      const { kind, message } = describeToolError(error, deps.hints);
      deps.log(`${name} failed (${kind}): ${message}`);
      return { content: [{ type: 'text' as const, text: message }], isError: true };
    }
  });
  return server;
}
