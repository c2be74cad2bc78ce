// Japanese synonyms and spelling variants from Sudachi's synonym dictionary, for query expansion
// (queryExpansion.ts): 留守 meets 不在, 退職 meets 辞職 and retire, 行う meets 行なう, 取り扱い meets 取扱い. The
// table (data/synonyms-ja.txt.gz, built by scripts/buildSudachiSynonyms.mjs from the npm package
// `sudachi-synonyms-dictionary`, Apache-2.0, data/SUDACHI-NOTICE) is ~0.2 MB gzip, read on the first question
// that needs it. Words of one group sharing a word number are one word written another way (a variant);
// the group's other words are synonyms. A word the dictionary marks as no trigger (an ambiguous short form
// such as ソフト, or a common verb such as 行う) brings its variants only.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { termOf } from './analysis';

export interface JapaneseRelated {
  variants: string[];
  synonyms: string[];
}

interface Entry {
  term: string;
  number: number;
  trigger: boolean;
}

let groups: Map<string, Entry[][]> | null | undefined;

/** Beside dist/local.js (esbuild.mjs copies it) or in the source tree (tests, tsx). */
export function japaneseSynonymsFile(): string {
  return __filename.endsWith('.ts') ? path.join(__dirname, 'data', 'synonyms-ja.txt.gz') : path.join(__dirname, 'synonyms-ja.txt.gz');
}

function load(): Map<string, Entry[][]> | null {
  if (groups !== undefined) return groups;
  groups = null;
  const file = japaneseSynonymsFile();
  if (!existsSync(file)) return groups; // a build without the table: no expansion, retrieval still works
  const byTerm = new Map<string, Entry[][]>();
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
  for (const line of lines.slice(1)) {
    if (!line) continue;
    const group = line.split(' ').map((item): Entry => {
      const colon = item.indexOf(':');
      const trigger = !item.endsWith('!');
      return { number: Number(item.slice(0, colon)), term: termOf(item.slice(colon + 1, trigger ? undefined : -1)), trigger };
    });
    for (const e of group) {
      const list = byTerm.get(e.term);
      if (list) list.push(group);
      else byTerm.set(e.term, [group]);
    }
  }
  groups = byTerm;
  return groups;
}

const HAS_JAPANESE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** Variants and synonyms of a Japanese index term (empty for other terms, or when the table is missing). */
export function japaneseRelated(term: string): JapaneseRelated {
  const out: JapaneseRelated = { variants: [], synonyms: [] };
  if (!HAS_JAPANESE.test(term)) return out;
  const found = load()?.get(term);
  if (!found) return out;
  const variants = new Set<string>();
  const synonyms = new Set<string>();
  for (const group of found) {
    const own = group.filter((e) => e.term === term);
    const numbers = new Set(own.map((e) => e.number));
    const trigger = own.some((e) => e.trigger);
    for (const e of group) {
      if (e.term === term) continue;
      if (numbers.has(e.number)) variants.add(e.term);
      else if (trigger) synonyms.add(e.term);
    }
  }
  for (const v of variants) synonyms.delete(v);
  out.variants = [...variants];
  out.synonyms = [...synonyms];
  return out;
}
