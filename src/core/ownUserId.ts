// The OWN-USER-ID header's encoding, shared by the client (which sends it) and the local service (which reads it).

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
