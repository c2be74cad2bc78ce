// Entry of the Answers chat webview (bundled to dist/webview/chat.js).
import { chatProtocol } from '../../features/answers/chat/protocol';
import { bootPage } from '../shared/bootPage';
import { MarkdownRenderer } from '../shared/markdown';
import { pageSanitizeOptions, Sanitizer } from '../shared/sanitize';
import { ChatController } from './controller';

bootPage(chatProtocol, (messenger) => {
  const sanitizer = new Sanitizer(window, pageSanitizeOptions(document.body));
  // Raw HTML in answers is allowed through the sanitizer (scripts, handlers, javascript: and remote images never are).
  const renderer = new MarkdownRenderer(sanitizer, document, { html: true });
  return new ChatController(document, messenger, sanitizer, renderer);
});
