// Citations as the chat shows and exports them. Shared by host and page: no vscode, no DOM.
import type { Citation } from '../../../api/schemas/answers';
import { cutAt, excerpt, plainPassage } from '../../../core/excerpt';
import { CHAT_LIMITS, type ChatCitation } from './protocol';

export type CitationKind = 'document' | 'qna' | 'web';

/** A citation the chat opened (recorded for tests under ProbeKeys.citationsOpened). */
export interface CitationOpened {
  citation: ChatCitation;
  question: string;
  answer: string;
  outcome: 'opened' | 'failed';
}

/** Where a citation comes from: a Q&A (faqId or a Q&A source), a web page, or a document. */
export function citationKind(c: Pick<ChatCitation, 'source' | 'faqId' | 'url' | 'knowledgeBaseId'>): CitationKind {
  const source = (c.source ?? '').toLowerCase();
  if (c.faqId || /faq|qna|q&a/.test(source)) return 'qna';
  if (/web/.test(source) || (!c.knowledgeBaseId && c.url && /^https?:/i.test(c.url))) return 'web';
  return 'document';
}

export const KIND_LABEL: Record<CitationKind, string> = { document: 'Document', qna: 'Q&A', web: 'Web' };

/** How a citation's kind and page read: English in the export, the display language on the page. */
export interface CitationLabels {
  kind: Record<CitationKind, string>;
  page(pageNo: number): string;
}

export const ENGLISH_CITATION_LABELS: CitationLabels = { kind: KIND_LABEL, page: (n) => `page ${n}` };

/** "Employee Handbook" or a fallback naming the kind and index. */
export function citationTitle(c: ChatCitation, labels: CitationLabels = ENGLISH_CITATION_LABELS): string {
  const title = (c.title ?? '').trim();
  if (title) return title;
  if (c.url) return c.url;
  return `${labels.kind[citationKind(c)]} ${c.index}`;
}

export function pageLabel(c: ChatCitation, labels: CitationLabels = ENGLISH_CITATION_LABELS): string {
  return c.pageNo !== undefined && c.pageNo > 0 && citationKind(c) === 'document' ? labels.page(c.pageNo) : '';
}

/** The cited text's excerpt (src/core/excerpt.ts: the one rule for sources): one line, no Markdown, cut at a word. */
export function snippet(text: string | undefined, max = 240): string {
  return excerpt(text, max);
}

/** The sentences of `answer` followed by a marker naming `index` (Markdown emphasis removed). */
export function citedSentences(answer: string, index: number): string[] {
  const out: string[] = [];
  let from = 0;
  let sentence = '';
  for (const m of answer.matchAll(MARKER)) {
    const before = answer
      .slice(from, m.index)
      .replace(/\\([\\`*_[\]{}()#+\-.!|])/g, '$1')
      .replace(/[*_`]+/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    from = m.index! + m[0].length;
    // "[1][2]": the second marker cites the same sentence as the first.
    const last = before.split(/(?<=[.!?。！？])\s+/).at(-1)!;
    if (/[\p{L}\p{N}]{2}/u.test(last)) sentence = last;
    else if (before) sentence = '';
    if (sentence && m[1].split(',').some((n) => Number(n.trim()) === index)) out.push(sentence);
  }
  return out;
}

/**
 * A snippet of the cited text that starts at the sentence the answer took from it (the service may
 * send the whole page as the citation's text), or its beginning when that sentence is not found.
 */
export function citedSnippet(text: string, answer: string, index: number, max = 240): string {
  const flat = plainPassage(text);
  for (const sentence of citedSentences(answer, index)) {
    const at = flat.indexOf(sentence.slice(0, 40));
    if (at > 0) return `…${cutAt(flat.slice(at), max - 1)}`;
    if (at === 0) break;
  }
  return cutAt(flat, max);
}

/** The service's citation (nullish fields, passthrough extras) in the shape the chat keeps. */
export function toChatCitation(c: Citation): ChatCitation {
  const str = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v !== '' ? v.slice(0, max) : undefined);
  return {
    index: c.index,
    clueId: str(c.clueId, 1_000),
    source: str(c.source, 200),
    title: str(c.title, 2_000),
    pageNo: typeof c.pageNo === 'number' ? c.pageNo : undefined,
    knowledgeBaseId: str(c.knowledgeBaseId, 1_000),
    faqId: str(c.faqId, 1_000),
    url: str(c.url, 4_000),
    text: str(c.text, CHAT_LIMITS.citationText),
  };
}

/** Citation numbers referenced by markers like [1], [2, 3] in an answer. */
const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
