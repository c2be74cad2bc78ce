// Entry of the citation viewer webview (bundled to dist/webview/citation.js, pdfjs included).
import { citationProtocol } from '../../features/answers/citations/protocol';
import { bootPage } from '../shared/bootPage';
import { CitationController } from './controller';
import { createPdfEngine } from './pdfEngine';

bootPage(citationProtocol, (messenger) => {
  const body = document.body;
  const engine = createPdfEngine({ cMapUrl: body.dataset.cmapUrl ?? '', standardFontDataUrl: body.dataset.standardFontUrl ?? '' });
  return new CitationController(window, messenger, engine);
});
