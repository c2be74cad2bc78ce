import assert from 'node:assert/strict';
import { urlWithScheme, WEB_SCHEMES } from '../../../src/core/urls';

describe('core/urls: which links are followed', () => {
  it('keeps http(s) links, normalized by the URL parser', () => {
    assert.equal(urlWithScheme('  https://example.com/a b  ', WEB_SCHEMES), 'https://example.com/a%20b');
    assert.equal(urlWithScheme('HTTP://Example.com', WEB_SCHEMES), 'http://example.com/');
  });

  it('refuses other schemes, relative paths, blanks and non-strings', () => {
    for (const bad of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,x',
      'vscode://x',
      '/relative',
      'not a url',
      '',
      '   ',
      null,
      undefined,
      42,
      {},
    ]) {
      assert.equal(urlWithScheme(bad, WEB_SCHEMES), undefined, String(bad));
    }
  });

  it('takes the schemes it is given', () => {
    assert.equal(urlWithScheme('http://example.com', ['https:']), undefined);
    assert.equal(urlWithScheme('mailto:a@example.com', ['mailto:']), 'mailto:a@example.com');
  });
});
