// Safe construction of request paths and query strings.

/**
 * One path parameter as one encoded segment (endpoint.ts). `.` and `..` are encoded too (URL normalisation
 * would otherwise climb out of the resource), and an empty value is refused (it would address a different
 * operation).
 */
export function encodeSegment(value: string): string {
  if (value === '') throw new TypeError('A path parameter must not be empty');
  if (value === '.') return '%2E';
  if (value === '..') return '%2E%2E';
  return encodeURIComponent(value);
}

export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>;
export type QueryParams = Record<string, QueryValue>;

/** Builds `?a=1&b=x&b=y` (arrays repeat the key; null and undefined are left out). */
export function buildQuery(query: QueryParams | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Joins a base URL (which may carry a path prefix, as on-premises installs do) and a request path. */
export function joinUrl(base: string, requestPath: string): string {
  return trimSlashes(base) + (requestPath.startsWith('/') ? requestPath : `/${requestPath}`);
}

/** `base` without trailing slashes. */
export function trimSlashes(base: string): string {
  return base.endsWith('/') ? base.replace(/\/+$/, '') : base;
}
