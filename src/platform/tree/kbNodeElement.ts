// A Knowledge Base tree row as other features receive it: VS Code passes the row itself to every command
// contributed to that tree's menus, whichever feature registers it (Ask About This Folder or Document and
// Open Document are the answers feature's). The tree (features/knowledgeBase/kbTreeModel.ts) builds its rows
// of this type, and the others read them with kbNodeOf, so neither side writes the shape as a cast.
import type { KbNode } from '../../api/schemas/kbNodes';

/** A knowledge-base node's row in the Knowledge Base tree. */
export interface KbNodeElement {
  kind: 'node';
  node: KbNode;
  /** The tree's key of the folder it is listed in. */
  parentKey: string;
}

/** The node of a command argument that is a Knowledge Base row; undefined for anything else. */
export function kbNodeOf(arg: unknown): KbNode | undefined {
  const row = arg as Partial<KbNodeElement> | null | undefined;
  return typeof row === 'object' && row?.kind === 'node' && typeof row.node === 'object' && row.node ? row.node : undefined;
}
