// Builds src/local/search/data/synonyms-ja.txt.gz, the Japanese synonym table of document retrieval
// (src/local/search/japaneseSynonyms.ts), from Sudachi's synonym dictionary as the npm package
// `sudachi-synonyms-dictionary` ships it (Apache-2.0, © Works Applications; notice in
// src/local/search/data/SUDACHI-NOTICE). Not run by the build: the derived file is committed (small), so
// neither the build nor the extension needs the 14 MB package. To rebuild it:
//   npm install --prefix /tmp/sd sudachi-synonyms-dictionary@18.0.0 && node scripts/buildSudachiSynonyms.mjs /tmp/sd/node_modules/sudachi-synonyms-dictionary/sudachi-synonyms-dictionary.json
// Kept: the words a search can match as one index term (one word for Intl.Segmenter, or one Latin word),
// NFKC and lower case; words the dictionary never uses for expansion (flag 2) are dropped.
// Format: one group a line, words separated by spaces, each "n:word" (n: the group's word number: the same
// number is the same word written another way — 行う/行なう, 取り扱い/取扱い, ソフトウェア/software), with a
// trailing "!" on words that do not trigger an expansion themselves (flag 1, e.g. ambiguous short forms).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const source = process.argv[2];
const out = process.argv[3] ?? path.join(path.dirname(new URL(import.meta.url).pathname), '../src/local/search/data/synonyms-ja.txt.gz');
if (!source) throw new Error('usage: node scripts/buildSudachiSynonyms.mjs <sudachi-synonyms-dictionary.json> [out]');
const segmenter = new Intl.Segmenter('ja', { granularity: 'word' });
const oneTerm = (w) =>
  /^[a-z0-9]+$/.test(w) ||
  (/^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々]+$/u.test(w) && [...segmenter.segment(w)].length === 1);

const lines = ['Sudachi synonym dictionary (Works Applications Co., Ltd.), Apache License 2.0 (SUDACHI-NOTICE)'];
let words = 0;
for (const group of JSON.parse(fs.readFileSync(source, 'utf8'))) {
  const items = [];
  for (const item of group.items) {
    if (item.expandControl === 2) continue;
    const w = item.midashi.normalize('NFKC').toLowerCase();
    if (!oneTerm(w)) continue;
    items.push(`${item.vocabularyNumber}:${w}${item.expandControl === 1 ? '!' : ''}`);
  }
  if (items.length < 2) continue;
  lines.push(items.join(' '));
  words += items.length;
}
const gz = zlib.gzipSync(lines.join('\n') + '\n', { level: 9 });
fs.writeFileSync(out, gz);
console.log(`${out}: ${lines.length - 1} groups, ${words} words, ${(gz.length / 1e6).toFixed(2)} MB gzip`);
