import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { sharedPageStrings } from './pageStrings';
import { escapeHtml } from '../../core/html';

/** Which images a page may load: none, the extension's own resources, or those plus https images. */
export type ImagePolicy = 'none' | 'local' | 'remote';

export interface WebviewPage {
  /** Bundle name: dist/webview/<name>.js (esbuild builds src/webview/<name>/main.ts). */
  name: string;
  title: string;
  /** Style sheets in media/, in order; media/webview.css (shared) is always first. */
  styles?: string[];
  images?: ImagePolicy;
  /** Exposed to the page as data-* attributes of <body> (values are escaped). */
  data?: Record<string, string>;
  /** Folders (path segments under the extension) the page may read besides dist/webview and media. */
  extraRoots?: ReadonlyArray<readonly string[]>;
  /** CSP directives the page needs besides the shared ones, with `{cspSource}` standing for the webview's source. */
  extraCsp?: readonly string[];
  /**
   * Every text the page shows, already in the display language (each value a vscode.l10n.t call in the
   * feature's host code; the keys are the page's `<Page>Strings` type in its protocol.ts). The page reads
   * them with src/webview/shared/strings.ts and has no English literals of its own.
   */
  strings?: Readonly<Record<string, string>>;
}

/**
 * Scripts on, and only the bundle and media folders readable (plus the page's declared extra roots).
 * No retainContextWhenHidden: pages restore from state.
 */
export function webviewOptions(extensionUri: vscode.Uri, extraRoots: ReadonlyArray<readonly string[]> = []): vscode.WebviewOptions {
  const roots = [['dist', 'webview'], ...extraRoots, ['media']];
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: roots.map((segments) => vscode.Uri.joinPath(extensionUri, ...segments)),
  };
}

/** A fresh nonce for every render: 128 random bits. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(
  cspSource: string,
  nonce: string,
  images: ImagePolicy = 'none',
  extra: readonly string[] = [],
): string {
  const directives = [`default-src 'none'`, `style-src ${cspSource}`, `font-src ${cspSource}`, `script-src 'nonce-${nonce}'`];
  if (images === 'local') directives.push(`img-src ${cspSource}`);
  if (images === 'remote') directives.push(`img-src ${cspSource} https:`);
  directives.push(...extra.map((d) => d.replaceAll('{cspSource}', cspSource)));
  return directives.join('; ');
}

/** The origin of the extension's resources as the page sees them (where "local" images come from). */
export function resourceOrigin(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  try {
    return new URL(webview.asWebviewUri(extensionUri).toString(true)).origin;
  } catch {
    return '';
  }
}

/** The whole document of a page: CSP with a new nonce, styles and the script bundle through asWebviewUri. */
export function renderWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const nonce = createNonce();
  const media = (file: string): string => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', file)).toString();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', `${page.name}.js`)).toString();
  const styles = ['webview.css', ...(page.styles ?? []).filter((s) => s !== 'webview.css')];
  const data = {
    resourceOrigin: resourceOrigin(webview, extensionUri),
    images: page.images ?? 'none',
    strings: JSON.stringify({ ...sharedPageStrings(), ...page.strings }),
    ...page.data,
  };
  const dataAttrs = Object.entries(data)
    .map(([k, v]) => ` data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escapeHtml(v)}"`)
    .join('');
  return [
    '<!DOCTYPE html>',
    `<html lang="${escapeHtml(vscode.env.language || 'en')}">`,
    '<head>',
    '<meta charset="UTF-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(webview.cspSource, nonce, page.images, page.extraCsp))}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    ...styles.map((s) => `<link rel="stylesheet" href="${escapeHtml(media(s))}">`),
    `<title>${escapeHtml(page.title)}</title>`,
    '</head>',
    `<body${dataAttrs}>`,
    `<main id="app" aria-busy="true"><p class="kd-loading">${escapeHtml(vscode.l10n.t('Loading…'))}</p></main>`,
    `<script nonce="${nonce}" src="${escapeHtml(script)}"></script>`,
    '</body>',
    '</html>',
  ].join('\n');
}
