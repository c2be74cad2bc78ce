// Messages of the Answers chat webview, imported by the host (chatPanel.ts) and the page
// (src/webview/chat). No vscode and no DOM here. Both sides validate what they receive.
import { z } from 'zod';
import {
  defineProtocol,
  emptySchema,
  snapshotAndDrive,
  withPageNotifications,
  panelConnectionSchema,
} from '../../../platform/webview/protocol';

export const CHAT_VIEW_TYPE = 'knowledgeDesk.chat';

/** Wire caps (a page cannot flood the host, a broken service cannot flood the page). */
export const CHAT_LIMITS = { question: 20_000, answer: 1_000_000, citations: 200, citationText: 20_000, scope: 100, hashtags: 50 } as const;

const id = z.string().min(1).max(200);

export const scopeItemSchema = z.object({
  id: z.string().min(1).max(500),
  name: z.string().max(1_000),
  kind: z.enum(['folder', 'document']),
});
export type ScopeItem = z.infer<typeof scopeItemSchema>;

/** What the Options section sets; sent with each question and kept with the conversation. */
export const chatOptionsSchema = z.object({
  /** Empty: the whole knowledge base. */
  scope: z.array(scopeItemSchema).max(CHAT_LIMITS.scope),
  sources: z.object({ document: z.boolean(), qna: z.boolean(), web: z.boolean() }),
  hashtags: z.array(z.string().min(1).max(200)).max(CHAT_LIMITS.hashtags),
  hashtagsOperator: z.enum(['and', 'or']),
  /** Free text; empty: the service's default model. */
  model: z.string().max(200),
  temperature: z.number().min(0).max(1),
});
export type ChatOptions = z.infer<typeof chatOptionsSchema>;

export function defaultChatOptions(): ChatOptions {
  return { scope: [], sources: { document: true, qna: true, web: false }, hashtags: [], hashtagsOperator: 'or', model: '', temperature: 0 };
}

/** A citation as the page shows it (the service's fields, nulls dropped, text capped). */
export const chatCitationSchema = z.object({
  index: z.number().int(),
  clueId: z.string().max(1_000).optional(),
  source: z.string().max(200).optional(),
  title: z.string().max(2_000).optional(),
  pageNo: z.number().int().optional(),
  knowledgeBaseId: z.string().max(1_000).optional(),
  faqId: z.string().max(1_000).optional(),
  url: z.string().max(4_000).optional(),
  text: z.string().max(CHAT_LIMITS.citationText).optional(),
});
export type ChatCitation = z.infer<typeof chatCitationSchema>;

/** A next step offered with an error (only the commands the host allows run). */
export const errorActionSchema = z.object({ label: z.string().max(100), command: z.string().max(200) });

export const turnStatusSchema = z.enum(['streaming', 'done', 'stopped', 'error']);
export type TurnStatus = z.infer<typeof turnStatusSchema>;

/** The user's 👍/👎 on an answer (`mrc/user_feedback`) and the answer's counts after it; `positive` null: none. */
export const turnFeedbackSchema = z.object({
  positive: z.boolean().nullable(),
  positiveCount: z.number().int().nonnegative(),
  negativeCount: z.number().int().nonnegative(),
});
export type TurnFeedback = z.infer<typeof turnFeedbackSchema>;

/** One question and its answer. `id` is also the request id of its stream. */
export const turnSchema = z.object({
  id,
  question: z.string().max(CHAT_LIMITS.question),
  answer: z.string().max(CHAT_LIMITS.answer),
  citations: z.array(chatCitationSchema).max(CHAT_LIMITS.citations),
  fuQuestion: z.string().max(2_000).optional(),
  threadId: z.string().max(200).optional(),
  /** Sent in a conversation thread (isStateful with OWN-USER-ID). */
  stateful: z.boolean(),
  model: z.string().max(200).optional(),
  /** The service's remarks on how it answered (e.g. an option it could not honour). */
  notes: z.array(z.string().max(1_000)).max(10).optional(),
  status: turnStatusSchema,
  error: z.object({ message: z.string().max(4_000), actions: z.array(errorActionSchema).max(4) }).optional(),
  askedAt: z.number(),
  answeredAt: z.number().optional(),
  /** Deltas applied to `answer` so far: the page ignores deltas it already has (after a reload). */
  seq: z.number().int().nonnegative(),
  /** What answer feedback needs (from the final answer); without both the 👍/👎 buttons are not shown. */
  answerHash: z.string().max(200).optional(),
  documentId: z.string().max(200).optional(),
  feedback: turnFeedbackSchema.optional(),
});
export type Turn = z.infer<typeof turnSchema>;

export const conversationSchema = z.object({
  id,
  title: z.string().max(200),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The service's thread of this conversation (stateful follow-ups). */
  threadId: z.string().max(200).optional(),
  options: chatOptionsSchema,
  turns: z.array(turnSchema).max(500),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const conversationSummarySchema = z.object({
  id,
  title: z.string().max(200),
  updatedAt: z.number(),
  turns: z.number().int().nonnegative(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

/** What the page keeps with setState (survives hiding the panel and a restart, read by the serializer). */
export const chatStateSchema = z.object({
  /** Absent in the state of a panel from before connections: it asks the active one. */
  connection: panelConnectionSchema.optional(),
  conversationId: id.optional(),
  options: chatOptionsSchema.optional(),
  draft: z.string().max(CHAT_LIMITS.question).optional(),
  optionsOpen: z.boolean().optional(),
});
export type ChatState = z.infer<typeof chatStateSchema>;

const conversationId = z.object({ conversationId: id });

/**
 * The tests' requests (`snapshot`: what the page shows; `drive`: work its controls as a person would). Called
 * only in the test build (src/testBuild.d.ts): elsewhere esbuild drops this function, so no other build has
 * these requests, their schemas or the pages' handlers of them.
 */
function testRequests() {
  /** What the page shows, for tests and diagnostics. */
  const snapshotSchema = z.object({
    ready: z.boolean(),
    conversationId: z.string().nullable(),
    title: z.string(),
    conversations: z.number().int(),
    streaming: z.string().nullable(),
    hintShown: z.boolean(),
    notice: z.string().nullable(),
    options: chatOptionsSchema,
    optionsOpen: z.boolean(),
    draft: z.string(),
    /** The question's count under the box ("1,950 / 2,000 characters", or why it cannot be sent), null when not shown. */
    questionCount: z.string().nullable(),
    /** The frame as laid out: the page itself never scrolls; the header's top and the composer's bottom are on screen. */
    frame: z.object({ pageScrollTop: z.number(), headerTop: z.number(), composerBottom: z.number(), viewportHeight: z.number() }),
    turns: z.array(
      z.object({
        id: z.string(),
        question: z.string(),
        status: turnStatusSchema,
        answerText: z.string(),
        answerHtml: z.string(),
        citationLinks: z.number().int(),
        sources: z.array(z.object({ index: z.number().int(), title: z.string(), kind: z.string(), page: z.string() })),
        followUp: z.string().nullable(),
        error: z.string().nullable(),
        model: z.string().nullable(),
        /** The feedback row ("up 1 · down 0" once counts are known, the pressed button), null when not shown. */
        feedback: z.object({ text: z.string(), pressed: z.enum(['up', 'down', 'none']) }).nullable(),
      }),
    ),
    /** What the page's polite live region says now, and how often it was set (once per finished answer). */
    announced: z.string(),
    announcements: z.number().int(),
    /** The focused element (turnSnapshot.ts describeFocus), null when nothing in the page has the focus. */
    focused: z.string().nullable(),
    /** Whole-answer Markdown renders, block renders and deltas applied since the page loaded. */
    stats: z.object({ fullRenders: z.number().int(), blockRenders: z.number().int(), deltas: z.number().int() }),
  });

  /** Automation: what a person would do in the page (integration tests). One action per call. */
  const driveSchema = z.object({
    type: z.string().max(CHAT_LIMITS.question).optional(),
    send: z.boolean().optional(),
    stop: z.boolean().optional(),
    clickCitation: z.object({ turnId: z.string().optional(), index: z.number().int() }).optional(),
    clickMarker: z.object({ turnId: z.string().optional(), index: z.number().int() }).optional(),
    clickFollowUp: z.object({ turnId: z.string().optional() }).optional(),
    retry: z.object({ turnId: z.string().optional() }).optional(),
    feedback: z.object({ turnId: z.string().optional(), positive: z.boolean() }).optional(),
    newChat: z.boolean().optional(),
    switchTo: z.string().optional(),
    exportChat: z.boolean().optional(),
    chooseScope: z.boolean().optional(),
    setIdentity: z.boolean().optional(),
    options: chatOptionsSchema.partial().optional(),
    toggleOptions: z.boolean().optional(),
    /** Keyboard: focus an element (before `type`), then press a key on whatever has the focus (after `type`). */
    focus: z
      .union([
        z.enum(['question', 'send', 'stop']),
        z.object({ turnId: z.string().optional(), source: z.number().int().optional(), marker: z.number().int().optional() }),
      ])
      .optional(),
    press: z.object({ key: z.string().min(1).max(20), shift: z.boolean().optional() }).optional(),
  });

  return snapshotAndDrive(snapshotSchema, driveSchema);
}
export type ChatSnapshot = z.infer<ReturnType<typeof testRequests>['snapshot']['result']>;
export type DriveParams = z.infer<ReturnType<typeof testRequests>['drive']['params']>;

export const chatProtocol = defineProtocol({
  name: 'chat',
  toHost: {
    notifications: withPageNotifications({
      /** Ask `question` in the conversation (a retry names the failed turn it replaces). */
      ask: z.object({
        conversationId: id.nullable(),
        question: z.string().trim().min(1).max(CHAT_LIMITS.question),
        options: chatOptionsSchema,
        retryOf: id.optional(),
      }),
      /** Stop the stream of this request (Stop button). */
      abort: z.object({ requestId: id }),
      openCitation: z.object({ turnId: id, citation: chatCitationSchema }),
      optionsChanged: conversationId.extend({ options: chatOptionsSchema }),
      newChat: emptySchema,
      switchConversation: conversationId,
      deleteConversation: conversationId,
      exportChat: emptySchema,
      chooseScope: emptySchema,
      setIdentity: emptySchema,
      /** A next step shown with an error (Set API Key, Select Region). */
      runAction: z.object({ command: z.string().max(200) }),
      /** The page missed part of a stream: send the conversation again. */
      resync: emptySchema,
      /** 👍 (true) or 👎 (false) clicked on an answer; the host turns a second click on the same button into a cancel. */
      feedback: z.object({ turnId: id, positive: z.boolean() }),
    }),
    requests: {},
  },
  toPage: {
    notifications: {
      /** Sent on every load of the page: everything it shows. */
      init: z.object({
        conversation: conversationSchema,
        conversations: z.array(conversationSummarySchema),
        ownUserIdSet: z.boolean(),
        /** Kept in the page's state, so a restart pins the panel to it again. */
        connection: panelConnectionSchema,
      }),
      /** Another conversation is shown (New Chat, switch, restore). */
      conversation: z.object({ conversation: conversationSchema }),
      conversations: z.object({ conversations: z.array(conversationSummarySchema) }),
      /** The host changed the options (Ask About This Folder, Choose…). */
      options: conversationId.extend({ options: chatOptionsSchema, focus: z.boolean().optional() }),
      identity: z.object({ ownUserIdSet: z.boolean() }),
      turnStarted: conversationId.extend({ turn: turnSchema, replaces: id.optional() }),
      /** Text to append to the answer of `requestId` (or, when `replaced`, the whole answer so far). */
      delta: z.object({ requestId: id, seq: z.number().int().positive(), text: z.string().max(CHAT_LIMITS.answer), replaced: z.boolean() }),
      turnFinished: conversationId.extend({ turn: turnSchema }),
      /** The feedback of a turn after the service took it; `offered` false hides the buttons (404/405 from the deployment). */
      feedback: z.object({ turnId: id, feedback: turnFeedbackSchema.nullable(), offered: z.boolean() }),
      /** A short line above the composer (null clears it). */
      notice: z
        .object({
          message: z.string().max(500),
          kind: z.enum(['info', 'warning']),
          /** A question the host did not send: back in the question box, unless something else was typed since. */
          unsent: z.string().max(CHAT_LIMITS.question).optional(),
        })
        .nullable(),
    },
    // Only the test build answers (and sends) them.
    requests: globalThis.__KD_TEST__ ? testRequests() : ({} as ReturnType<typeof testRequests>),
  },
});
export type ChatProtocol = typeof chatProtocol;
