// Page-side modules (src/webview) use DOM types, which the main tsconfig (Node) does not have, and
// jsdom's typings would pull the DOM library into the whole program. So both are loaded here with
// plain require() and described by the small interfaces the tests need.
import path from 'node:path';

const root = path.resolve(__dirname, '../../../..');

/** A page-side module by its path under the repository root, e.g. 'src/webview/shared/sanitize'. */
export function loadPage<T>(modulePath: string): T {
  return require(path.join(root, modulePath)) as T;
}

export type Win = any;
export type El = any;

interface JsdomModule {
  JSDOM: new (html: string, options?: { url?: string; pretendToBeVisual?: boolean }) => { window: Win };
}

/**
 * A fresh window. The URL stands in for the webview's own origin. Like the host (webviewHtml.ts), the body
 * carries the page's texts in data-strings (the shared ones, plus `strings`: the page's own builder) and
 * <html lang> the display language.
 */
export function makeWindow(body = '', url = 'https://webview.test/index.html', strings: Record<string, string> = {}, lang = 'en'): Win {
  const { JSDOM } = require('jsdom') as JsdomModule;
  const { sharedPageStrings } = require(path.join(root, 'src/platform/webview/pageStrings')) as {
    sharedPageStrings(): Record<string, string>;
  };
  const data = JSON.stringify({ ...sharedPageStrings(), ...strings })
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;');
  return new JSDOM(`<!DOCTYPE html><html lang="${lang}"><body data-strings="${data}">${body}</body></html>`, {
    url,
    pretendToBeVisual: true,
  }).window;
}

/** Every attribute of every element under `root`, as "tag@name=value" lines. */
export function allAttributes(root: El): string[] {
  const out: string[] = [];
  for (const el of Array.from(root.querySelectorAll('*')) as El[]) {
    for (const a of Array.from(el.attributes) as Array<{ name: string; value: string }>)
      out.push(`${el.tagName.toLowerCase()}@${a.name}=${a.value}`);
  }
  return out;
}

export const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A stand-in for acquireVsCodeApi(): records posted messages and keeps the state. */
export class FakeVsCodeApi {
  readonly posted: any[] = [];
  state: unknown;
  constructor(state?: unknown) {
    this.state = state;
  }
  postMessage(message: unknown): void {
    this.posted.push(JSON.parse(JSON.stringify(message)));
  }
  getState(): unknown {
    return this.state;
  }
  setState(state: unknown): void {
    this.state = JSON.parse(JSON.stringify(state));
  }
  /** Messages of one kind (and type), in order. */
  sent(kind: string, type?: string): any[] {
    return this.posted.filter((m) => m.kind === kind && (type === undefined || m.type === type));
  }
}

/** Delivers a message from the "host" to the page, as VS Code does (a message event on window). */
export function deliver(win: Win, data: unknown): void {
  win.dispatchEvent(new win.MessageEvent('message', { data }));
}

/**
 * Answers every request the page sent (with an error when it is still waiting), so no request timer of the page
 * (180 s) keeps the test process alive after the run. Call it when a test is over.
 */
export function answerPending(win: Win, api: FakeVsCodeApi): void {
  for (const r of api.sent('request')) deliver(win, { kind: 'response', id: r.id, ok: false, error: { message: 'the test is over' } });
}
