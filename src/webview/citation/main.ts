// Entry of the citation viewer webview (bundled to dist/webview/citation.js, pdfjs included).
import { citationProtocol } from '../../features/answers/citations/protocol';
import { watchPageProblems } from '../shared/dom';
import { Messenger } from '../shared/messenger';
import { CitationController } from './controller';
import { createPdfEngine } from './pdfEngine';

const messenger = new Messenger(citationProtocol);
watchPageProblems(window, (kind, message) => messenger.notify('pageProblem', { kind, message: message.slice(0, 2_000) }));
const body = document.body;
const engine = createPdfEngine({ cMapUrl: body.dataset.cmapUrl ?? '', standardFontDataUrl: body.dataset.standardFontUrl ?? '' });
new CitationController(window, messenger, engine).start(document.getElementById('app')!);
