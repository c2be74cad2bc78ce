import assert from 'node:assert/strict';
import { normalizeHashtag, normalizeHashtags, parseHashtags } from '../../../src/core/hashtags';

describe('hashtags (one reading everywhere)', () => {
  it('normalizeHashtag strips any number of leading # and ＃, and trims', () => {
    assert.equal(normalizeHashtag('#hr'), 'hr');
    assert.equal(normalizeHashtag('##hr'), 'hr');
    assert.equal(normalizeHashtag('＃経費'), '経費');
    assert.equal(normalizeHashtag('  ＃#＃ 経費  '), '経費');
    assert.equal(normalizeHashtag('hr'), 'hr');
  });

  it('normalizeHashtag keeps inner and trailing marks, case and width (no NFKC)', () => {
    assert.equal(normalizeHashtag('c#'), 'c#');
    assert.equal(normalizeHashtag('#a#b'), 'a#b');
    assert.equal(normalizeHashtag('ＨＲ'), 'ＨＲ');
    assert.equal(normalizeHashtag('Policy'), 'Policy');
  });

  it('normalizeHashtag of marks or space only is empty', () => {
    for (const t of ['', '   ', '#', '＃＃', ' # ＃ ', '\u3000']) assert.equal(normalizeHashtag(t), '', JSON.stringify(t));
  });

  it('parseHashtags splits on commas (, ， 、) and any white space, including the ideographic space and newlines', () => {
    assert.deepEqual(parseHashtags('#hr, ＃policy 経費、締め日，年末\u3000調整\nhr2\ttab'), [
      'hr',
      'policy',
      '経費',
      '締め日',
      '年末',
      '調整',
      'hr2',
      'tab',
    ]);
  });

  it('parseHashtags drops empties and repeats keeping the first, in order', () => {
    assert.deepEqual(parseHashtags(' , ,, #b a #a ＃b b, ,c '), ['b', 'a', 'c']);
    assert.deepEqual(parseHashtags(''), []);
    assert.deepEqual(parseHashtags('   '), []);
    assert.deepEqual(parseHashtags('# ＃ ##,、'), []);
  });

  it('parseHashtags keeps case differences (the service decides whether HR and hr match)', () => {
    assert.deepEqual(parseHashtags('HR hr'), ['HR', 'hr']);
  });

  it('normalizeHashtags normalizes list items without splitting them', () => {
    assert.deepEqual(normalizeHashtags(['#a b', 'a b', '', '＃', ' c ', '#c']), ['a b', 'c']);
    assert.deepEqual(normalizeHashtags([]), []);
  });
});
