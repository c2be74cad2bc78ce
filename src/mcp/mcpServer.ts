// The MCP server: the knowledge tools of src/ai over the API client, with the SDK's McpServer. A failed
// call is a tool error (isError) whose text says what to do; the process never crashes on bad input.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../api/client';
import { TOOL_DESCRIPTIONS, TOOL_NAMES, TOOL_RUNNERS, type ToolName } from '../ai/knowledgeTools';
import { describeToolError, type ErrorHints } from '../ai/toolErrors';
import { answerShape, qnaShape, retrieveShape } from '../ai/toolInput';

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
const SHAPES = { [TOOL_NAMES.retrieve]: retrieveShape, [TOOL_NAMES.qna]: qnaShape, [TOOL_NAMES.answer]: answerShape };

export function createMcpServer(deps: ServerDeps): McpServer {
  const server = new McpServer({ name: 'knowledge-desk', version: deps.version });
  for (const name of Object.values(TOOL_NAMES)) {
    server.registerTool(
      name,
      {
        title: TITLES[name],
        description: TOOL_DESCRIPTIONS[name],
        inputSchema: SHAPES[name],
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async (args: Record<string, unknown>, extra: { signal: AbortSignal }) => {
        const started = Date.now();
        try {
          const text = await TOOL_RUNNERS[name](await deps.client(), args, extra.signal);
          deps.log(`${name}: ${text.length} characters in ${Date.now() - started} ms`);
          return { content: [{ type: 'text' as const, text }] };
        } catch (error) {
          const { kind, message } = describeToolError(error, deps.hints);
          deps.log(`${name} failed (${kind}): ${message}`);
          return { content: [{ type: 'text' as const, text: message }], isError: true };
        }
      },
    );
  }
  return server;
}
