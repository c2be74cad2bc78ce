// Messages of the Q&A editor webview, imported by the host (qaEditorPanel.ts) and the page
// (src/webview/qaEditor). No vscode and no DOM here.
import { z } from 'zod';
import {
  defineProtocol,
  emptySchema,
  request,
  snapshotAndDrive,
  withPageNotifications,
  panelConnectionSchema,
} from '../../../platform/webview/protocol';

export const QA_EDITOR_VIEW_TYPE = 'knowledgeDesk.qaEditor';

// Wire caps only (a page cannot flood the host); the service's limits are checked in qaDraft.ts.
const text = z.string().max(200_000);
const list = z.array(z.string().max(200_000)).max(1_000);

/** The editable fields, as the form holds them. memo exists only for a new Q&A (the service never returns it). */
export const qaDraftSchema = z.object({
  question: text,
  similarQuestions: list,
  answer: text,
  hashtags: list,
  status: z.enum(['on', 'off']),
  folder: text,
  allowOtherAgentsView: z.boolean(),
  allowOtherUsersView: z.boolean(),
  memo: text,
});
export type QaDraft = z.infer<typeof qaDraftSchema>;
export type QaField = keyof QaDraft;

export const feedbackCountsSchema = z.object({
  positiveCount: z.number().int().nonnegative(),
  negativeCount: z.number().int().nonnegative(),
});
export type FeedbackCounts = z.infer<typeof feedbackCountsSchema>;

/** A Q&A as the service returned it, shaped for the editor. */
export const qaRecordSchema = z.object({
  id: z.string().min(1),
  values: qaDraftSchema,
  userFeedback: feedbackCountsSchema,
  agentFeedback: feedbackCountsSchema,
  createdDate: z.string().optional(),
  lastUpdatedDate: z.string().optional(),
  statusOnAt: z.string().optional(),
  statusOffAt: z.string().optional(),
  agentEditor: z.array(z.string()),
  agentViewer: z.array(z.string()),
});
export type QaRecord = z.infer<typeof qaRecordSchema>;

export const qaTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('new'), key: z.string().min(1).max(100) }),
  z.object({ kind: z.literal('existing'), id: z.string().min(1).max(1_000) }),
]);
export type QaTarget = z.infer<typeof qaTargetSchema>;

/** Field errors by field name, or `similarQuestions.<i>` / `hashtags.<i>` for one item. */
export const fieldErrorsSchema = z.record(z.string());
export type FieldErrors = z.infer<typeof fieldErrorsSchema>;

/** What the page keeps with setState: survives hiding the panel and restarting VS Code (serializer). */
export const qaEditorStateSchema = z.object({
  target: qaTargetSchema,
  draft: qaDraftSchema.optional(),
  /** Absent in the state of an editor from before connections: it reopens on the active one. */
  connection: panelConnectionSchema.optional(),
});
export type QaEditorState = z.infer<typeof qaEditorStateSchema>;

export const editorActionSchema = z.enum(['save', 'delete', 'toggle', 'copyId', 'helpful', 'notHelpful', 'clearFeedback', 'reload']);
export type EditorAction = z.infer<typeof editorActionSchema>;

const saveResultSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('saved'), record: qaRecordSchema, created: z.boolean() }),
  z.object({ outcome: z.literal('unchanged') }),
  z.object({ outcome: z.literal('invalid'), fieldErrors: fieldErrorsSchema }),
]);
export type SaveResult = z.infer<typeof saveResultSchema>;

/**
 * The tests' requests (`snapshot`: what the page shows; `drive`: work its controls as a person would). Called
 * only in the test build (src/testBuild.d.ts): elsewhere esbuild drops this function, so no other build has
 * these requests, their schemas or the pages' handlers of them.
 */
function testRequests() {
  const snapshotSchema = z.object({
    target: qaTargetSchema.nullable(),
    draft: qaDraftSchema.nullable(),
    dirty: z.boolean(),
    busy: z.boolean(),
    fieldErrors: fieldErrorsSchema,
    error: z.string().nullable(),
    previewHtml: z.string(),
    blockedImages: z.number().int(),
    feedbackText: z.string(),
    /** The notice above the form ('' when none). */
    notice: z.string(),
    /** The host's hashtag picker is open for this page ("Choose…" waits for its answer). */
    choosingHashtags: z.boolean(),
  });

  // drive: types into fields and/or presses a button as a person would.
  return snapshotAndDrive(
    snapshotSchema,
    z.object({
      fill: qaDraftSchema.partial().optional(),
      click: editorActionSchema.optional(),
      chooseHashtags: z.boolean().optional(),
    }),
  );
}

export const qaEditorProtocol = defineProtocol({
  name: 'qaEditor',
  toHost: {
    notifications: withPageNotifications({
      /** Unsaved changes and the question typed so far (the panel title follows it). */
      dirty: z.object({ dirty: z.boolean(), question: z.string().max(200_000) }),
    }),
    requests: {
      save: request(z.object({ draft: qaDraftSchema }), saveResultSchema),
      delete: request(emptySchema, z.object({ deleted: z.boolean() })),
      toggle: request(emptySchema, z.object({ record: qaRecordSchema })),
      copyId: request(emptySchema, z.object({ copied: z.boolean() })),
      feedback: request(
        z.object({ isPositive: z.boolean().nullable() }),
        z.object({ userFeedback: feedbackCountsSchema, agentFeedback: feedbackCountsSchema }),
      ),
      reload: request(emptySchema, z.object({ record: qaRecordSchema })),
      /**
       * "Choose…" beside the hashtags: the host shows the shared hashtag picker (hashtags in use with their
       * counts, `current` ticked); `hashtags` is the chosen list (without #), null when the person cancelled.
       */
      chooseHashtags: request(z.object({ current: list }), z.object({ hashtags: list.nullable() })),
    },
  },
  toPage: {
    notifications: {
      /** Sent on every load of the page. `record` is null for a new Q&A or while loading. */
      init: z.object({
        target: qaTargetSchema,
        record: qaRecordSchema.nullable(),
        prefill: qaDraftSchema.partial().nullable(),
        loading: z.boolean(),
        /** The editor's connection, kept in the page state so a restart reopens it there (the host always sends it). */
        connection: panelConnectionSchema.optional(),
      }),
      /** A newer version of the Q&A (loaded, or changed by another panel or the tree). */
      record: z.object({ record: qaRecordSchema }),
      busy: z.object({ busy: z.boolean(), label: z.string().optional() }),
      /** A failure to show above the form (null clears it). */
      error: z.object({ message: z.string() }).nullable(),
    },
    // Only the test build answers (and sends) them.
    requests: globalThis.__KD_TEST__ ? testRequests() : ({} as ReturnType<typeof testRequests>),
  },
});
export type QaEditorProtocol = typeof qaEditorProtocol;
/** What the page shows, as `snapshot` answers in the test build. */
export type EditorSnapshot = z.infer<ReturnType<typeof testRequests>['snapshot']['result']>;
