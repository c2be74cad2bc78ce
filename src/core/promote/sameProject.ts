// Copying a project onto itself would compare everything as "same" and could only do harm with a delete:
// two connections that reach the same address with the same key are one project (the key names the project).

export interface ProjectAddress {
  baseUrl: string;
  apiKey: string;
}

/** Scheme and host lower-cased, default ports and trailing slashes dropped. */
export function normalizeBaseUrl(url: string): string {
  try {
    const u = new URL(url.trim());
    const port =
      u.port && !((u.protocol === 'https:' && u.port === '443') || (u.protocol === 'http:' && u.port === '80')) ? `:${u.port}` : '';
    const host = u.hostname.toLowerCase() === 'localhost' ? '127.0.0.1' : u.hostname.toLowerCase();
    return `${u.protocol}//${host}${port}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url.trim().replace(/\/+$/, '').toLowerCase();
  }
}

export function sameProject(a: ProjectAddress, b: ProjectAddress): boolean {
  return a.apiKey.trim() === b.apiKey.trim() && normalizeBaseUrl(a.baseUrl) === normalizeBaseUrl(b.baseUrl);
}
