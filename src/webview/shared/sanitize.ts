// Everything a webview shows from the service goes through here (docs/api.md#answer-response: no scripts, no event
// handlers, no javascript: links, no remote images unless allowed).
import createDOMPurify, { type Config, type DOMPurify, type WindowLike } from 'dompurify';
import type { SharedPageStrings } from '../../platform/webview/pageStrings';
import { format, pageStrings } from './strings';

export interface SanitizeOptions {
  /** Origins images may come from: the webview's own resource origin (body data-resource-origin). */
  localOrigins?: readonly string[];
  /** Also allow images from any https address (the page's CSP must allow them too). */
  allowRemoteImages?: boolean;
}

export interface SanitizeReport {
  blockedImages: number;
  removedLinks: number;
}

/** Elements that run code, load other documents, take input or restyle the page. */
const FORBID_TAGS = [
  'script',
  'style',
  'link',
  'meta',
  'base',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'portal',
  'form',
  'input',
  'button',
  'select',
  'option',
  'textarea',
  'noscript',
  'template',
  'video',
  'audio',
  'source',
  'track',
  'picture',
];
/** `style` would also be refused by the page's CSP (no 'unsafe-inline'), so it is dropped rather than left to fail. */
const FORBID_ATTR = ['style', 'srcset', 'action', 'formaction', 'ping', 'background', 'poster', 'target', 'rel'];
const SAFE_URL = /^(?:https?:|mailto:)/i;

const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS,
  FORBID_ATTR,
  ALLOWED_URI_REGEXP: SAFE_URL,
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  SANITIZE_NAMED_PROPS: true,
};

export class Sanitizer {
  private readonly purify: DOMPurify;
  private readonly doc: Document;
  /** What the last call removed besides scripts and handlers (for "n images blocked" notes). */
  lastReport: SanitizeReport = { blockedImages: 0, removedLinks: 0 };

  constructor(
    win: WindowLike & { document: Document },
    private readonly options: SanitizeOptions = {},
  ) {
    this.purify = createDOMPurify(win);
    this.doc = win.document;
    this.purify.addHook('uponSanitizeAttribute', (_node, data) => {
      if (/^on/i.test(data.attrName)) data.keepAttr = false;
    });
  }

  /** Safe HTML as a string. */
  sanitize(html: string): string {
    const holder = this.doc.createElement('div');
    holder.append(this.sanitizeToFragment(html));
    return holder.innerHTML;
  }

  /** Safe HTML as nodes of this window's document, ready to append. */
  sanitizeToFragment(html: string): DocumentFragment {
    const fragment = this.purify.sanitize(html, { ...CONFIG, RETURN_DOM_FRAGMENT: true }) as DocumentFragment;
    this.lastReport = this.finish(fragment);
    return fragment;
  }

  private finish(root: DocumentFragment): SanitizeReport {
    const report: SanitizeReport = { blockedImages: 0, removedLinks: 0 };
    for (const a of Array.from(root.querySelectorAll('a'))) {
      const href = a.getAttribute('href');
      if (href !== null && !SAFE_URL.test(href.trim())) {
        a.removeAttribute('href');
        report.removedLinks++;
      }
      if (a.hasAttribute('href')) {
        a.setAttribute('target', '_blank');
        a.setAttribute('rel', 'noopener noreferrer'); // l10n-ignore: link types
      }
    }
    for (const img of Array.from(root.querySelectorAll('img'))) {
      if (this.imageAllowed(img.getAttribute('src'))) continue;
      const note = this.doc.createElement('span');
      note.className = 'kd-blocked-image';
      const strings = pageStrings<SharedPageStrings>(this.doc);
      const alt = img.getAttribute('alt');
      note.title = strings.imageBlocked;
      note.textContent = alt ? format(strings.imageWithAlt, alt) : strings.image;
      img.replaceWith(note);
      report.blockedImages++;
    }
    return report;
  }

  private imageAllowed(src: string | null): boolean {
    if (!src) return false;
    let url: URL;
    try {
      url = new URL(src.trim());
    } catch {
      return false;
    }
    if ((this.options.localOrigins ?? []).includes(url.origin)) return true;
    return !!this.options.allowRemoteImages && url.protocol === 'https:';
  }
}

/** Options for this page from the attributes the host rendered on <body> (see webviewHtml.ts). */
export function pageSanitizeOptions(body: HTMLElement): SanitizeOptions {
  const origin = body.dataset.resourceOrigin;
  return { localOrigins: origin ? [origin] : [], allowRemoteImages: body.dataset.images === 'remote' };
}
