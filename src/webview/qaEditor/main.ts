// Entry of the Q&A editor webview (bundled to dist/webview/qaEditor.js).
import { qaEditorProtocol } from '../../features/qna/editor/protocol';
import { watchPageProblems } from '../shared/dom';
import { Messenger } from '../shared/messenger';
import { pageSanitizeOptions, Sanitizer } from '../shared/sanitize';
import { EditorController } from './controller';

const messenger = new Messenger(qaEditorProtocol);
watchPageProblems(window, (kind, message) => messenger.notify('pageProblem', { kind, message: message.slice(0, 2_000) }));
const sanitizer = new Sanitizer(window, pageSanitizeOptions(document.body));
new EditorController(document, messenger, sanitizer).start(document.getElementById('app')!);
