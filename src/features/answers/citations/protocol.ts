// Messages of the citation viewer webview, imported by the host (citationPanel.ts) and the page
// (src/webview/citation). No vscode and no DOM here.
import { z } from 'zod';
import {
  defineProtocol,
  emptySchema,
  request,
  snapshotAndDrive,
  withPageNotifications,
  panelConnectionSchema,
} from '../../../platform/webview/protocol';

export const CITATION_VIEW_TYPE = 'knowledgeDesk.citation';

/** Wire caps: a document's text may be long, but not unbounded. */
export const MAX_TEXT_CHARS = 5_000_000;
export const MAX_PDF_BYTES = 200 * 1024 * 1024;

export const pageNo = z.number().int().min(1).max(1_000_000);

/**
 * What is being shown: a cited passage of a document. Held by the host, saved by the page (so a
 * restart reopens it) — so it never holds a key or a download link, only ids and text.
 */
export const citationTargetSchema = z.object({
  title: z.string().max(1_000).optional(),
  /** Knowledge base node (document) id. */
  kbId: z.string().min(1).max(1_000).optional(),
  pageNo: pageNo.optional(),
  passageText: z.string().max(100_000).optional(),
  /** The chunk of the page a retrieval result came from, when the service said. */
  subTextIndex: z.number().int().nonnegative().optional(),
  clueId: z.string().min(1).max(1_000).optional(),
  question: z.string().max(10_000).optional(),
  answer: z.string().max(100_000).optional(),
  /** Source of a web citation (https/http only is ever linked). */
  url: z.string().max(4_000).optional(),
  source: z.string().max(100).optional(),
  /** Citation number in the answer ([n]). */
  index: z.number().int().optional(),
});
export type CitationTarget = z.infer<typeof citationTargetSchema>;

/** A highlight box as the service gives it: page fractions (0..1, origin top-left), or PDF points. */
export const wireBBoxSchema = z.object({
  left: z.number().finite(),
  top: z.number().finite(),
  right: z.number().finite(),
  bottom: z.number().finite(),
});
export type WireBBox = z.infer<typeof wireBBoxSchema>;

const bytesSchema = z.custom<Uint8Array>((v) => v instanceof Uint8Array && v.byteLength <= MAX_PDF_BYTES, 'PDF bytes (Uint8Array)');

const common = {
  title: z.string().max(1_000),
  /** The cited page (1-based), when known. */
  pageNo: pageNo.nullable(),
  passageText: z.string().max(100_000),
  /** Things the reader should know (shown as info banners), e.g. "the service returned no highlight". */
  notes: z.array(z.string().max(2_000)).max(10),
};

export const documentViewSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('loading'), title: z.string().max(1_000) }),
  z.object({
    kind: z.literal('pdf'),
    ...common,
    data: bytesSchema,
    /** Where the bytes came from: the knowledge base (local service) or the answer's PDF preview. */
    origin: z.enum(['document', 'preview']),
    bboxes: z.array(wireBBoxSchema).max(2_000),
    /** The page the boxes belong to (the service may name it); null: the cited page. */
    highlightPageNo: pageNo.nullable(),
  }),
  z.object({
    kind: z.literal('text'),
    ...common,
    /** markdown, html, docx, text, … as the service names it. */
    format: z.string().max(50),
    pages: z.array(z.object({ pageNo, text: z.string().max(MAX_TEXT_CHARS) })).max(100_000),
    estimatedPages: z.boolean(),
  }),
  z.object({
    kind: z.literal('fallback'),
    ...common,
    /** Why the document itself is not shown. */
    reason: z.string().max(2_000),
    url: z.string().max(4_000).nullable(),
  }),
  z.object({ kind: z.literal('error'), title: z.string().max(1_000), message: z.string().max(2_000) }),
]);
export type DocumentView = z.infer<typeof documentViewSchema>;
export type PdfView = Extract<DocumentView, { kind: 'pdf' }>;
export type TextView = Extract<DocumentView, { kind: 'text' }>;
export type FallbackView = Extract<DocumentView, { kind: 'fallback' }>;

export const rectSchema = z.object({ left: z.number(), top: z.number(), width: z.number(), height: z.number() });
export type Rect = z.infer<typeof rectSchema>;

/** What the page drew (tests assert it; the host logs it at debug level). */
export const renderedSchema = z.object({
  view: z.enum(['pdf', 'text', 'fallback', 'error']),
  pageNo: z.number().int().nullable(),
  pageCount: z.number().int().nullable(),
  /** CSS pixels of the rendered page (PDF). */
  canvas: z.object({ width: z.number(), height: z.number() }).nullable(),
  scale: z.number().nullable(),
  /** Highlight rectangles drawn, CSS pixels relative to the page's top-left corner. */
  rects: z.array(rectSchema).max(5_000),
  /** service: the service's boxes; text: found by the passage text; none: not highlighted. */
  highlightSource: z.enum(['service', 'text', 'none']),
  /** The highlighted text (text view: the marked range; PDF: the text under a text-matched highlight). */
  highlightedText: z.string().max(100_000),
  /** The start of the page's text as the page decoded it (PDF: its text content). */
  textSample: z.string().max(2_000),
  /** pdfjs warnings about fonts and character maps while rendering this page. */
  fontProblems: z.array(z.string().max(1_000)).max(50),
});
export type RenderedReport = z.infer<typeof renderedSchema>;

export const zoomSchema = z.union([z.literal('fit'), z.number().min(0.25).max(4)]);
export type Zoom = z.infer<typeof zoomSchema>;

/** Page state (setState): reopens the same citation after a restart, on the connection it was read from. */
export const citationStateSchema = z.object({
  target: citationTargetSchema,
  pageNo: pageNo.optional(),
  zoom: zoomSchema.optional(),
  /** Absent in the state of a viewer from before connections: it reopens on the active one. */
  connection: panelConnectionSchema.optional(),
});
export type CitationState = z.infer<typeof citationStateSchema>;

/**
 * The tests' requests (`snapshot`: what the page shows; `drive`: work its controls as a person would). Called
 * only in the test build (src/testBuild.d.ts): elsewhere esbuild drops this function, so no other build has
 * these requests, their schemas or the pages' handlers of them.
 */
function testRequests() {
  const citationSnapshotSchema = z.object({
    view: z.enum(['none', 'loading', 'pdf', 'text', 'fallback', 'error']),
    pageNo: z.number().int().nullable(),
    pageCount: z.number().int().nullable(),
    zoom: zoomSchema,
    notes: z.array(z.string()),
    rendered: renderedSchema.nullable(),
    /** What the page's polite live region says of the page shown ("Page 3 of 12, passage highlighted: …"). */
    status: z.string(),
    /** The header line under the title as shown ("PDF · page 3 of 12 · highlighted by the service"). */
    header: z.string(),
    /** PDF: the page whose drawing on the canvas finished (null while one is being drawn, or no PDF). */
    canvasPageNo: z.number().int().nullable(),
    /** PDF: the page number in the toolbar's box, and whether "Back to cited page" is offered. */
    toolbar: z.object({ page: z.number().int(), backToCited: z.boolean() }).nullable(),
  });

  // drive: go to a page and/or zoom, as the toolbar does.
  return snapshotAndDrive(
    citationSnapshotSchema,
    z.object({ pageNo: pageNo.optional(), zoom: z.union([zoomSchema, z.enum(['in', 'out'])]).optional() }),
  );
}

export const citationProtocol = defineProtocol({
  name: 'citation',
  toHost: {
    notifications: withPageNotifications({
      rendered: renderedSchema,
    }),
    requests: {
      /** Try again after a failure (Retry button). */
      reload: request(emptySchema, z.object({ reloaded: z.boolean() })),
    },
  },
  toPage: {
    notifications: {
      /**
       * What to show, with the target to save in the page state; sent on every load of the page. `reset`: a
       * citation was clicked, so its cited page is shown, not the place the page state kept for the same target.
       */
      show: z.object({
        target: citationTargetSchema,
        view: documentViewSchema,
        reset: z.boolean().optional(),
        /** The viewer's connection, kept in the page state so a restart reopens it there (the host always sends it). */
        connection: panelConnectionSchema.optional(),
      }),
    },
    // Only the test build answers (and sends) them.
    requests: globalThis.__KD_TEST__ ? testRequests() : ({} as ReturnType<typeof testRequests>),
  },
});
export type CitationProtocol = typeof citationProtocol;
/** What the page shows, as `snapshot` answers in the test build. */
export type CitationSnapshot = z.infer<ReturnType<typeof testRequests>['snapshot']['result']>;
