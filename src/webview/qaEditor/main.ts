// Entry of the Q&A editor webview (bundled to dist/webview/qaEditor.js).
import { qaEditorProtocol } from '../../features/qna/editor/protocol';
import { bootPage } from '../shared/bootPage';
import { pageSanitizeOptions, Sanitizer } from '../shared/sanitize';
import { EditorController } from './controller';

bootPage(
  qaEditorProtocol,
  (messenger) => new EditorController(document, messenger, new Sanitizer(window, pageSanitizeOptions(document.body))),
);
