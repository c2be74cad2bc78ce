import type { ApiClient } from '../client';
import { NotFoundError } from '../errors';
import type { FileNode, KbNode } from '../schemas/kbNodes';
import { FINAL_PROCESS_STATES, isFileNode } from '../values';

export interface WatchedNode {
  id: string;
  parentId: string | null;
  name: string;
}

export interface WatcherOptions {
  client: () => Promise<ApiClient>;
  /** A watched document's state changed (including to a final state). */
  onUpdate: (node: FileNode) => void;
  /** A watched document reached a final state (completed or failed). */
  onFinal?: (node: FileNode) => void;
  /** A watched document vanished (deleted meanwhile). */
  onGone?: (id: string) => void;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Stop watching a document after this long (default 30 min). */
  giveUpMs?: number;
}

/**
 * Polls documents after upload or replace until they reach a final processing state, backing off
 * from ~1 s to ~15 s, one listing per parent folder per round (not one call per document).
 */
export class ProcessingWatcher {
  private readonly pending = new Map<string, WatchedNode & { since: number; state?: string; misses: number }>();
  private timer: NodeJS.Timeout | undefined;
  private delay: number;
  private running = false;
  private disposed = false;

  constructor(private readonly options: WatcherOptions) {
    this.delay = options.initialDelayMs ?? 1000;
  }

  get watching(): number {
    return this.pending.size;
  }

  isWatching(id: string): boolean {
    return this.pending.has(id);
  }

  watch(nodes: WatchedNode[], initialState?: (id: string) => string | undefined): void {
    for (const n of nodes) this.pending.set(n.id, { ...n, since: Date.now(), state: initialState?.(n.id), misses: 0 });
    this.delay = this.options.initialDelayMs ?? 1000;
    this.schedule();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.pending.clear();
  }

  private schedule(): void {
    if (this.disposed || this.running || !this.pending.size) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), this.delay);
  }

  private async tick(): Promise<void> {
    this.running = true;
    try {
      const client = await this.options.client();
      const byParent = new Map<string | null, string[]>();
      for (const n of this.pending.values()) byParent.set(n.parentId, [...(byParent.get(n.parentId) ?? []), n.id]);
      for (const [parent, ids] of byParent) {
        try {
          await this.poll(client, parent, new Set(ids));
        } catch (error) {
          // A folder deleted while its documents were processing: its documents are gone too. It must not
          // stop this round from reaching the other folders (their badges would stay "processing").
          if (!(error instanceof NotFoundError)) throw error;
          for (const id of ids) this.missed(id);
        }
      }
    } catch {
      // Offline or a transient error: keep watching, with the next (longer) delay.
    } finally {
      this.running = false;
      this.delay = Math.min(this.options.maxDelayMs ?? 15_000, Math.round(this.delay * 1.5));
      this.schedule();
    }
  }

  private async poll(client: ApiClient, parent: string | null, ids: Set<string>): Promise<void> {
    const seen = new Set<string>();
    for await (const page of client.kbNodes.pages({ parentFolderIds: [parent], nodeType: ['file'] }, { maxNodes: 1000 })) {
      for (const node of page.fresh) if (ids.has(node.id)) this.observe(node, seen);
      if (seen.size >= ids.size) break;
    }
    // Not on the first pages of a big folder: look them up by name.
    for (const id of ids) {
      if (seen.has(id) || !this.pending.has(id)) continue;
      const watched = this.pending.get(id)!;
      const found = (
        await client.kbNodes.search({ parentFolderIds: [parent], searchTerm: watched.name, nodeType: ['file'], limit: 100 })
      ).nodes.find((n) => n.id === id);
      if (found) this.observe(found, seen);
      else this.missed(id);
    }
    const giveUp = this.options.giveUpMs ?? 30 * 60_000;
    for (const id of ids) {
      const w = this.pending.get(id);
      if (w && Date.now() - w.since > giveUp) this.pending.delete(id);
    }
  }

  /** Not found this round; after three rounds in a row the document is taken as deleted. */
  private missed(id: string): void {
    const watched = this.pending.get(id);
    if (watched && ++watched.misses >= 3) {
      this.pending.delete(id);
      this.options.onGone?.(id);
    }
  }

  private observe(node: KbNode, seen: Set<string>): void {
    seen.add(node.id);
    if (!isFileNode(node)) return;
    const watched = this.pending.get(node.id);
    if (!watched) return;
    watched.misses = 0;
    if (watched.state !== node.processState) {
      watched.state = node.processState;
      this.options.onUpdate(node);
    }
    if (FINAL_PROCESS_STATES.has(node.processState)) {
      this.pending.delete(node.id);
      this.options.onFinal?.(node);
    }
  }
}
