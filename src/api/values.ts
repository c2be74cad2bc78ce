// Plain values and checks of the API that views need at activation. They live apart from the zod
// schemas and resources on purpose: building the schemas costs activation time, so those load with
// the client, on the first request. The schema and resource modules re-export them.
import type { FaqDetail } from './schemas/faq';
import type { FileNode, KbNode } from './schemas/kbNodes';

export const FINAL_PROCESS_STATES: ReadonlySet<string> = new Set(['completed', 'post_completed', 'parsing_fail', 'post_parsing_fail']);
export const FAILED_PROCESS_STATES: ReadonlySet<string> = new Set(['parsing_fail', 'post_parsing_fail']);

// The cloud's processing-steps status is known second-hand (docs/api.md#processing-steps): besides the final
// process states, its usual words for an end stop the polling too, so Show Details never polls for nothing.
const OTHER_INGESTION_ENDS: ReadonlySet<string> = new Set(['failed', 'done', 'success']);

/** Whether the `status` of `kbNodes.ingestionStatus` says processing has ended (any case). */
export function ingestionFinished(status: string): boolean {
  const s = status.toLowerCase();
  return FINAL_PROCESS_STATES.has(s) || OTHER_INGESTION_ENDS.has(s);
}
export { NODE_ORDERS } from '../core/kbWire';

export function isFileNode(node: KbNode): node is FileNode {
  return node.nodeType === 'file';
}

export const ACTIVE_JOB_STATES: ReadonlySet<string> = new Set(['queued', 'running']);

/** Characters the entity-recognition service considers; the rest is ignored (docs/api.md#infer). */
export const NLU_MAX_CHARS = 2000;

export function faqStatus(detail: FaqDetail): 'on' | 'off' {
  if (detail.status === 'on' || detail.status === 'off') return detail.status;
  const on = detail.statusOnAt ? Date.parse(detail.statusOnAt) : NaN;
  const off = detail.statusOffAt ? Date.parse(detail.statusOffAt) : NaN;
  return !Number.isNaN(off) && (Number.isNaN(on) || off > on) ? 'off' : 'on';
}
