// Test option of the local service (`exposeCommitSeq`): every response whose request committed something
// carries the journal sequence number of its first commit. Commits take effect in that order (journal.ts),
// so a concurrent model test can replay the acknowledged operations in the order the service applied them.
// Off by default: production requests never pass through this file.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Handler } from './context';

export const COMMIT_SEQ_HEADER = 'x-kd-commit-seq';

export class CommitSeqTracker {
  private readonly requests = new AsyncLocalStorage<{ seq?: number }>();

  /** The journal's onCommit: remembers the first commit made on behalf of the current request. */
  readonly onCommit = (seq: number): void => {
    const slot = this.requests.getStore();
    if (slot && slot.seq === undefined) slot.seq = seq;
  };

  wrap(handlers: ReadonlyMap<string, Handler>): Map<string, Handler> {
    const wrapped = new Map<string, Handler>();
    for (const [op, handler] of handlers) {
      wrapped.set(op, (ctx) => {
        const slot: { seq?: number } = {};
        return this.requests.run(slot, async () => {
          const result = await handler(ctx);
          if (slot.seq !== undefined && !ctx.res.headersSent) ctx.res.setHeader(COMMIT_SEQ_HEADER, String(slot.seq));
          return result;
        });
      });
    }
    return wrapped;
  }
}
