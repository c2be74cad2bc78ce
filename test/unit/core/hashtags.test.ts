import assert from 'node:assert/strict';
import {
  hashtagConcern,
  hashtagFilterText,
  normalizeHashtag,
  normalizeHashtags,
  parseHashtags,
  takeTypedHashtags,
} from '../../../src/core/hashtags';

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

  it('parseHashtags splits on , ; ， ； 、 and line breaks, and on white space only before a # or ＃ mark', () => {
    assert.deepEqual(parseHashtags('#hr, ＃policy;経費、締め日，年末；調整\nhr2\r\ncr'), [
      'hr',
      'policy',
      '経費',
      '締め日',
      '年末',
      '調整',
      'hr2',
      'cr',
    ]);
    assert.deepEqual(parseHashtags('#debian #network\t#apt\u3000＃経費'), ['debian', 'network', 'apt', '経費']);
  });

  it('parseHashtags reads "debian;network" as two tags, the cell of the issue (it became one tag)', () => {
    assert.deepEqual(parseHashtags('debian;network'), ['debian', 'network']);
    assert.deepEqual(parseHashtags('#debian; #network'), ['debian', 'network']);
  });

  it('parseHashtags keeps plain white space inside a tag, and hashtagConcern says so', () => {
    assert.deepEqual(parseHashtags('debian network, apt'), ['debian network', 'apt']);
    assert.deepEqual(hashtagConcern('debian network'), { kind: 'space' });
    assert.deepEqual(hashtagConcern('debian|network'), { kind: 'character', char: '|' });
    assert.deepEqual(hashtagConcern('"vpn"'), { kind: 'character', char: '"' });
    for (const ok of ['debian', '経費精算', 'ＨＲ', 'c++', 'wi-fi', 'q&a', 'tcp/ip', 'node.js', 'snake_case', 'コール・センター', 'ー'])
      assert.equal(hashtagConcern(ok), undefined, ok);
  });

  it('parseHashtags drops empties and repeats keeping the first, in order', () => {
    assert.deepEqual(parseHashtags(' ; ,, #b; a #a ＃b; b, ,c '), ['b', 'a', 'c']);
    assert.deepEqual(parseHashtags(''), []);
    assert.deepEqual(parseHashtags('   '), []);
    assert.deepEqual(parseHashtags('# ＃ ##,、;'), []);
  });

  it('parseHashtags keeps case differences (the service decides whether HR and hr match)', () => {
    assert.deepEqual(parseHashtags('HR, hr'), ['HR', 'hr']);
  });

  it("takeTypedHashtags: tags finished by a separator, and the rest still being typed (the editor's hashtag box)", () => {
    assert.deepEqual(takeTypedHashtags('hr'), { done: [], rest: 'hr' });
    assert.deepEqual(takeTypedHashtags('hr, po'), { done: ['hr'], rest: ' po' });
    assert.deepEqual(takeTypedHashtags('hr;policy;'), { done: ['hr', 'policy'], rest: '' });
    assert.deepEqual(takeTypedHashtags('#hr #'), { done: ['hr'], rest: '#' });
    assert.deepEqual(takeTypedHashtags('debian network'), { done: [], rest: 'debian network' });
  });

  it('normalizeHashtags normalizes list items without splitting them', () => {
    assert.deepEqual(normalizeHashtags(['#a b', 'a b', '', '＃', ' c ', '#c']), ['a b', 'c']);
    assert.deepEqual(normalizeHashtags([]), []);
  });

  it('hashtagFilterText writes a view filter the same for both trees: + for all of them, | for any', () => {
    assert.equal(hashtagFilterText(['hr', '経費'], 'and'), '#hr + #経費');
    assert.equal(hashtagFilterText(['hr', '経費'], 'or'), '#hr | #経費');
    assert.equal(hashtagFilterText(['hr'], undefined), '#hr');
  });
});
