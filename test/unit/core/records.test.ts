import assert from 'node:assert/strict';
import { escapeHtml } from '../../../src/core/html';
import { isRecord, prefixed } from '../../../src/core/records';

// One copy of each small helper the client, the local service and the webview host used to write for themselves.
describe('core helpers shared by several layers', () => {
  it('isRecord accepts JSON objects only', () => {
    assert.equal(isRecord({ a: 1 }), true);
    assert.equal(isRecord(Object.create(null)), true);
    for (const v of [null, undefined, [], 'x', 1, true]) assert.equal(isRecord(v), false, String(v));
  });

  it('prefixed puts the prefix before every counter name', () => {
    assert.deepEqual(prefixed('faults.', { drop: 2, delay: 0 }), { 'faults.drop': 2, 'faults.delay': 0 });
    assert.deepEqual(prefixed('x.', {}), {});
  });

  it('escapeHtml escapes the five characters that matter in text and quoted attributes', () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    assert.equal(escapeHtml('plain 日本語'), 'plain 日本語');
  });
});
