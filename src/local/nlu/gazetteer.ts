// A phrase → tag dictionary matched anywhere in a text with a character trie (one walk per start
// position, so the cost does not grow with the number of phrases). Matching is exact (case-sensitive,
// no normalisation, so offsets stay those of the original text) and respects word boundaries where
// Japanese has them too: see onWordBoundaries ("Tokyo" is not in "Tokyoite", タイ is not in タイトル,
// but 東京 is in 東京都内).
import { onWordBoundaries } from './entity';

interface TrieNode {
  next: Map<string, TrieNode>;
  tag?: string;
}

export interface GazetteerMatch {
  start: number;
  end: number;
  tag: string;
}

export class Gazetteer {
  private readonly root: TrieNode = { next: new Map() };
  private count = 0;

  constructor(entries: Iterable<readonly [phrase: string, tag: string]> = []) {
    for (const [phrase, tag] of entries) this.add(phrase, tag);
  }

  get size(): number {
    return this.count;
  }

  /** Adds or re-tags `phrase` (the latest tag wins). Returns whether anything changed. */
  add(phrase: string, tag: string): boolean {
    if (!phrase || !tag) return false;
    let node = this.root;
    for (let i = 0; i < phrase.length; i++) {
      let child = node.next.get(phrase[i]);
      if (!child) node.next.set(phrase[i], (child = { next: new Map() }));
      node = child;
    }
    if (node.tag === tag) return false;
    if (node.tag === undefined) this.count++;
    node.tag = tag;
    return true;
  }

  tagOf(phrase: string): string | undefined {
    let node: TrieNode | undefined = this.root;
    for (let i = 0; i < phrase.length && node; i++) node = node.next.get(phrase[i]);
    return node?.tag;
  }

  /** The distinct tags of the entries. */
  tags(): Set<string> {
    const tags = new Set<string>();
    const walk = (node: TrieNode): void => {
      if (node.tag) tags.add(node.tag);
      for (const child of node.next.values()) walk(child);
    };
    walk(this.root);
    return tags;
  }

  /** Every entry found in `text` (nested and overlapping ones too; the recognizer resolves overlaps). */
  matchAll(text: string): GazetteerMatch[] {
    const out: GazetteerMatch[] = [];
    if (this.count === 0) return out;
    for (let start = 0; start < text.length; start++) {
      let node = this.root.next.get(text[start]);
      for (let end = start + 1; node; end++) {
        if (node.tag !== undefined && onWordBoundaries(text, start, end)) out.push({ start, end, tag: node.tag });
        if (end >= text.length) break;
        node = node.next.get(text[end]);
      }
    }
    return out;
  }
}
