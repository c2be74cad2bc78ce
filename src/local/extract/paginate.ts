// Estimated pages for formats without page breaks, and the limits every extractor honours.
import { DEFAULT_MAX_PAGES, ExtractionError, type ExtractedPage, type ExtractOptions } from './types';

/** About one printed page: small enough for precise citations, large enough to keep context. */
export const ESTIMATED_PAGE_CHARS = 3000;

/**
 * Splits text into pages of about `target` characters at `separator` boundaries (lines or paragraphs);
 * a single unit longer than that is cut at a space or a Japanese full stop near the limit.
 */
export function splitEstimated(text: string, separator = '\n', target = ESTIMATED_PAGE_CHARS): string[] {
  const pages: string[] = [];
  let current = '';
  for (const unit of text.split(separator).flatMap((u) => cutLong(u, target))) {
    if (current && current.length + separator.length + unit.length > target) {
      pages.push(current);
      current = unit;
    } else {
      current = current ? current + separator + unit : unit;
    }
  }
  if (current.trim()) pages.push(current);
  return pages.map((p) => p.trim()).filter((p) => p.length > 0);
}

function cutLong(unit: string, target: number): string[] {
  const parts: string[] = [];
  let rest = unit;
  while (rest.length > target) {
    const window = rest.slice(0, target);
    const at = Math.max(window.lastIndexOf(' '), window.lastIndexOf('。') + 1, window.lastIndexOf('\n'));
    const cut = at > target / 2 ? at : target;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^ +/, '');
  }
  parts.push(rest);
  return parts;
}

export function toPages(texts: string[]): ExtractedPage[] {
  return texts.map((text, i) => ({ pageNo: i + 1, text }));
}

export function checkPageCount(count: number, options: ExtractOptions, unit = 'pages'): void {
  const max = options.maxPages ?? DEFAULT_MAX_PAGES;
  if (count > max) {
    throw new ExtractionError(
      'tooLarge',
      `The document has ${count} ${unit}, more than the limit of ${max}; split it into smaller files and upload them separately.`,
    );
  }
}

export function throwIfAborted(options: ExtractOptions): void {
  options.signal?.throwIfAborted();
}
