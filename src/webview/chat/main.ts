// Entry of the Answers chat webview (bundled to dist/webview/chat.js).
import { chatProtocol } from '../../features/answers/chat/protocol';
import { watchPageProblems } from '../shared/dom';
import { MarkdownRenderer } from '../shared/markdown';
import { Messenger } from '../shared/messenger';
import { pageSanitizeOptions, Sanitizer } from '../shared/sanitize';
import { ChatController } from './controller';

const messenger = new Messenger(chatProtocol);
watchPageProblems(window, (kind, message) => messenger.notify('pageProblem', { kind, message: message.slice(0, 2_000) }));
const sanitizer = new Sanitizer(window, pageSanitizeOptions(document.body));
// Raw HTML in answers is allowed through the sanitizer (scripts, handlers, javascript: and remote images never are).
const renderer = new MarkdownRenderer(sanitizer, document, { html: true });
new ChatController(document, messenger, sanitizer, renderer).start(document.getElementById('app')!);
