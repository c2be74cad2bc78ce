// Building page DOM without HTML strings: text is always text, attributes never include inline
// handlers or styles (the CSP refuses both).

export type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  /** Attributes; `false`/undefined leaves one out, `true` sets it empty. */
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

export type H = <K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props | null, ...children: Child[]) => HTMLElementTagNameMap[K];

/** `h('button', { class: 'kd-button', attrs: { type: 'button' }, on: { click } }, 'Save')`. */
export function createH(doc: Document): H {
  return (tag, props, ...children) => {
    const el = doc.createElement(tag);
    if (props?.class) el.className = props.class;
    for (const [name, value] of Object.entries(props?.attrs ?? {})) {
      if (/^on/i.test(name) || name === 'style') throw new Error(`h(): attribute ${name} is not allowed`);
      if (value === undefined || value === false) continue;
      el.setAttribute(name, value === true ? '' : String(value));
    }
    for (const [type, listener] of Object.entries(props?.on ?? {})) el.addEventListener(type, listener as EventListener);
    append(el, ...children);
    return el;
  };
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(
      typeof c === 'string' || typeof c === 'number' ? (parent.ownerDocument ?? (parent as Document)).createTextNode(String(c)) : c,
    );
  }
}

let ids = 0;
/** A unique id for label/for and aria-describedby pairs. */
export function uid(prefix: string): string {
  return `${prefix}-${++ids}`;
}

/**
 * Reports CSP violations and uncaught errors of the page to `report` (the host logs them; tests assert
 * none). One violation is expected and reported as `blocked`: Chromium reports each inline event handler
 * in untrusted HTML while DOMPurify parses it (in an inert document, before removing it). The page itself
 * never sets one (createH refuses on* attributes), so such a report is the CSP stopping an attack.
 */
export function watchPageProblems(win: Window, report: (kind: 'csp' | 'blocked' | 'error', message: string) => void): void {
  win.document.addEventListener('securitypolicyviolation', (e) => {
    const where = e.sourceFile ? ` (${e.sourceFile.split('/').pop()}:${e.lineNumber})` : '';
    const handler = e.effectiveDirective === 'script-src-attr' && e.blockedURI === 'inline';
    report(
      handler ? 'blocked' : 'csp',
      `${e.effectiveDirective || e.violatedDirective} blocked ${e.blockedURI || 'inline content'}${where}`, // l10n-ignore: a report for the log
    );
  });
  win.addEventListener('error', (e) => report('error', e.message || String(e.error)));
  win.addEventListener('unhandledrejection', (e) =>
    report('error', `unhandled rejection: ${e.reason instanceof Error ? e.reason.message : String(e.reason)}`),
  );
}

/** Theme colour from VS Code's CSS variables on <html>/<body>, with a fallback. */
export function themeColor(win: Window, variable: string, fallback: string): string {
  const value = win.getComputedStyle(win.document.body).getPropertyValue(variable).trim();
  return value || fallback;
}
