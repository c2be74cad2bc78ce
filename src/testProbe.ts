// Everything integration tests observe in the running extension, in one object: the test facade (src/testApi.ts,
// the test build only) records the product's events here (onDidRender, onDidShowError, onDidSendRequest …); the
// product knows nothing of it. Every buffer keeps only the last PROBE_KEEP values. No `vscode` here: unit-tested.
import type { ErrorShown } from './platform/errorReport';

/** How many values each buffer keeps. */
export const PROBE_KEEP = 50;

/** The last `limit` values pushed, and how many were ever pushed (a mark to ask for what came after it). */
export class Ring<T> {
  private items: T[] = [];
  private pushed = 0;

  constructor(private readonly limit = PROBE_KEEP) {}

  push(value: T): void {
    this.items.push(value);
    if (this.items.length > this.limit) this.items.shift();
    this.pushed++;
  }

  /** Values ever pushed (kept or not): read it before an action, pass it to since() after. */
  get total(): number {
    return this.pushed;
  }

  get last(): T | undefined {
    return this.items.at(-1);
  }

  /** The kept values pushed after `mark` (a `total` read earlier), oldest first. */
  since(mark: number): T[] {
    return this.items.slice(Math.max(0, this.items.length - Math.max(0, this.pushed - mark)));
  }

  all(): T[] {
    return [...this.items];
  }

  /** Forgets the kept values (the count goes on, so earlier marks stay valid). */
  clear(): void {
    this.items = [];
  }
}

/**
 * The buffers an owner (a panel, a feature) records into: one table, so what tests can observe is listed in one
 * place. Values are typed where they are read (`probe.last<RenderedReport>(panel, ProbeKeys.rendered)`): the types
 * belong to the features, which the platform does not import.
 */
export const ProbeKeys = {
  /** A webview page's CSP violations and uncaught errors ("kind: message"); tests assert there are none. */
  pageProblems: 'pageProblems',
  /** What a webview page reported it drew (its `rendered` notification); cleared when a viewer is retargeted. */
  rendered: 'rendered',
  /**
   * Requests a panel sent to the service (chat: GenerativeAnswerRequest; retrieval: { column, request, items };
   * Q&A editor: SentRequest).
   */
  requests: 'requests',
  /** Citations the chat opened (CitationOpened). */
  citationsOpened: 'citationsOpened',
  /** Upload batches the knowledge base ran (BatchResult). */
  uploadBatches: 'uploadBatches',
  /** What a panel loaded from the service and showed (analytics: AnalyticsData). */
  loaded: 'loaded',
  /** Phrases Teach Phrase sent, with the service's answer (TaughtPhrase). */
  taughtPhrases: 'taughtPhrases',
  /** Entity recognition's notices about a text longer than one request (string; undefined when a run starts). */
  notices: 'notices',
} as const;
export type ProbeKey = (typeof ProbeKeys)[keyof typeof ProbeKeys];

export class TestProbe {
  /** Errors shown to the user by the command wrapper and the panels. */
  readonly errorsShown = new Ring<ErrorShown>();
  private readonly owners = new WeakMap<object, Map<string, Ring<unknown>>>();

  /** The buffer `key` of `owner`, created on first use. */
  ring<T>(owner: object, key: ProbeKey): Ring<T> {
    let rings = this.owners.get(owner);
    if (!rings) this.owners.set(owner, (rings = new Map()));
    let ring = rings.get(key);
    if (!ring) rings.set(key, (ring = new Ring<unknown>()));
    return ring as Ring<T>;
  }

  record(owner: object, key: ProbeKey, value: unknown): void {
    this.ring(owner, key).push(value);
  }

  /** The last value recorded under `key` for `owner` (undefined if none, or cleared since). */
  last<T>(owner: object, key: ProbeKey): T | undefined {
    return this.owners.get(owner)?.get(key)?.last as T | undefined;
  }

  /** Everything kept under `key` for `owner`, oldest first. */
  all<T>(owner: object, key: ProbeKey): T[] {
    return (this.owners.get(owner)?.get(key)?.all() ?? []) as T[];
  }
}
