import assert from 'node:assert/strict';
import { allAttributes, loadPage, makeWindow, tick, type El, type Win } from './support/page';

interface Renderer {
  toHtml(markdown: string): string;
  render(markdown: string): El;
  renderInto(element: El, markdown: string): void;
}
const { Sanitizer } = loadPage<{ Sanitizer: new (win: Win, options?: object) => unknown }>('src/webview/shared/sanitize');
const { MarkdownRenderer } = loadPage<{
  MarkdownRenderer: new (s: unknown, doc: El, o?: { html?: boolean; onCopy?(t: string): void }) => Renderer;
}>('src/webview/shared/markdown');

describe('webview Markdown', () => {
  let win: Win;
  const copied: string[] = [];
  let md: Renderer;
  beforeEach(() => {
    win = makeWindow('<div id="out"></div>');
    copied.length = 0;
    md = new MarkdownRenderer(new Sanitizer(win), win.document, { onCopy: (t) => void copied.push(t) });
  });

  it('gives each code block a Copy button that sends the code (not the label) to the host', async () => {
    const out = win.document.getElementById('out');
    md.renderInto(out, 'Run:\n\n```bash\nnpm ci\nnpm test\n```\n\nand\n\n    indented code\n');
    const blocks = Array.from(out.querySelectorAll('.kd-code-block')) as El[];
    assert.equal(blocks.length, 2);
    const button = blocks[0].querySelector('button');
    assert.equal(button.textContent, 'Copy');
    assert.equal(button.getAttribute('type'), 'button');
    assert.equal(button.getAttribute('aria-label'), 'Copy bash code');
    assert.equal(blocks[0].querySelector('.kd-code-lang').textContent, 'bash');
    button.click();
    await tick();
    assert.deepEqual(copied, ['npm ci\nnpm test\n']);
    assert.equal(button.textContent, 'Copied');
    assert.deepEqual(
      allAttributes(out).filter((a) => /@on/i.test(a)),
      [],
      'the listener is not an attribute',
    );
  });

  it('shows raw HTML as text by default', () => {
    const html = md.toHtml('Hello <script>alert(1)</script> <img src=x onerror=alert(1)> **bold**');
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(html, /<strong>bold<\/strong>/);
  });

  it('sanitizes raw HTML when it is allowed', () => {
    const withHtml = new MarkdownRenderer(new Sanitizer(win), win.document, { html: true });
    const html = withHtml.toHtml('<div onclick="x()">box</div>\n\n<script>alert(1)</script>\n\n<iframe src="https://e.example"></iframe>');
    assert.equal(html.includes('onclick'), false);
    assert.equal(/<script|<iframe/.test(html), false);
    assert.match(html, /<div>box<\/div>/);
  });

  it('makes safe links open outside, drops javascript: links and links bare addresses', () => {
    const d = win.document.createElement('div');
    d.innerHTML = md.toHtml(
      '[docs](https://example.com/docs) [bad](javascript:alert(1)) see https://example.org/x or <mailto:a@example.com>',
    );
    const links = Array.from(d.querySelectorAll('a')) as El[];
    assert.deepEqual(
      links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]),
      [
        ['docs', 'https://example.com/docs', '_blank', 'noopener noreferrer'],
        ['https://example.org/x', 'https://example.org/x', '_blank', 'noopener noreferrer'],
        ['mailto:a@example.com', 'mailto:a@example.com', '_blank', 'noopener noreferrer'],
      ],
    );
    assert.match(d.textContent, /\[bad\]\(javascript:alert\(1\)\)/, 'markdown-it leaves the unsafe link as text');
  });

  it('keeps Japanese Markdown', () => {
    assert.equal(
      md.toHtml('# 手順\n\n1. **申請**する\n2. 承認を待つ').replace(/\n/g, ''),
      '<h1>手順</h1><ol><li><strong>申請</strong>する</li><li>承認を待つ</li></ol>',
    );
  });
});
