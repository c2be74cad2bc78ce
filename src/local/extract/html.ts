// HTML pages: visible text as lines; one page, or estimated pages when long.
import { readFile } from 'node:fs/promises';
import { htmlTitle, htmlToText, parseHtml } from './htmlText';
import { checkPageCount, splitEstimated, throwIfAborted, toPages } from './paginate';
import { decodeText } from './text';
import { ExtractionError, type Extraction, type ExtractOptions } from './types';

export async function extractHtml(filePath: string, options: ExtractOptions): Promise<Extraction> {
  const root = parseHtml(decodeText(await readFile(filePath)));
  throwIfAborted(options);
  const text = htmlToText(root)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!text) throw new ExtractionError('empty', 'The HTML page contains no visible text.');
  const pages = splitEstimated(text, '\n');
  checkPageCount(pages.length, options);
  const title = htmlTitle(root);
  return { kind: 'html', pages: toPages(pages), ...(title ? { title } : {}), ...(pages.length > 1 ? { estimatedPages: true } : {}) };
}
