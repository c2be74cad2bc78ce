// Word documents through mammoth. DOCX has no stored page breaks, so pages are estimated.
import mammoth from 'mammoth';
import { htmlTitle, htmlToText, parseHtml } from './htmlText';
import { DecodeBudget, decodeLimits } from './decodeLimits';
import { brokenOffice, checkOfficeContainer } from './officeFile';
import { checkOfficeParts } from './officeParts';
import { checkPageCount, splitEstimated, throwIfAborted, toPages } from './paginate';
import { ExtractionError, type Extraction, type ExtractOptions } from './types';

export async function extractDocx(filePath: string, options: ExtractOptions): Promise<Extraction> {
  await checkOfficeContainer(filePath, 'DOCX');
  await checkOfficeParts(filePath, new DecodeBudget(decodeLimits(options), 'Word document'));
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { path: filePath },
      {
        // Images are not text: skip reading them instead of inlining them as base64.
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
        externalFileAccess: false,
      },
    );
    html = result.value;
  } catch (error) {
    throw brokenOffice('DOCX', error);
  }
  throwIfAborted(options);
  // Through HTML rather than extractRawText, so table cells stay apart (tabs) and headings give a title.
  const root = parseHtml(html);
  const text = htmlToText(root).trim();
  if (!text) throw new ExtractionError('empty', 'The Word document contains no text.');
  const pages = splitEstimated(text, '\n');
  checkPageCount(pages.length, options);
  const title = htmlTitle(root);
  return { kind: 'docx', pages: toPages(pages), estimatedPages: true, ...(title ? { title } : {}) };
}
