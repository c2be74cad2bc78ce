import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { TOOL_DESCRIPTIONS, TOOL_NAMES } from '../../../src/ai/knowledgeTools';
import { answerShape, qnaShape, retrieveShape } from '../../../src/ai/toolInput';
import { inputJsonSchema } from '../../../src/mcp/mcpServer';

interface Tool {
  name: string;
  toolReferenceName: string;
  modelDescription: string;
  canBeReferencedInPrompt: boolean;
  inputSchema: Record<string, unknown>;
  when: string;
}
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  contributes: {
    languageModelTools: Tool[];
    chatParticipants: Array<{ id: string; name: string; commands: Array<{ name: string }>; when: string }>;
    mcpServerDefinitionProviders: Array<{ id: string; when: string }>;
    configuration: { properties: Record<string, { scope: string; default: unknown }> };
  };
};

describe('AI contributions in package.json match the shared tool definitions', () => {
  const shapes = { [TOOL_NAMES.retrieve]: retrieveShape, [TOOL_NAMES.qna]: qnaShape, [TOOL_NAMES.answer]: answerShape };

  it('declares each tool with the same input schema and model description as the MCP server', () => {
    const tools = manifest.contributes.languageModelTools;
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.values(TOOL_NAMES).sort());
    for (const tool of tools) {
      const name = tool.name as keyof typeof shapes;
      assert.equal(tool.modelDescription, TOOL_DESCRIPTIONS[name], name);
      const { $schema: _s, ...expected } = zodToJsonSchema(z.object(shapes[name]).strict()) as Record<string, unknown>;
      assert.deepEqual(tool.inputSchema, expected, name);
      assert.deepEqual(inputJsonSchema(name), expected, `${name}: the MCP server lists the same schema`);
      assert.equal(tool.canBeReferencedInPrompt, true);
      assert.match(tool.toolReferenceName, /^knowledge\w*$/);
      // Set while the extension has them registered: not with knowledgeDesk.ai.enabled off, nor while the MCP
      // server definition replaces them (knowledgeDesk.ai.mcpServer), so each tool is listed once.
      assert.equal(tool.when, 'knowledgeDesk.ai.lmTools');
    }
    assert.equal(tools.find((t) => t.name === TOOL_NAMES.answer)?.toolReferenceName, 'knowledge');
  });

  it('declares @knowledge with /ask /docs /faq, the MCP provider, and the application-scoped switch', () => {
    const [participant] = manifest.contributes.chatParticipants;
    assert.equal(participant.name, 'knowledge');
    assert.deepEqual(
      participant.commands.map((c) => c.name),
      ['ask', 'docs', 'faq'],
    );
    assert.equal(participant.when, 'config.knowledgeDesk.ai.enabled');
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [
      { id: 'knowledgeDesk.mcp', label: '%displayName%', when: 'config.knowledgeDesk.ai.enabled && config.knowledgeDesk.ai.mcpServer' },
    ]);
    // No VS Code knows this contribution point (1.139 does not; 1.100 had the API behind a proposal).
    assert.equal('modelContextServerCollections' in manifest.contributes, false);
    const setting = manifest.contributes.configuration.properties['knowledgeDesk.ai.enabled'];
    assert.deepEqual([setting.scope, setting.default], ['application', true]);
    const viaMcp = manifest.contributes.configuration.properties['knowledgeDesk.ai.mcpServer'];
    assert.deepEqual([viaMcp.scope, viaMcp.default], ['application', false]);
  });
});
