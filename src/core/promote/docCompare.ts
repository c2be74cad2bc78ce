// Promote between connections (issue 27): documents of one project against the other's, matched by their
// place (folder names from the top level, then the file name). The service gives no content hash, so a
// document is changed when its size differs, or when the source was updated after the target's copy
// (an upload of identical content then comes back `skipped`: copying it again costs nothing and changes nothing).
import type { PromoteKind } from './qaCompare';

/** A document as a listing gives it, with its place: the folder names above it, top first. */
export interface DocSnapshot {
  id: string;
  folders: readonly string[];
  name: string;
  size: number;
  /** Milliseconds; 0 when the service did not say. */
  updatedAt: number;
  hashtags: readonly string[];
  status: string;
}

export type DocField = 'content' | 'hashtags' | 'status';

export interface DocPromoteItem {
  kind: PromoteKind;
  /** Folder names and the file name joined with "/": the key both projects are matched by. */
  path: string;
  source?: DocSnapshot;
  target?: DocSnapshot;
  changes?: DocField[];
}

/** The key of a place: names are compared as the service stores them (NFC), case kept, since file names may differ only in case. */
export function docPath(folders: readonly string[], name: string): string {
  return [...folders, name].map((n) => n.normalize('NFC')).join('/');
}

export function docChanges(source: DocSnapshot, target: DocSnapshot): DocField[] {
  const out: DocField[] = [];
  if (source.size !== target.size || (source.updatedAt && target.updatedAt && source.updatedAt > target.updatedAt)) out.push('content');
  const tags = new Set(target.hashtags);
  if (source.hashtags.length !== target.hashtags.length || source.hashtags.some((t) => !tags.has(t))) out.push('hashtags');
  if (source.status !== target.status) out.push('status');
  return out;
}

/** `target` holds the target's documents below the same folders; those the source lacks come back as onlyInTarget. */
export function compareDocs(source: readonly DocSnapshot[], target: readonly DocSnapshot[]): DocPromoteItem[] {
  const byPath = new Map(target.map((d) => [docPath(d.folders, d.name), d]));
  const items: DocPromoteItem[] = [];
  const seen = new Set<string>();
  for (const s of source) {
    const path = docPath(s.folders, s.name);
    if (seen.has(path)) continue;
    seen.add(path);
    const t = byPath.get(path);
    if (!t) {
      items.push({ kind: 'new', path, source: s });
      continue;
    }
    const changes = docChanges(s, t);
    items.push(changes.length ? { kind: 'changed', path, source: s, target: t, changes } : { kind: 'same', path, source: s, target: t });
  }
  for (const [path, t] of byPath) if (!seen.has(path)) items.push({ kind: 'onlyInTarget', path, target: t });
  return items;
}
