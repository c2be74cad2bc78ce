// Export as Markdown: the questions, the answers, and each answer's citations as a numbered list
// of sources. No vscode here: the texts go through @vscode/l10n (the display language's bundle once active).
import * as l10n from '@vscode/l10n';
import { citationKind, citationTitle, citedSnippet, pageLabel, type CitationLabels } from './citations';
import type { ChatCitation, Conversation, Turn } from './protocol';

function statusNote(status: Turn['status']): string | undefined {
  if (status === 'stopped') return l10n.t('*(stopped before the answer was complete)*');
  if (status === 'streaming') return l10n.t('*(the answer was still arriving when this was exported)*');
  return undefined;
}

function labels(): CitationLabels {
  return { kind: { document: l10n.t('Document'), qna: l10n.t('Q&A'), web: l10n.t('Web') }, page: (n) => l10n.t('page {0}', n) };
}

export function conversationToMarkdown(conversation: Conversation, exportedAt: Date = new Date()): string {
  const out: string[] = [`# ${oneLine(conversation.title) || l10n.t('Knowledge Desk chat')}`, ''];
  // {0}: date and time in UTC, e.g. 2026-11-24 10:30.
  out.push(l10n.t('*Exported from Knowledge Desk on {0} UTC.*', exportedAt.toISOString().replace('T', ' ').slice(0, 16)), '');
  if (!conversation.turns.length) out.push(l10n.t('*No questions yet.*'), '');
  const names = labels();
  conversation.turns.forEach((turn, i) => {
    out.push(`## ${i + 1}. ${oneLine(turn.question)}`, '');
    if (turn.question.includes('\n')) out.push(quote(turn.question), '');
    if (turn.answer.trim()) out.push(turn.answer.trim(), '');
    const note = statusNote(turn.status);
    if (note) out.push(note, '');
    if (turn.status === 'error' && turn.error) out.push(l10n.t('> **Error:** {0}', oneLine(turn.error.message)), '');
    const sources = citedSources(turn);
    if (sources.length) {
      out.push(l10n.t('**Sources**'), '');
      for (const c of sources) out.push(...sourceLines(c, turn.answer, names));
      out.push('');
    }
    if (turn.fuQuestion) out.push(l10n.t('*Suggested follow-up:* {0}', oneLine(turn.fuQuestion)), '');
  });
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/** The citations once each, in index order (those the answer never refers to still count as sources). */
function citedSources(turn: Turn): ChatCitation[] {
  const unique = new Map<number, ChatCitation>();
  for (const c of turn.citations) if (!unique.has(c.index)) unique.set(c.index, c);
  return [...unique.values()].sort((a, b) => a.index - b.index);
}

function sourceLines(c: ChatCitation, answer: string, names: CitationLabels): string[] {
  const title = escapeInline(citationTitle(c, names));
  const link = c.url && /^https?:\/\//i.test(c.url) ? `[${title}](<${c.url.replace(/[<>\s]/g, encodeURIComponent)}>)` : title;
  const details = [names.kind[citationKind(c)], pageLabel(c, names)].filter(Boolean).join(', ');
  // Markdown list numbers follow the citation index, so the answer's [n] markers still match.
  const lines = [`${c.index}. ${link} (${details})`];
  const text = citedSnippet(stripTags(c.text ?? ''), answer, c.index, 300);
  if (text) lines.push(`   > ${escapeInline(text)}`);
  return lines;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function quote(text: string): string {
  return text
    .trim()
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
}

/** Titles and cited text are data, not Markdown: neutralise what would change the document. */
function escapeInline(text: string): string {
  return text.replace(/([\\`*_[\]<>#|])/g, '\\$1');
}

/** Cited Q&A text may be HTML: inline tags go, block tags become spaces, a few entities are decoded. */
function stripTags(text: string): string {
  if (!/<\/?[a-z][\w-]*(\s[^>]*)?>/i.test(text)) return text;
  return text
    .replace(/<\/?(?:a|abbr|b|code|em|i|kbd|mark|s|small|span|strong|sub|sup|u)\b[^>]*>/gi, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
