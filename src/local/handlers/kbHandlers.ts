import type { Handler } from '../http/context';
import type { KbStore } from '../kb/kbStore';
import { nodeSearchSchema, searchNodes } from '../kb/nodeQuery';

export function kbHandlers(kb: KbStore): Record<string, Handler> {
  return {
    'kb.search': async (ctx) => {
      const query = await ctx.parse(nodeSearchSchema);
      const { nodes, total } = searchNodes(kb, query);
      return { result: { nodes: nodes.map((n) => kb.toApi(n)), total } };
    },
  };
}
