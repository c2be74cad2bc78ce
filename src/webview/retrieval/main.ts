// Entry of the Retrieval webview (bundled to dist/webview/retrieval.js).
import { retrievalProtocol } from '../../features/answers/retrieval/protocol';
import { watchPageProblems } from '../shared/dom';
import { Messenger } from '../shared/messenger';
import { RetrievalController } from './controller';

const messenger = new Messenger(retrievalProtocol);
watchPageProblems(window, (kind, message) => messenger.notify('pageProblem', { kind, message: message.slice(0, 2_000) }));
new RetrievalController(document, messenger).start(document.getElementById('app')!);
