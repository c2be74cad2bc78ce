import type { Journal } from '../store/journal';
import { toApiNode, type ApiNode, type NodeRecord } from './nodeRecord';
import { NODES } from '../store/collections';

/**
 * The knowledge base tree over the journal's `nodes` collection, with a children index kept in
 * memory (rebuilt on start). The index follows the journal's changes (a watcher), so it never
 * disagrees with the records, also when a failed write is undone.
 */
export class KbStore {
  private readonly children = new Map<string | null, Set<string>>();

  constructor(private readonly journal: Journal) {
    for (const record of this.records.values()) this.link(record);
    journal.watch(NODES, (_id, value, previous) => {
      const [before, after] = [previous as NodeRecord | undefined, value as NodeRecord | undefined];
      // A node keeps its place among its siblings until it leaves the folder: which of two same-named
      // files an upload overwrites must not depend on when processing last wrote one of them.
      if (before && after && before.parentId === after.parentId) return;
      if (before) this.unlink(before);
      if (after) this.link(after);
    });
  }

  /** Calls `listener` as each node changes (value undefined: removed), also when a failed write is undone. */
  onChange(listener: (id: string, node: NodeRecord | undefined, previous: NodeRecord | undefined) => void): void {
    this.journal.watch(NODES, (id, value, previous) => listener(id, value as NodeRecord | undefined, previous as NodeRecord | undefined));
  }

  private get records(): ReadonlyMap<string, NodeRecord> {
    return this.journal.collection<NodeRecord>(NODES);
  }

  get(id: string): NodeRecord | undefined {
    return this.records.get(id);
  }

  get size(): number {
    return this.records.size;
  }

  all(): IterableIterator<NodeRecord> {
    return this.records.values();
  }

  childrenOf(parentId: string | null): NodeRecord[] {
    const ids = this.children.get(parentId);
    if (!ids) return [];
    const out: NodeRecord[] = [];
    for (const id of ids) {
      const r = this.records.get(id);
      if (r) out.push(r);
    }
    return out;
  }

  /** Every node below `parentId` (null = the whole knowledge base). */
  descendantsOf(parentId: string | null): NodeRecord[] {
    const out: NodeRecord[] = [];
    const stack = [parentId];
    while (stack.length) {
      for (const child of this.childrenOf(stack.pop()!)) {
        out.push(child);
        if (child.nodeType === 'folder') stack.push(child.id);
      }
    }
    return out;
  }

  ancestors(record: NodeRecord): Array<{ id: string; name: string }> {
    const chain: Array<{ id: string; name: string }> = [];
    const seen = new Set<string>();
    let parentId = record.parentId;
    while (parentId && !seen.has(parentId)) {
      seen.add(parentId);
      const parent = this.records.get(parentId);
      if (!parent) break;
      chain.unshift({ id: parent.id, name: parent.name });
      parentId = parent.parentId;
    }
    return chain;
  }

  toApi(record: NodeRecord, action?: string): ApiNode {
    return toApiNode(record, this.ancestors(record), action);
  }

  /**
   * Stores new versions of nodes (and deletes `remove`): visible at once, resolved when durable. Callers
   * build `upserts` from what they read with no await in between, so no other write can slip in (journal.ts).
   */
  write(upserts: NodeRecord[], remove: string[] = []): Promise<void> {
    return this.journal.commit([...upserts.map((r) => ({ c: NODES, k: r.id, v: r })), ...remove.map((id) => ({ c: NODES, k: id }))]);
  }

  private link(record: NodeRecord): void {
    let set = this.children.get(record.parentId);
    if (!set) this.children.set(record.parentId, (set = new Set()));
    set.add(record.id);
  }

  private unlink(record: NodeRecord): void {
    this.children.get(record.parentId)?.delete(record.id);
  }
}
