// Arguments of knowledgeDesk.answers.openCitation / openDocument, checked before anything opens.
// Pure (no vscode): unit-tested in Node; its one message for people goes through @vscode/l10n.
import * as l10n from '@vscode/l10n';
import { z } from 'zod';
import { CommandIds } from '../../../platform/commandIds';
import { kbNodeOf } from '../../../platform/tree/kbNodeElement';
import type { CitationTarget } from './protocol';

const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => (v?.trim() ? v : undefined));
const optionalPage = z
  .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
  .nullish()
  .transform((v) => (typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : undefined));

/** A citation of a generative answer (docs/api.md#answer-response), tolerant like the client: nulls and unknown keys pass. */
const citationSchema = z
  .object({
    index: z.number().int().nullish(),
    clueId: optionalText(1_000),
    source: optionalText(100),
    title: optionalText(1_000),
    pageNo: optionalPage,
    knowledgeBaseId: optionalText(1_000),
    faqId: optionalText(1_000),
    url: optionalText(4_000),
    text: optionalText(100_000),
  })
  .passthrough();

export const openCitationArgsSchema = z.object({
  citation: citationSchema,
  question: optionalText(10_000),
  answer: optionalText(100_000),
  /** The answer's PDF preview URL (remote regions): fetched by the host, https only. */
  pdfPreview: optionalText(8_000),
  /** The connection the answer came from (a chat panel pinned to it, issue 27); the active one when absent. */
  connectionId: optionalText(64),
});
export type OpenCitationArgs = z.input<typeof openCitationArgsSchema>;

export const openDocumentArgsSchema = z.object({
  kbId: z.string().trim().min(1).max(1_000),
  pageNo: optionalPage,
  passageText: optionalText(100_000),
  subTextIndex: z
    .number()
    .int()
    .nonnegative()
    .nullish()
    .transform((v) => v ?? undefined),
  question: optionalText(10_000),
  title: optionalText(1_000),
});
export type OpenDocumentArgs = z.input<typeof openDocumentArgsSchema>;

export class InvalidArgumentError extends Error {
  override readonly name = 'InvalidArgumentError';
}

/** What openCitation does with its argument: open a Q&A, or show a document passage. */
export type CitationAction =
  | { kind: 'qna'; faqId: string; connectionId?: string }
  | { kind: 'document'; target: CitationTarget; pdfPreview?: string; connectionId?: string };

export function parseOpenCitation(arg: unknown): CitationAction {
  const parsed = openCitationArgsSchema.safeParse(arg);
  if (!parsed.success) throw invalid(CommandIds.answers.openCitation, parsed.error);
  const { citation: c, question, answer, pdfPreview, connectionId } = parsed.data;
  const isQna = c.source?.toLowerCase() === 'qna' || c.source?.toLowerCase() === 'faq' || !!c.faqId;
  if (isQna && c.faqId) return compact({ kind: 'qna', faqId: c.faqId, connectionId });
  const target: CitationTarget = compact({
    title: c.title,
    kbId: c.knowledgeBaseId,
    pageNo: c.pageNo,
    passageText: c.text,
    clueId: c.clueId,
    question,
    answer,
    url: c.url,
    source: c.source,
    index: c.index ?? undefined,
  });
  return compact({ kind: 'document', target, pdfPreview, connectionId });
}

/**
 * openDocument takes `{ kbId, pageNo?, passageText? }`, a Knowledge Base tree row (platform/tree/kbNodeElement.ts)
 * or a bare node id.
 */
export function parseOpenDocument(arg: unknown): CitationTarget {
  const node = kbNodeOf(arg);
  if (typeof arg === 'string') arg = { kbId: arg };
  else if (node && typeof node.id === 'string') {
    if (node.nodeType !== 'file') throw new InvalidArgumentError(l10n.t('Open Document: a folder has no pages to show; choose a file.'));
    arg = { kbId: node.id, title: typeof node.name === 'string' ? node.name : undefined, pageNo: 1 };
  }
  const parsed = openDocumentArgsSchema.safeParse(arg);
  if (!parsed.success) throw invalid(CommandIds.answers.openDocument, parsed.error);
  return compact(parsed.data);
}

/**
 * A person reads which fields were wrong and what to do, never zod's wording (it stays in the log, as the
 * error's cause): these arguments come from links and other extensions, not from what the person typed.
 */
function invalid(command: string, error: z.ZodError): InvalidArgumentError {
  const fields = [...new Set(error.issues.map((i) => i.path.join('.') || 'argument'))].slice(0, 5).join(', ');
  // {0}: the command id, {1}: the fields that were wrong (names of the command's argument).
  const message = l10n.t(
    '{0}: the link or argument is incomplete or damaged ({1}), so nothing was opened. Open it again from its answer.',
    command,
    fields,
  );
  return new InvalidArgumentError(message, { cause: error });
}

/** Drops undefined keys (state and equality checks stay tidy). */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** One viewer per document: citations of the same document reuse its panel. */
export function documentKey(target: CitationTarget): string {
  if (target.kbId) return `kb:${target.kbId}`;
  return `cite:${target.clueId ?? target.url ?? target.title ?? ''}:${target.pageNo ?? ''}`;
}
