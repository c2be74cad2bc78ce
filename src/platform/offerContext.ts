// Hides the commands of operations the current region's deployment does not offer: one context key per
// operation (ContextKeys.kbNo*), set from the client's offer memory (src/api/offers.ts) whenever the client
// changes (another region) or the memory learns a new 404/405.
import type { DeploymentOffers } from '../api/offers';
import { ContextKeys } from './commandIds';
import { setContext } from './contextKeys';
import { Disposable, toDisposable, type IDisposable } from './lifecycle';

/** Client operation → the context key that is true when the deployment does not offer it. */
export const OFFER_CONTEXT_KEYS = {
  'folders.create': ContextKeys.kbNoFolderCreate,
  'folders.rename': ContextKeys.kbNoFolderRename,
  'folders.delete': ContextKeys.kbNoFolderDelete,
  'kbNodes.update': ContextKeys.kbNoNodeUpdate,
  'kbNodes.toggle': ContextKeys.kbNoToggle,
  'kbNodes.download': ContextKeys.kbNoDownload,
} as const;

export interface OfferConnection {
  readonly isUsed: boolean;
  getClient(): Promise<{ offers: DeploymentOffers }>;
  onDidChangeClient(listener: () => void): IDisposable;
}

export class OfferContext extends Disposable {
  private subscription: IDisposable | undefined;
  private generation = 0;

  constructor(private readonly connection: OfferConnection) {
    super();
    this._register(connection.onDidChangeClient(() => void this.sync()));
    this._register(toDisposable(() => this.subscription?.dispose()));
    void this.sync();
  }

  /** Re-reads the current client's offers (also after a command learned one is missing). */
  async sync(): Promise<void> {
    const generation = ++this.generation;
    if (!this.connection.isUsed) return this.apply(undefined);
    let offers: DeploymentOffers | undefined;
    try {
      offers = (await this.connection.getClient()).offers;
    } catch {
      offers = undefined; // not connected: nothing known, nothing hidden
    }
    if (generation !== this.generation) return;
    this.subscription?.dispose();
    this.subscription = offers?.onDidChange(() => this.apply(offers));
    this.apply(offers);
  }

  private apply(offers: DeploymentOffers | undefined): void {
    for (const [operation, key] of Object.entries(OFFER_CONTEXT_KEYS)) setContext(key, offers ? !offers.isOffered(operation) : false);
  }
}
