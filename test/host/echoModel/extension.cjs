// A language model that answers with the last user message: enough for VS Code's chat view to send a request to
// @knowledge, which answers from the knowledge base without a model. Loaded only in the current lane
// (test/host/lanes.mjs), as a second development extension.
const vscode = require('vscode');

const MODEL = {
  id: 'echo',
  name: 'Echo',
  family: 'echo',
  version: '1',
  maxInputTokens: 100_000,
  maxOutputTokens: 10_000,
  isUserSelectable: true,
  capabilities: { imageInput: false, toolCalling: false },
};

function textOf(message) {
  return message.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('kd-echo', {
      provideLanguageModelChatInformation: () => [MODEL],
      async provideLanguageModelChatResponse(_model, messages, _options, progress) {
        progress.report(new vscode.LanguageModelTextPart(`echo: ${textOf(messages.at(-1) ?? { content: [] })}`));
      },
      provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : textOf(text)).length / 4),
    }),
  );
};
exports.activate.model = MODEL;
