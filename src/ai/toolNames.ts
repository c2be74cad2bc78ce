// Names of the knowledge tools: the same for the language model tools (package.json) and the MCP server.
// Kept apart from the tools themselves so the extension registers them without loading their code.

export const TOOL_NAMES = {
  retrieve: 'knowledge_desk_retrieve_pages',
  qna: 'knowledge_desk_search_qna',
  answer: 'knowledge_desk_answer',
} as const;
export type ToolName = (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];
