import assert from 'node:assert/strict';
import { allAttributes, loadPage, makeWindow, type El, type Win } from './support/page';

interface SanitizerLike {
  sanitize(html: string): string;
  lastReport: { blockedImages: number; removedLinks: number };
}
const { Sanitizer } = loadPage<{
  Sanitizer: new (win: Win, options?: { localOrigins?: string[]; allowRemoteImages?: boolean }) => SanitizerLike;
}>('src/webview/shared/sanitize');

const LOCAL = 'https://file+.vscode-resource.vscode-cdn.net';

describe('webview sanitizer', () => {
  let win: Win;
  let clean: SanitizerLike;
  beforeEach(() => {
    win = makeWindow();
    clean = new Sanitizer(win, { localOrigins: [LOCAL] });
  });

  const dom = (html: string): El => {
    const div = win.document.createElement('div');
    div.innerHTML = html;
    return div;
  };
  const noHandlers = (html: string): void =>
    assert.deepEqual(
      allAttributes(dom(html)).filter((a) => /@on/i.test(a)),
      [],
      html,
    );

  it('removes <script> elements and their text', () => {
    const out = clean.sanitize('<p>before</p><script>alert(1)</script><p>after</p>');
    assert.equal(out, '<p>before</p><p>after</p>');
  });

  it('strips onerror from <img> and drops an image that is not from the webview', () => {
    const out = clean.sanitize('<img src=x onerror="alert(1)">');
    noHandlers(out);
    assert.doesNotMatch(out, /<img/);
    assert.match(out, /kd-blocked-image/);
    assert.equal(clean.lastReport.blockedImages, 1);
  });

  it('keeps the text of a javascript: link but not its address, in any spelling', () => {
    for (const href of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java&#x09;script:alert(1)',
      'jav&#x0A;ascript:alert(1)',
      'vbscript:msgbox(1)',
    ]) {
      const a = dom(clean.sanitize(`<a href="${href}">click</a>`)).querySelector('a');
      assert.equal(a?.getAttribute('href') ?? null, null, href);
      assert.equal(a?.textContent, 'click');
      assert.equal(a?.getAttribute('target'), null, 'no target without an address');
    }
  });

  it('removes <svg onload> (SVG is not allowed at all) and <math> mXSS tricks', () => {
    const out = clean.sanitize(
      '<svg onload="alert(1)"><circle r="5"/></svg><math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    );
    noHandlers(out);
    assert.doesNotMatch(out, /<svg|<math|<style|onload|onerror/i);
  });

  it('removes iframes, objects, embeds, forms and inputs', () => {
    const out = clean.sanitize(
      '<iframe src="https://evil.example"></iframe><object data="x.swf"></object><embed src="y"><form action="https://evil.example"><input name="q"><button formaction="javascript:alert(1)">go</button></form><p>ok</p>',
    );
    assert.doesNotMatch(out, /<(iframe|object|embed|form|input|button)/);
    assert.match(out, /<p>ok<\/p>/);
  });

  it('removes style attributes (expression(), url()) and <style> elements', () => {
    const out = clean.sanitize(
      '<p style="width: expression(alert(1)); background: url(javascript:alert(2))">x</p><style>body{background:url(https://evil.example/t.png)}</style>',
    );
    assert.equal(out, '<p>x</p>');
  });

  it('refuses data: URLs in links and images', () => {
    const out = clean.sanitize(
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">d</a><img src="data:image/png;base64,iVBORw0KGgo=" alt="pixel">',
    );
    const d = dom(out);
    assert.equal(d.querySelector('a')?.hasAttribute('href'), false);
    assert.equal(d.querySelector('img'), null);
    assert.equal(d.querySelector('.kd-blocked-image')?.textContent, '[image: pixel]');
  });

  it('blocks remote images by default and allows https ones (only) when remote images are allowed', () => {
    const html = '<img src="https://cdn.example/a.png" alt="a"><img src="http://cdn.example/b.png" alt="b">';
    assert.equal(dom(clean.sanitize(html)).querySelectorAll('img').length, 0);
    assert.equal(clean.lastReport.blockedImages, 2);
    const remote = new Sanitizer(win, { localOrigins: [LOCAL], allowRemoteImages: true });
    const imgs = Array.from(dom(remote.sanitize(html)).querySelectorAll('img')) as El[];
    assert.deepEqual(
      imgs.map((i) => i.getAttribute('src')),
      ['https://cdn.example/a.png'],
    );
    assert.equal(remote.lastReport.blockedImages, 1);
  });

  it("allows images from the webview's own resource origin, without srcset", () => {
    const src = `${LOCAL}/ext/media/icon.png`;
    const img = dom(clean.sanitize(`<img src="${src}" srcset="https://evil.example/x.png 2x" alt="icon">`)).querySelector('img');
    assert.equal(img?.getAttribute('src'), src);
    assert.equal(img?.hasAttribute('srcset'), false);
  });

  it('opens http(s) and mailto links in a new browser context without an opener', () => {
    const d = dom(
      clean.sanitize(
        '<a href="https://example.com/a" target="_self" rel="opener">a</a><a href="mailto:help@example.com">m</a><a href="/relative">r</a><a href="ftp://example.com">f</a>',
      ),
    );
    const links = Array.from(d.querySelectorAll('a')) as El[];
    assert.deepEqual(
      links.map((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]),
      [
        ['https://example.com/a', '_blank', 'noopener noreferrer'],
        ['mailto:help@example.com', '_blank', 'noopener noreferrer'],
        [null, null, null],
        [null, null, null],
      ],
    );
  });

  it('never leaves an event handler attribute, whatever the element', () => {
    const out = clean.sanitize(
      '<div onclick="a()" ONMOUSEOVER="b()"><p onfocus=c() tabindex=0>t</p><details open ontoggle=d()>x</details><a href="https://x.example" onauxclick=e()>l</a></div>',
    );
    noHandlers(out);
    assert.match(out, /<details open="">/);
  });

  it('keeps Japanese text, tables and formatting intact', () => {
    const html =
      '<h2>経費精算の締め日</h2><p>毎月<strong>25日</strong>です。詳しくは<a href="https://example.jp/規程">規程</a>を参照。</p><table><tbody><tr><td>申請</td><td>承認</td></tr></tbody></table>';
    const out = clean.sanitize(html);
    assert.match(out, /<h2>経費精算の締め日<\/h2>/);
    assert.match(out, /<strong>25日<\/strong>です。/);
    assert.match(out, /<td>申請<\/td><td>承認<\/td>/);
    assert.equal(dom(out).querySelector('a')?.textContent, '規程');
  });

  it('prefixes ids and names so sanitized content cannot clobber page globals', () => {
    const d = dom(clean.sanitize('<img name="getElementById" src="x"><p id="app">x</p>'));
    assert.notEqual(d.querySelector('p')?.id, 'app');
  });
});
