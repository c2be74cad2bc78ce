// What a chat panel needs from the feature (answersFeature.ts builds one per panel): the connection it was opened
// with, that connection's client, identity and conversations (issue 27), and the feature's pickers and export.
import type { ApiClient } from '../../../api/client';
import type { PanelBasics } from '../../../platform/webview/panelErrors';
import type { ConversationStore } from './conversationStore';
import type { Conversation, ScopeItem } from './protocol';

export interface ChatContext extends PanelBasics {
  /** The conversations of the panel's connection. */
  store: ConversationStore;
  /** The client of the connection the panel was opened with, not necessarily the active one. */
  client(): Promise<ApiClient>;
  /** That connection: its id and name (the page keeps them for a restart). */
  connection(): { id: string; name: string };
  /** Once that connection was removed: what to tell the person who asks (names it, says what to do). */
  gone(): string | undefined;
  /** That connection's identity has its own user id (docs/api.md#identity-headers): answers keep a thread. */
  ownUserIdSet(): boolean;
  logRawStream(): boolean;
  allowRemoteImages(): boolean;
  /** Quick pick of a folder: the scope item, null for the whole knowledge base, undefined if cancelled. */
  pickScope(): Promise<ScopeItem | null | undefined>;
  exportConversation(conversation: Conversation): Promise<void>;
}
