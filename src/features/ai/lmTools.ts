// Language model tools (vscode.lm.registerTool) over the shared knowledge tools of src/ai: the same input
// checks, output and budget as the MCP server. A failure is thrown as an Error whose message tells the
// model (and the person) what to do; VS Code hands it to the model as the tool's result.
import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import { clip } from '../../ai/budget';
import type * as KnowledgeTools from '../../ai/knowledgeTools';
import type * as ToolErrors from '../../ai/toolErrors';
import type { ErrorHints } from '../../ai/toolErrors';
import { TOOL_NAMES, type ToolName } from '../../ai/toolNames';
import type { Log } from '../../platform/logger';

// The tools' code (zod schemas, the API client) loads on the first call, not at activation.
/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, not at activation */
const lazy = {
  tools: (): typeof KnowledgeTools => require('../../ai/knowledgeTools'),
  errors: (): typeof ToolErrors => require('../../ai/toolErrors'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** What the chat shows while a tool runs (in the display language; the tool's result itself stays English, for the model). */
const ACTIONS: Record<ToolName, { plain: () => string; about: (question: string) => string }> = {
  [TOOL_NAMES.retrieve]: {
    plain: () => vscode.l10n.t('Searching the knowledge base'),
    about: (q) => vscode.l10n.t('Searching the knowledge base for "{0}"', q),
  },
  [TOOL_NAMES.qna]: { plain: () => vscode.l10n.t('Searching Q&As'), about: (q) => vscode.l10n.t('Searching Q&As for "{0}"', q) },
  [TOOL_NAMES.answer]: {
    plain: () => vscode.l10n.t('Asking Knowledge Desk'),
    about: (q) => vscode.l10n.t('Asking Knowledge Desk "{0}"', q),
  },
};

export interface ToolDeps {
  client(): Promise<ApiClient>;
  hints: ErrorHints;
  log: Log;
  /** Where a question goes (region name and host); undefined for the local service, where it stays on this machine. */
  destination(): { label: string; host: string } | undefined;
}

export function registerKnowledgeTools(tool: (name: ToolName) => vscode.LanguageModelTool<Record<string, unknown>>): vscode.Disposable[] {
  return Object.values(TOOL_NAMES).map((name) => vscode.lm.registerTool<Record<string, unknown>>(name, tool(name)));
}

/** One tool, apart from its registration (integration tests invoke it with a window's deps). */
export function knowledgeTool(name: ToolName, deps: ToolDeps): vscode.LanguageModelTool<Record<string, unknown>> {
  return {
    prepareInvocation(options) {
      const question = typeof options.input?.question === 'string' ? clip(options.input.question.replace(/\s+/g, ' '), 80) : '';
      const invocationMessage = question ? ACTIONS[name].about(question) : ACTIONS[name].plain();
      // A question for a remote region leaves this machine: the person confirms where it goes (VS Code offers
      // "always allow"). The local service is this machine, and the tools are read-only: nothing to confirm.
      const where = deps.destination();
      if (!where) return { invocationMessage };
      // Plain text, not Markdown: the question may hold any characters, and is shown as it was asked.
      const message = question
        ? vscode.l10n.t(
            '"{0}" leaves this machine: it is sent to the Knowledge Desk service at {1} (region {2}).',
            question,
            where.host,
            where.label,
          )
        : vscode.l10n.t(
            'The question leaves this machine: it is sent to the Knowledge Desk service at {0} (region {1}).',
            where.host,
            where.label,
          );
      return { invocationMessage, confirmationMessages: { title: vscode.l10n.t('Send the question to {0}?', where.host), message } };
    },
    async invoke(options, token) {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      try {
        const text = await lazy.tools().TOOL_RUNNERS[name](await deps.client(), options.input, controller.signal);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
      } catch (error) {
        const { kind, message } = lazy.errors().describeToolError(error, deps.hints);
        deps.log.warn(`tool ${name} failed (${kind}): ${message}`);
        throw new Error(message);
      } finally {
        cancel.dispose();
      }
    },
  };
}
