// The @knowledge chat participant: VS Code's chat in front of runChatTurn (src/ai/chatTurn.ts).
import * as vscode from 'vscode';
import { chatLinkUri, type ChatLink } from '../../ai/chatLinks';
import type * as ChatTurn from '../../ai/chatTurn';
import type { ChatCommand, ChatSink, ChatTurnDeps, TurnMetadata } from '../../ai/chatTurn';
import { CommandIds } from '../../platform/commandIds';

// The turn's code (zod schemas, the API client) loads with the first question, not at activation.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at activation
const chatTurn = (): typeof ChatTurn => require('../../ai/chatTurn');

export const PARTICIPANT_ID = 'knowledgeDesk.knowledge';

/** Turn deps for this request (region, identity and settings are read per request). */
export type DepsFactory = () => Omit<ChatTurnDeps, 'commands'>;

/** The handler, separate from the registration so it can be called without a chat UI. */
export function createChatHandler(deps: DepsFactory, uriScheme: () => string): vscode.ChatRequestHandler {
  return async (request, context, stream, token) => {
    const command: ChatCommand = request.command === 'docs' || request.command === 'faq' ? request.command : 'ask';
    const history = context.history
      .filter((turn): turn is vscode.ChatResponseTurn => turn instanceof vscode.ChatResponseTurn && turn.participant === PARTICIPANT_ID)
      .map((turn) => turn.result.metadata);
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    if (token.isCancellationRequested) controller.abort();
    try {
      const { runChatTurn, threadFromHistory } = chatTurn();
      const result = await runChatTurn(
        request.prompt,
        command,
        threadFromHistory(history),
        { ...deps(), commands: { setApiKey: CommandIds.setApiKey, selectRegion: CommandIds.selectRegion, showLog: CommandIds.showLog } },
        streamSink(stream, uriScheme()),
        controller.signal,
      );
      return { metadata: result.metadata };
    } finally {
      cancel.dispose();
    }
  };
}

export function streamSink(stream: vscode.ChatResponseStream, scheme: string): ChatSink {
  const uri = (link: ChatLink) => vscode.Uri.parse(chatLinkUri(scheme, link));
  return {
    progress: (message) => stream.progress(message),
    markdown: (text) => stream.markdown(text),
    anchor: (link, title) => stream.anchor(uri(link), title),
    reference: (link) => stream.reference(uri(link), new vscode.ThemeIcon(link.kind === 'qna' ? 'comment-discussion' : 'file')),
    button: (command) => stream.button(command),
  };
}

export function createParticipant(handler: vscode.ChatRequestHandler, extensionUri: vscode.Uri): vscode.ChatParticipant {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
  participant.followupProvider = {
    provideFollowups(result) {
      const followUp = (result.metadata as TurnMetadata | undefined)?.followUp;
      return followUp ? [{ prompt: followUp, label: followUp, command: 'ask' }] : [];
    },
  };
  return participant;
}
