import assert from 'node:assert/strict';
import { charCount, charsOver } from '../../../src/core/charCount';

describe('charCount (characters are code points)', () => {
  it('counts BMP text like String.length', () => {
    assert.equal(charCount(''), 0);
    assert.equal(charCount('abc'), 3);
    assert.equal(charCount('経費精算'), 4);
  });

  it('counts a surrogate pair (emoji, rare kanji) once', () => {
    assert.equal(charCount('😀'), 1);
    assert.equal(charCount('𠮷野家'), 3);
    assert.equal(charCount('a😀b😀'), 4);
    assert.equal(charCount('😀😀😀'), [...'😀😀😀'].length);
  });

  it('counts a lone surrogate as one, like the string iterator', () => {
    for (const s of ['\ud83d', '\ude00', 'a\ud83db', '\ude00\ud83d', '\ud83d\ud83d\ude00'])
      assert.equal(charCount(s), [...s].length, JSON.stringify(s));
  });

  it('charsOver is undefined at or under the limit and the count above it', () => {
    assert.equal(charsOver('abc', 3), undefined);
    assert.equal(charsOver('abcd', 3), 4);
    // Four UTF-16 units but two characters: not over 2.
    assert.equal(charsOver('😀😀', 2), undefined);
    assert.equal(charsOver('😀😀😀', 2), 3);
    assert.equal(charsOver('', 0), undefined);
  });
});
