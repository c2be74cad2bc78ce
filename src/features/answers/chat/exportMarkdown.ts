// Export as Markdown: the questions, the answers, and each answer's citations as a numbered list
// of sources. No vscode here.
import { citationKind, citationTitle, citedSnippet, KIND_LABEL, pageLabel } from './citations';
import type { ChatCitation, Conversation, Turn } from './protocol';

const STATUS_NOTE: Partial<Record<Turn['status'], string>> = {
  stopped: '*(stopped before the answer was complete)*',
  streaming: '*(the answer was still arriving when this was exported)*',
};

export function conversationToMarkdown(conversation: Conversation, exportedAt: Date = new Date()): string {
  const out: string[] = [`# ${oneLine(conversation.title) || 'Knowledge Desk chat'}`, ''];
  out.push(`*Exported from Knowledge Desk on ${exportedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.*`, '');
  if (!conversation.turns.length) out.push('*No questions yet.*', '');
  conversation.turns.forEach((turn, i) => {
    out.push(`## ${i + 1}. ${oneLine(turn.question)}`, '');
    if (turn.question.includes('\n')) out.push(quote(turn.question), '');
    if (turn.answer.trim()) out.push(turn.answer.trim(), '');
    const note = STATUS_NOTE[turn.status];
    if (note) out.push(note, '');
    if (turn.status === 'error' && turn.error) out.push(`> **Error:** ${oneLine(turn.error.message)}`, '');
    const sources = citedSources(turn);
    if (sources.length) {
      out.push('**Sources**', '');
      for (const c of sources) out.push(...sourceLines(c, turn.answer));
      out.push('');
    }
    if (turn.fuQuestion) out.push(`*Suggested follow-up:* ${oneLine(turn.fuQuestion)}`, '');
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

function sourceLines(c: ChatCitation, answer: string): string[] {
  const title = escapeInline(citationTitle(c));
  const link = c.url && /^https?:\/\//i.test(c.url) ? `[${title}](<${c.url.replace(/[<>\s]/g, encodeURIComponent)}>)` : title;
  const details = [KIND_LABEL[citationKind(c)], pageLabel(c)].filter(Boolean).join(', ');
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
