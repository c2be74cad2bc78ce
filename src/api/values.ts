// Plain values and checks of the API that views need at activation. They live apart from the zod
// schemas and resources on purpose: building the schemas costs activation time, so those load with
// the client, on the first request. The schema and resource modules re-export them.
import type { FaqDetail } from './schemas/faq';
import type { FileNode, KbNode } from './schemas/kbNodes';

export const FINAL_PROCESS_STATES: ReadonlySet<string> = new Set(['completed', 'post_completed', 'parsing_fail', 'post_parsing_fail']);
export const FAILED_PROCESS_STATES: ReadonlySet<string> = new Set(['parsing_fail', 'post_parsing_fail']);
export const NODE_ORDERS = ['name_asc', 'name_desc', 'updated_at_asc', 'updated_at_desc', 'created_at_asc', 'created_at_desc'] as const;

export function isFileNode(node: KbNode): node is FileNode {
  return node.nodeType === 'file';
}

export const ACTIVE_JOB_STATES: ReadonlySet<string> = new Set(['queued', 'running']);

/** Characters the entity-recognition service considers; the rest is ignored (document 2). */
export const NLU_MAX_CHARS = 2000;

export function faqStatus(detail: FaqDetail): 'on' | 'off' {
  if (detail.status === 'on' || detail.status === 'off') return detail.status;
  const on = detail.statusOnAt ? Date.parse(detail.statusOnAt) : NaN;
  const off = detail.statusOffAt ? Date.parse(detail.statusOffAt) : NaN;
  return !Number.isNaN(off) && (Number.isNaN(on) || off > on) ? 'off' : 'on';
}

export class DeleteNotSupportedError extends Error {
  override readonly name = 'DeleteNotSupportedError';
  constructor() {
    super('This deployment does not offer deleting knowledge-base nodes.');
  }
}
