// Which operations a deployment does not offer, remembered per deployment (one base URL = one region)
// for the life of the extension host: a client rebuilt for a new key or timeout keeps what was learned.
// The client records an operation when a call answers OperationNotOfferedError (404/405 from the route);
// the UI asks `isOffered` to hide the command and listens to `onDidChange` (docs/api.md#operations-a-deployment-may-not-offer).

import { readErrorBody } from './errorBody';
import { MethodNotAllowedError, NotFoundError } from './errors';

/**
 * Whether a failure means "this deployment has no such route": a 405, or a 404 whose body does not name one of
 * the ids the request was about (then it is that id that is unknown). The body's own message decides, not
 * ours, which names the operation.
 */
export function isMissingRoute(error: unknown, ids: readonly string[]): boolean {
  if (error instanceof MethodNotAllowedError) return true;
  if (!(error instanceof NotFoundError)) return false;
  const said = `${readErrorBody(error.body).message ?? ''} ${typeof error.body === 'string' ? error.body : ''}`;
  return !ids.some((id) => id && said.includes(id));
}

type Listener = (deployment: string, operation: string) => void;

export class OfferMemory {
  private readonly missing = new Map<string, Set<string>>();
  private readonly listeners = new Set<Listener>();

  /** False once `operation` answered "not offered" on `deployment`. */
  isOffered(deployment: string, operation: string): boolean {
    return !this.missing.get(key(deployment))?.has(operation);
  }

  notOffered(deployment: string): string[] {
    return [...(this.missing.get(key(deployment)) ?? [])].sort();
  }

  remember(deployment: string, operation: string): void {
    const k = key(deployment);
    let set = this.missing.get(k);
    if (!set) this.missing.set(k, (set = new Set()));
    if (set.has(operation)) return;
    set.add(operation);
    for (const listener of [...this.listeners]) listener(k, operation);
  }

  /** Forgets a deployment (e.g. the user asked to check again). */
  forget(deployment: string): void {
    this.missing.delete(key(deployment));
  }

  onDidChange(listener: Listener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }
}

function key(deployment: string): string {
  return deployment.replace(/\/+$/, '').toLowerCase();
}

/** The memory shared by every client of this process unless a client is given its own. */
export const sharedOfferMemory = new OfferMemory();

/** What a client exposes: the memory bound to its own deployment. */
export interface DeploymentOffers {
  isOffered(operation: string): boolean;
  notOffered(): string[];
  onDidChange(listener: (operation: string) => void): { dispose(): void };
}

export function offersFor(memory: OfferMemory, deployment: string): DeploymentOffers {
  return {
    isOffered: (operation) => memory.isOffered(deployment, operation),
    notOffered: () => memory.notOffered(deployment),
    onDidChange: (listener) => memory.onDidChange((d, op) => d === key(deployment) && listener(op)),
  };
}

/** How an optional operation tells "the route is missing" from "the thing is gone" on a 404. */
export interface OptionalSpec {
  /** Ids the request names: a 404 whose message names one of them means that id is unknown, not that the route is missing. */
  ids?: readonly string[];
}
