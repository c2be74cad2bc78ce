// Identity headers sent with every call (docs/api.md#identity-headers).
import { encodeOwnUserId } from '../core/ownUserId';

export interface Identity {
  agentEmail?: string;
  userEmail?: string;
  ownUserId?: string;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** OWN-USER-ID is sent: the service keeps threads for this user (docs/api.md#identity-headers). */
export function sendsOwnUserId(identity: Identity | undefined): boolean {
  return !!identity?.ownUserId?.trim();
}

export function identityHeaders(identity: Identity | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  const agent = identity?.agentEmail?.trim();
  const user = identity?.userEmail?.trim();
  const own = identity?.ownUserId?.trim();
  // Emails are checked for ASCII when set (Set Identity); a header with other bytes would throw in undici.
  if (agent && PRINTABLE_ASCII.test(agent)) headers['AGENT-EMAIL'] = agent;
  if (user && PRINTABLE_ASCII.test(user)) headers['USER-EMAIL'] = user;
  if (own) headers['OWN-USER-ID'] = encodeOwnUserId(own);
  return headers;
}
