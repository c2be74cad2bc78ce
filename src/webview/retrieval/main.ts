// Entry of the Retrieval webview (bundled to dist/webview/retrieval.js).
import { retrievalProtocol } from '../../features/answers/retrieval/protocol';
import { bootPage } from '../shared/bootPage';
import { RetrievalController } from './controller';

bootPage(retrievalProtocol, (messenger) => new RetrievalController(document, messenger));
