// What the citation page needs beyond the shared webview setup (src/platform/webview), for pdfjs:
//  - `connect-src <cspSource>`: pdfjs fetch()es its character maps (Japanese PDFs without embedded
//    fonts) and standard fonts from dist/pdfjs through asWebviewUri. Nothing else is allowed: the
//    PDF bytes come from the host in a message, so no remote address is ever reachable.
//  - dist/pdfjs as a resource root besides dist/webview and media.
// No worker-src: pdfjs runs in the page with its in-thread worker (see src/webview/citation/pdfEngine.ts).
// Pure (no vscode).

/** The extra directives of the citation page (`{cspSource}` is the webview's own source). */
export const PDF_CSP_DIRECTIVES: readonly string[] = ['connect-src {cspSource}'];

/** Folders (relative to the extension) the citation page may read besides dist/webview and media. */
export const PDF_EXTRA_ROOTS: ReadonlyArray<readonly string[]> = [['dist', 'pdfjs']];
