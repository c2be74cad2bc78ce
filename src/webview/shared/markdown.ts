// Markdown for webviews: markdown-it (raw HTML off by default) -> Sanitizer -> nodes, with a Copy
// button on every code block. Nothing here uses inline handlers or styles (the CSP forbids both).
import MarkdownIt, { type MarkdownIt as MarkdownParser } from 'markdown-it';
import type { Sanitizer } from './sanitize';
import type { SharedPageStrings } from '../../platform/webview/pageStrings';
import { format, pageStrings } from './strings';

export interface MarkdownOptions {
  /** Let raw HTML in the Markdown through (it is still sanitized). Default false. */
  html?: boolean;
  /** Where Copy sends the code; default: the clipboard API of the page. */
  onCopy?(text: string): void | Promise<void>;
}

export class MarkdownRenderer {
  private readonly md: MarkdownParser;

  constructor(
    private readonly sanitizer: Sanitizer,
    private readonly doc: Document,
    private readonly options: MarkdownOptions = {},
  ) {
    this.md = new MarkdownIt({ html: options.html ?? false, linkify: true, breaks: false, typographer: false });
  }

  /** Sanitized HTML, without the Copy buttons (they need listeners, so they exist only as nodes). */
  toHtml(markdown: string): string {
    return this.sanitizer.sanitize(this.md.render(markdown));
  }

  /** Sanitized nodes with a Copy button on each code block. */
  render(markdown: string): DocumentFragment {
    const fragment = this.sanitizer.sanitizeToFragment(this.md.render(markdown));
    for (const pre of Array.from(fragment.querySelectorAll('pre'))) this.decorateCodeBlock(pre);
    return fragment;
  }

  renderInto(element: HTMLElement, markdown: string): void {
    element.replaceChildren(this.render(markdown));
  }

  private decorateCodeBlock(pre: HTMLPreElement): void {
    const code = pre.querySelector('code');
    const language = /(?:^|\s)language-([\w+#.-]+)/.exec(code?.className ?? '')?.[1];
    const wrapper = this.doc.createElement('div');
    wrapper.className = 'kd-code-block';
    const bar = this.doc.createElement('div');
    bar.className = 'kd-code-bar';
    const label = this.doc.createElement('span');
    label.className = 'kd-code-lang';
    label.textContent = language ?? '';
    const button = this.doc.createElement('button');
    button.type = 'button';
    button.className = 'kd-button kd-secondary kd-copy';
    const strings = pageStrings<SharedPageStrings>(this.doc);
    button.textContent = strings.copy;
    button.setAttribute('aria-label', language ? format(strings.copyLanguageCode, language) : strings.copyCode);
    button.addEventListener('click', () => void this.copy((code ?? pre).textContent ?? '', button));
    bar.append(label, button);
    pre.replaceWith(wrapper);
    wrapper.append(bar, pre);
  }

  private async copy(text: string, button: HTMLButtonElement): Promise<void> {
    const strings = pageStrings<SharedPageStrings>(this.doc);
    try {
      if (this.options.onCopy) await this.options.onCopy(text);
      else await this.doc.defaultView?.navigator.clipboard.writeText(text);
      button.textContent = strings.copied;
    } catch {
      button.textContent = strings.copyFailed;
    }
    setTimeout(() => (button.textContent = strings.copy), 1500);
  }
}
