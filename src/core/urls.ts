// Which links the extension follows or shows as links: one rule for the citation viewer (host and page),
// the preview download and Draft.js links, so that a scheme allowed in one place is allowed in all.

export const WEB_SCHEMES: readonly string[] = ['https:', 'http:'];

/** `value` as a parsed URL when it is one and its scheme is one of `schemes` (`'https:'` style); else undefined. */
export function urlWithScheme(value: unknown, schemes: readonly string[]): string | undefined {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  if (!trimmed) return undefined;
  try {
    const url = new URL(trimmed);
    return schemes.includes(url.protocol) ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}
