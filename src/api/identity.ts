// Identity headers sent with every call (docs/api.md#identity-headers).

export interface Identity {
  agentEmail?: string;
  userEmail?: string;
  ownUserId?: string;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** OWN-USER-ID must be ASCII; anything else goes as `base64:` + base64 of its UTF-8 bytes (public rule). */
export function encodeOwnUserId(id: string): string {
  return PRINTABLE_ASCII.test(id) ? id : `base64:${Buffer.from(id, 'utf8').toString('base64')}`;
}

/** The inverse, used by the local service. Invalid base64 is returned as given. */
export function decodeOwnUserId(header: string): string {
  if (!header.startsWith('base64:')) return header;
  const payload = header.slice('base64:'.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) return header;
  return Buffer.from(payload, 'base64').toString('utf8');
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
