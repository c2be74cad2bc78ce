// Draft.js raw content → Markdown, for answers requested with answerFormat DRAFTJS
// (docs/api.md#answer-response). The input comes from the network: nothing here may
// throw, whatever its shape. Inline rendering lives in draftInline.ts.

import { renderInline, type EntityMap } from './draftInline';
import { isRecord } from './records';

/** A Draft.js raw content object: `{ blocks: [...], entityMap }`. */
export function isDraftRaw(value: unknown): value is { blocks: unknown[]; entityMap?: unknown } {
  return isRecord(value) && Array.isArray(value.blocks);
}

/** Plain text of a Draft.js document (block texts joined by newlines), '' when it is not one. */
export function draftPlainText(raw: unknown): string {
  if (!isDraftRaw(raw)) return '';
  return raw.blocks.map((block) => (isRecord(block) && typeof block.text === 'string' ? block.text : '')).join('\n');
}

type Kind = 'paragraph' | 'list' | 'quote' | 'code';

interface Part {
  kind: Kind;
  text: string;
}

interface ListLevel {
  ordered: boolean;
  count: number;
  /** Column where this level's markers start. */
  indent: number;
  /** Column where the content of this level's latest item starts (children are indented to it). */
  contentIndent: number;
}

const HEADINGS: Record<string, number> = {
  'header-one': 1,
  'header-two': 2,
  'header-three': 3,
  'header-four': 4,
  'header-five': 5,
  'header-six': 6,
};

export function draftToMarkdown(raw: unknown): string {
  if (!isRecord(raw) || !Array.isArray(raw.blocks)) return '';
  const entityMap: EntityMap = isRecord(raw.entityMap) || Array.isArray(raw.entityMap) ? raw.entityMap : {};
  const blocks = raw.blocks.filter(isRecord);
  const parts: Part[] = [];
  // Open list levels of the current run of list items; emptied by any other block.
  let levels: ListLevel[] = [];

  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    const type = typeof block.type === 'string' ? block.type : 'unstyled';

    if (type === 'code-block') {
      // Draft.js stores each line of a code listing as its own block: merge the run.
      const lines = [textOf(block)];
      while (i + 1 < blocks.length && blocks[i + 1]!.type === 'code-block') lines.push(textOf(blocks[++i]!));
      parts.push({ kind: 'code', text: fence(lines.join('\n'), languageOf(block)) });
      levels = [];
      continue;
    }

    const isList = type === 'unordered-list-item' || type === 'ordered-list-item';
    const lines = renderInline(block, entityMap);
    // Empty blocks are Draft.js's way of spacing; Markdown has no use for them.
    if (lines.length === 0) continue;

    if (isList) {
      const depth = Math.min(intOf(block.depth), levels.length);
      levels.length = depth + 1;
      const ordered = type === 'ordered-list-item';
      let level = levels[depth];
      if (!level || level.ordered !== ordered) {
        const indent = depth === 0 ? 0 : levels[depth - 1]!.contentIndent;
        level = { ordered, count: 0, indent, contentIndent: indent };
        levels[depth] = level;
      }
      level.count++;
      const marker = ordered ? `${level.count}. ` : '- ';
      level.contentIndent = level.indent + marker.length;
      const pad = ' '.repeat(level.contentIndent);
      parts.push({ kind: 'list', text: ' '.repeat(level.indent) + marker + lines.join(`  \n${pad}`) });
      continue;
    }

    levels = [];
    const heading = HEADINGS[type];
    if (heading) {
      // A heading is one line; a closing run of `#` would be dropped as decoration.
      const text = lines.join(' ').replace(/(^|\s)(#+)$/, '$1\\$2');
      parts.push({ kind: 'paragraph', text: `${'#'.repeat(heading)} ${text}` });
    } else if (type === 'blockquote') {
      parts.push({ kind: 'quote', text: lines.map((line) => `> ${line}`).join('  \n') });
    } else {
      parts.push({ kind: 'paragraph', text: lines.join('  \n') });
    }
  }

  let out = '';
  parts.forEach((part, index) => {
    if (index > 0) out += separator(parts[index - 1]!.kind, part.kind);
    out += part.text;
  });
  return out;
}

/** Items of one list sit on consecutive lines; quotes in a row stay one quote; the rest are paragraphs. */
function separator(previous: Kind, next: Kind): string {
  if (previous === 'list' && next === 'list') return '\n';
  if (previous === 'quote' && next === 'quote') return '\n>\n';
  return '\n\n';
}

function fence(code: string, language: string): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${language}\n${code}\n${ticks}`;
}

function languageOf(block: Record<string, unknown>): string {
  const data = block.data;
  const language = isRecord(data) ? (data.language ?? data.syntax) : undefined;
  return typeof language === 'string' && /^[\w+#.-]{1,40}$/.test(language) ? language : '';
}

function textOf(block: Record<string, unknown>): string {
  return typeof block.text === 'string' ? block.text : '';
}

function intOf(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0;
}
