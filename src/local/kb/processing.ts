import { createHash } from 'node:crypto';
import type { Extraction } from '../extract/types';
import { ExtractionError } from '../extract/types';
import type { LocalLogger } from '../logger';
import type { BlobStore } from '../store/blobs';
import type { KbStore } from './kbStore';
import type { NodeRecord } from './nodeRecord';

export interface Extractor {
  extract(filePath: string, fileName: string, options?: { signal?: AbortSignal }): Promise<Extraction>;
  /** Documents it extracts at once; the queue runs as many, so a slow one does not hold up the others. */
  readonly concurrency?: number;
}

/**
 * Called in the synchronous span of the commit that records a document's outcome (completed or failed), so an
 * index derived from it never lags the record: no reader can see a completed document its index lacks. If
 * that write then fails, the journal undoes it and the store's change watchers (KbStore.onChange) see the undo.
 */
export type ProcessedListener = (node: NodeRecord, extraction: Extraction | undefined) => void;

const UNFINISHED = new Set(['initializing', 'parsing', 'retrying', 'post_parsing', 'post_retrying']);

/**
 * Background processing of uploaded documents: initializing → parsing → completed | parsing_fail.
 * Extraction runs in a worker (the Extractor), so the HTTP server stays responsive; each state
 * change is a durable write, and documents left unfinished by a restart are processed again.
 */
export class ProcessingQueue {
  private readonly queued = new Set<string>();
  private readonly order: string[] = [];
  private running = 0;
  private readonly listeners: ProcessedListener[] = [];
  private idleWaiters: Array<() => void> = [];
  private closed = false;
  /** Test hook (POST /_local/processing): queued documents wait, still "initializing", until released. */
  private held = false;
  private readonly controller = new AbortController();
  private extracted: Map<string, string> | undefined;

  constructor(
    private readonly store: KbStore,
    private readonly blobs: BlobStore,
    private readonly extractor: Extractor,
    private readonly logger: LocalLogger,
    private readonly concurrency = extractor.concurrency ?? 1,
  ) {}

  onProcessed(listener: ProcessedListener): void {
    this.listeners.push(listener);
  }

  enqueue(id: string): void {
    if (this.closed || this.queued.has(id)) return;
    this.queued.add(id);
    this.order.push(id);
    this.pump();
  }

  /** Queues every document a previous run left unfinished. */
  resumePending(): number {
    let n = 0;
    for (const node of this.store.all()) {
      if (node.nodeType === 'file' && UNFINISHED.has(node.processState ?? 'initializing')) {
        this.enqueue(node.id);
        n++;
      }
    }
    return n;
  }

  /** Holds (or releases) the queue: held, nothing new starts; what runs finishes. */
  hold(held: boolean): void {
    this.held = held;
    if (!held) this.pump();
  }

  /** Resolves when nothing is queued or running (tests, seeding). */
  idle(): Promise<void> {
    if (!this.running && !this.order.length) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    this.controller.abort();
    this.order.length = 0;
    this.queued.clear();
  }

  private pump(): void {
    while (!this.held && this.running < this.concurrency && this.order.length) {
      const id = this.order.shift()!;
      this.queued.delete(id);
      this.running++;
      void this.run(id)
        .catch((error) => this.logger.error(`processing ${id}: ${(error as Error)?.stack ?? error}`))
        .finally(() => {
          this.running--;
          this.pump();
          if (!this.running && !this.order.length) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            waiters.forEach((w) => w());
          }
        });
    }
  }

  private async run(id: string): Promise<void> {
    const start = this.store.get(id);
    if (!start || start.nodeType !== 'file' || !start.blob || this.closed) return;
    const blob = start.blob;
    await this.update(id, blob, { processState: 'parsing', ingestStartedAt: Date.now(), ingestEndedAt: undefined });
    let extraction: Extraction | undefined;
    let changes: Partial<NodeRecord>;
    // The text file is held from before it is stored until the record naming it is committed: a delete of
    // another document with the same text must not remove it in between.
    let release = (): void => undefined;
    try {
      const reused = this.reusableText(blob, id);
      if (reused) {
        release = this.blobs.hold(reused.textBlob!);
        changes = { processState: 'completed', textBlob: reused.textBlob, pageCount: reused.pageCount };
        extraction = JSON.parse((await this.blobs.read(reused.textBlob!)).toString('utf8')) as Extraction;
      } else {
        extraction = await this.extractor.extract(this.blobs.path(blob), start.name, { signal: this.controller.signal });
        const text = JSON.stringify(extraction);
        release = this.blobs.hold(createHash('sha256').update(text, 'utf8').digest('hex'));
        const stored = await this.blobs.putBuffer(text);
        changes = { processState: 'completed', textBlob: stored.hash, pageCount: extraction.pages.length };
      }
    } catch (error) {
      release();
      if (this.closed) return;
      const message =
        error instanceof ExtractionError ? error.message : `Processing failed unexpectedly: ${(error as Error)?.message ?? error}`;
      this.logger.warn(`processing ${start.name} (${id}) failed: ${message}`);
      extraction = undefined;
      changes = { processState: 'parsing_fail', processError: message };
    }
    try {
      const written = this.apply(id, blob, { ...changes, ingestEndedAt: Date.now() });
      if (!written) return;
      const { node, durable } = written;
      if (node.textBlob) this.extracted?.set(blob, node.id);
      for (const listener of this.listeners) {
        try {
          listener(node, extraction);
        } catch (error) {
          this.logger.error(`after processing ${id}: ${(error as Error)?.stack ?? error}`);
        }
      }
      await durable;
    } finally {
      release();
    }
  }

  /** Another document with the same content was already extracted: no need to do it twice. */
  private reusableText(blob: string, id: string): NodeRecord | undefined {
    if (!this.extracted) {
      // Built once from the store, then kept up to date as documents complete (no scan per document).
      this.extracted = new Map();
      for (const node of this.store.all())
        if (node.blob && node.textBlob && node.processState === 'completed') this.extracted.set(node.blob, node.id);
    }
    const otherId = this.extracted.get(blob);
    const other = otherId && otherId !== id ? this.store.get(otherId) : undefined;
    return other && other.blob === blob && other.textBlob && other.processState === 'completed' && this.blobs.has(other.textBlob)
      ? other
      : undefined;
  }

  /**
   * Applies changes unless the document was deleted or got new content meanwhile (a new job is queued then).
   * The read and the commit happen in one synchronous span, so a move, rename or overwrite that landed
   * during extraction is kept: the changes go onto the record as it is now, never onto the copy read earlier.
   */
  private async update(id: string, blob: string, changes: Partial<NodeRecord>): Promise<NodeRecord | undefined> {
    const written = this.apply(id, blob, changes);
    await written?.durable;
    return written?.node;
  }

  /** `update` without the wait: the new record is visible on return; `durable` resolves once it is on disk. */
  private apply(id: string, blob: string, changes: Partial<NodeRecord>): { node: NodeRecord; durable: Promise<void> } | undefined {
    const current = this.store.get(id);
    if (!current || current.blob !== blob || this.closed) return undefined;
    const next: NodeRecord = { ...current, ...changes };
    if (changes.processState !== 'parsing_fail') delete next.processError;
    return { node: next, durable: this.store.write([next]) };
  }
}
