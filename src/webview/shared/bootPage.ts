// The one start of every webview page (each src/webview/<name>/main.ts calls it): the Messenger for the
// page's protocol, the shared problem reports, then the page's own controller.
import { PAGE_PROBLEM_MAX_CHARS, type PageProtocol } from '../../platform/webview/protocol';
import { watchPageProblems } from './dom';
import { Messenger, vscodeApi, type VsCodeApi } from './messenger';

/** What a page's `create` returns: started with the page's root element once everything is wired. */
export interface PageController {
  start(app: HTMLElement): void;
}

export interface BootOptions {
  win?: Window;
  vscode?: VsCodeApi;
  /** The id of the element the page renders into (default `app`, see webviewHtml.ts). */
  rootId?: string;
}

/**
 * Creates the page's Messenger, reports CSP violations and uncaught errors to the host as `pageProblem`
 * (WebviewPanelHost logs them and counts refused inline handlers), and starts the controller that
 * `create` builds. Problems are watched before the controller exists, so an error while it is built is reported too.
 */
export function bootPage<P extends PageProtocol>(
  protocol: P,
  create: (messenger: Messenger<P>) => PageController,
  options: BootOptions = {},
): Messenger<P> {
  const win = options.win ?? window;
  const messenger = new Messenger(protocol, options.vscode ?? vscodeApi(), win);
  // Every PageProtocol has the shared notifications (withPageNotifications); the cast only names them.
  const shared = messenger as unknown as Messenger<PageProtocol>;
  watchPageProblems(win, (kind, message) => shared.notify('pageProblem', { kind, message: message.slice(0, PAGE_PROBLEM_MAX_CHARS) }));
  create(messenger).start(win.document.getElementById(options.rootId ?? 'app')!);
  return messenger;
}
