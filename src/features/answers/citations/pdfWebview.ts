// What the citation page needs beyond the shared webview setup (src/platform/webview), for pdfjs:
//  - `connect-src <cspSource>`: pdfjs fetch()es its character maps (Japanese PDFs without embedded
//    fonts) and standard fonts from dist/pdfjs through asWebviewUri. Nothing else is allowed: the
//    PDF bytes come from the host in a message, so no remote address is ever reachable.
//  - dist/pdfjs as a resource root besides dist/webview and media.
// No worker-src: pdfjs runs in the page with its in-thread worker (see src/webview/citation/pdfEngine.ts).
// Pure (no vscode): unit-tested.

/** Adds directives to the CSP meta tag rendered by renderWebviewHtml; throws if there is not exactly one. */
export function withCspDirectives(html: string, directives: readonly string[]): string {
  const pattern = /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")/g;
  const found = html.match(pattern)?.length ?? 0;
  if (found !== 1) throw new Error(`expected one Content-Security-Policy meta tag, found ${found}`);
  const extra = directives.map((d) =>
    d.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!),
  );
  return html.replace(pattern, (_m, open: string, csp: string, close: string) => `${open}${[csp, ...extra].join('; ')}${close}`);
}

/** The extra directives of the citation page. */
export function pdfCspDirectives(cspSource: string): string[] {
  return [`connect-src ${cspSource}`];
}

/** Folders (relative to the extension) the citation page may read: the bundle, pdfjs' data, media. */
export const PDF_RESOURCE_ROOTS: ReadonlyArray<readonly string[]> = [['dist', 'webview'], ['dist', 'pdfjs'], ['media']];
