// Retrieval that finds a page worded differently from the question (docs/local-service.md#retrieval-and-answer-rules):
// loanword links, katakana long vowels, section headings. Each case finds its page only with its lever.
import assert from 'node:assert/strict';
import type { Extraction } from '../../../../src/local/extract/types';
import { Bm25Index } from '../../../../src/local/search/bm25Index';
import { findHeadings, HeadingTrail } from '../../../../src/local/search/headings';
import { expandQuery } from '../../../../src/local/search/queryExpansion';
import { RetrievalIndex } from '../../../../src/local/search/retrievalIndex';

const W = { bm25: 9, text: 0, title: 0 };
const doc = (...pages: string[]): Extraction => ({ kind: 'text', pages: pages.map((text, i) => ({ pageNo: i + 1, text })) });
const FILLER = 'The archive keeps every release. Mirrors copy it each day. Developers upload to the queue. ';

function indexOf(docs: Record<string, Extraction>): RetrievalIndex {
  const index = new RetrievalIndex();
  for (const [id, extraction] of Object.entries(docs)) index.add(id, `hash-${id}`, id, extraction);
  return index;
}

const top = (index: RetrievalIndex, query: string): string | undefined => index.search(query, W, () => true, 1)[0]?.passage.nodeId;

describe('Retrieval that understands rewording', () => {
  it('links katakana loanwords and English both ways, compounds too (ピン留め → pin, ホスト名 → hostname)', () => {
    const index = indexOf({
      pinning: doc(`${FILLER}APT pinning lets you pin a package to a release, so an upgrade keeps it.`),
      hostname: doc(`${FILLER}The hostname is set in /etc/hostname and read at boot.`),
      ja: doc('パッケージを固定する設定。'),
      other: doc(`${FILLER}Mail is delivered to the mail name of the system.`),
    });
    assert.equal(top(index, 'ピン留めの方法'), 'pinning');
    assert.equal(top(index, 'ホスト名は'), 'hostname');
    const expanded = expandQuery('ホスト名');
    assert.deepEqual(expanded.terms, ['ホスト', '名', 'host', 'name', 'hostname']);
    assert.deepEqual(expanded.weights.slice(0, 2), [1, 1], "the user's own words weigh fully");
    assert.ok(
      expanded.weights.slice(2).every((w) => w > 0 && w < 1),
      'added words weigh less',
    );
  });

  it('an added word adds a weighted part but does not count as a matched word', () => {
    const bm25 = new Bm25Index();
    bm25.add(0, ['apt', 'pin']);
    bm25.add(1, ['apt', 'upgrade']);
    const full = new Float64Array(2);
    bm25.score(['apt', 'pin'], new Uint8Array([1, 1]), full, new Uint16Array(2));
    const weighted = new Float64Array(2);
    const matched = new Uint16Array(2);
    bm25.score(['apt', 'pin'], new Uint8Array([1, 1]), weighted, matched, [1, 0.5]);
    assert.deepEqual([...matched], [1, 1]);
    assert.ok(weighted[0] > weighted[1], 'the added word still ranks the passage holding it first');
    assert.ok(weighted[0] < full[0] / 2 + 1e-9, 'no quality factor for it: less than half the full score');
  });

  it('with sources, an added word stands for its user word: counted as matched where that word is missing, skipped where it is there', () => {
    const bm25 = new Bm25Index();
    bm25.add(0, ['animated', 'movie']);
    bm25.add(1, ['animated', 'film', 'movie']);
    bm25.add(2, ['animated', 'banner']);
    const scores = new Float64Array(3);
    const matched = new Uint16Array(3);
    const own = new Float64Array(3);
    bm25.score(['animated', 'film'], new Uint8Array([1, 1, 1]), own, new Uint16Array(3));
    const expansion = { sources: [0, 1, 1], covered: new Uint32Array(3) };
    bm25.score(['animated', 'film', 'movie'], new Uint8Array([1, 1, 1]), scores, matched, [1, 1, 0.3], expansion);
    assert.deepEqual([...matched], [2, 2, 1], '"movie" matches "film" in passage 0');
    assert.equal(scores[1], own[1], 'passage 1 has "film" itself: "movie" adds nothing there');
    assert.ok(scores[0] > scores[2], 'the passage saying "movie" ranks above the one sharing only "animated"');
  });

  it('matches katakana with and without a final long-vowel mark (サーバー = サーバ)', () => {
    const index = indexOf({ server: doc('DNS サーバの設定を変更します。'), other: doc('メールの設定を変更します。') });
    assert.equal(top(index, 'サーバーの設定'), 'server');
    assert.equal(top(index, 'ｻｰﾊﾞｰ'), 'server', 'half-width katakana too (NFKC)');
  });

  it('a passage knows its heading path, and its section heading is searched with it', () => {
    const body = 'Write the new name into the file, then run the command below to apply it now. '.repeat(12);
    const text = `7 Basic configuration\n7.3 Setting the hostname\n${body}\n7.4 Time zone\nThe clock follows the zone.`;
    assert.deepEqual(
      findHeadings(text).map((h) => [h.depth, h.text]),
      [
        [1, '7 Basic configuration'],
        [2, '7.3 Setting the hostname'],
        [2, '7.4 Time zone'],
      ],
    );
    const trail = new HeadingTrail();
    trail.read(text, text.indexOf('7.4'));
    assert.deepEqual(trail.path, ['7 Basic configuration', '7.3 Setting the hostname']);
    const index = indexOf({ manual: doc(text), other: doc(`${FILLER}A hostname may hold letters and digits only. ${FILLER}`) });
    const hits = index.search('hostname apply', W, () => true);
    const later = hits.find((h) => h.passage.nodeId === 'manual' && !h.passage.text.includes('hostname'));
    assert.ok(later, 'a later passage of the section, without the word, is found through its heading');
    assert.deepEqual(later.passage.headingPath, ['7 Basic configuration', '7.3 Setting the hostname']);
  });
});
