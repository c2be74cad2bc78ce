import type { Region } from '../../core/regions';

/**
 * `idle`: Knowledge Desk has not been used in this window yet, so nothing was started or checked.
 * `restarting`: the local service's process stopped and is being started again.
 * `starting`: a local project's service was still starting when a list's check of it ended (connectionStates.ts).
 */
export type ConnectionState =
  'idle' | 'checking' | 'starting' | 'connected' | 'noKey' | 'unreachable' | 'restarting' | 'unauthorized' | 'misconfigured' | 'error';

export interface ConnectionStatus {
  state: ConnectionState;
  region: Region;
  /** The connection the status is about (set by the ConnectionManager). */
  connection?: { id: string; name: string };
  baseUrl?: string;
  /** Why the state is not `connected`, for the tooltip and log. */
  detail?: string;
  /** The same for people (no operation names, the host and what to check): the views' error row shows it. */
  problem?: string;
}
