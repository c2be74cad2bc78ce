import type { KbStore } from './kbStore';
import type { NodeRecord } from './nodeRecord';

export interface MoveResult {
  moved_kb_node_ids: string[];
  failed_kb_node_ids: string[];
}

/**
 * Bulk move (docs/api.md#move-nodes). Unknown ids, a folder into itself or its own subtree fail one by one;
 * the rest move. Without keepCurrentPermission a moved node takes the target folder's access.
 */
export async function moveNodes(
  store: KbStore,
  targetId: string | null,
  nodeIds: string[],
  keepCurrentPermission: boolean,
): Promise<MoveResult> {
  const target = targetId ? store.get(targetId) : undefined;
  const targetChain = new Set<string>(targetId ? [targetId, ...store.ancestors(target!).map((a) => a.id)] : []);
  const moved: NodeRecord[] = [];
  const failed: string[] = [];
  const now = Date.now();
  for (const id of [...new Set(nodeIds)]) {
    const node = store.get(id);
    if (!node || targetChain.has(id)) {
      failed.push(id);
      continue;
    }
    moved.push({
      ...node,
      parentId: targetId,
      updatedAt: now,
      ...(keepCurrentPermission
        ? {}
        : {
            agentPermission: target?.agentPermission ?? node.agentPermission,
            userPermission: target?.userPermission ?? node.userPermission,
          }),
    });
  }
  if (moved.length) await store.write(moved);
  return { moved_kb_node_ids: moved.map((n) => n.id), failed_kb_node_ids: failed };
}

/** Deletes a node and, for a folder, everything below it. Returns the removed records. */
export async function deleteNode(store: KbStore, id: string): Promise<NodeRecord[] | undefined> {
  const node = store.get(id);
  if (!node) return undefined;
  const removed = [node, ...(node.nodeType === 'folder' ? store.descendantsOf(node.id) : [])];
  await store.write(
    [],
    removed.map((n) => n.id),
  );
  return removed;
}
