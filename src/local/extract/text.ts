// Plain text and Markdown: decode (UTF-8, UTF-16 with BOM, else Shift_JIS), then page at form feeds or by size.
import { readFile } from 'node:fs/promises';
import { checkPageCount, splitEstimated, throwIfAborted, toPages } from './paginate';
import { ExtractionError, type Extraction, type ExtractOptions } from './types';

/** Decodes text bytes; Shift_JIS is the usual encoding of Japanese files that are not UTF-8. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    // The default (non-fatal) decoder strips a UTF-8 BOM; fatal makes invalid bytes throw instead of becoming U+FFFD.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    try {
      return new TextDecoder('shift_jis', { fatal: true }).decode(bytes);
    } catch {
      // Neither: keep what UTF-8 can read rather than fail the whole file.
      return new TextDecoder('utf-8').decode(bytes);
    }
  }
}

export async function extractText(filePath: string, options: ExtractOptions): Promise<Extraction> {
  const text = normalizeNewlines(decodeText(await readFile(filePath)));
  return paged('text', text, options);
}

export async function extractMarkdown(filePath: string, options: ExtractOptions): Promise<Extraction> {
  const { body, frontMatterTitle } = stripFrontMatter(normalizeNewlines(decodeText(await readFile(filePath))));
  const title = firstHeading(body) ?? frontMatterTitle;
  return { ...paged('markdown', body, options), ...(title ? { title } : {}) };
}

function paged(kind: 'text' | 'markdown', text: string, options: ExtractOptions): Extraction {
  throwIfAborted(options);
  if (text.trim() === '') throw new ExtractionError('empty', 'The file contains no text.');
  if (text.includes('\f')) {
    const parts = text.split('\f');
    if (parts.length > 1 && parts[parts.length - 1]?.trim() === '') parts.pop(); // a final form feed ends the last page
    checkPageCount(parts.length, options);
    return { kind, pages: toPages(parts.map((p) => p.trim())) };
  }
  const pages = splitEstimated(text, '\n');
  checkPageCount(pages.length, options);
  return { kind, pages: toPages(pages), ...(pages.length > 1 ? { estimatedPages: true } : {}) };
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Removes a leading YAML front matter block (`---` … `---` or `...`), keeping its title as a fallback. */
export function stripFrontMatter(text: string): { body: string; frontMatterTitle?: string } {
  const match = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(text);
  if (!match) return { body: text };
  const titleLine = /^title:[ \t]*(.+)$/m.exec(match[1] ?? '');
  const frontMatterTitle = titleLine?.[1]?.trim().replace(/^(['"])(.*)\1$/, '$2');
  return { body: text.slice(match[0].length), ...(frontMatterTitle ? { frontMatterTitle } : {}) };
}

/** The first level-1 ATX heading outside fenced code blocks. */
export function firstHeading(markdown: string): string | undefined {
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) {
      const heading = /^ {0,3}#[ \t]+(.+?)[ \t]*#*[ \t]*$/.exec(line);
      if (heading?.[1]) return heading[1].trim();
    }
  }
  return undefined;
}
