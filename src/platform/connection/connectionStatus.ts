import type { Region } from '../../core/regions';

/**
 * `idle`: Knowledge Desk has not been used in this window yet, so nothing was started or checked.
 * `restarting`: the local service's process stopped and is being started again.
 */
export type ConnectionState =
  'idle' | 'checking' | 'connected' | 'noKey' | 'unreachable' | 'restarting' | 'unauthorized' | 'misconfigured' | 'error';

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
