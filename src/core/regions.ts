// Deployments of the service (docs/api.md#deployments).

export const REGIONS = ['local', 'us', 'ja', 'custom'] as const;
export type Region = (typeof REGIONS)[number];

export interface RegionInfo {
  label: string;
  description: string;
  baseUrl?: string;
  nluUrl?: string;
}

export const DEFAULT_NLU_URL = 'https://nlu-api.allganize.ai';

export const REGION_INFO: Record<Region, RegionInfo> = {
  local: { label: 'Local', description: 'Embedded local service on this machine (offline)' },
  us: { label: 'US', description: 'backend.alli.ai', baseUrl: 'https://backend.alli.ai', nluUrl: DEFAULT_NLU_URL },
  ja: { label: 'JA', description: 'backend-ja.alli.ai', baseUrl: 'https://backend-ja.alli.ai', nluUrl: DEFAULT_NLU_URL },
  custom: { label: 'Custom', description: 'On-premises installation (base URL from settings)' },
};

export function isRegion(value: unknown): value is Region {
  return typeof value === 'string' && (REGIONS as readonly string[]).includes(value);
}

export interface Endpoints {
  baseUrl: string;
  nluUrl: string;
}

/**
 * Checks a user-supplied service URL. HTTPS is required, except on loopback (a standalone local
 * service or a tunnel), so a key is never sent in clear text over a network.
 */
export function checkServiceUrl(value: string | undefined): { url?: string; error?: string } {
  const text = value?.trim();
  if (!text) return { error: 'is not set' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: `is not a URL: ${text}` };
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    return { error: `must use https:// (http:// only on this machine): ${text}` };
  }
  if (url.username || url.password || url.search || url.hash)
    return { error: `must not carry credentials, a query or a fragment: ${text}` };
  return { url: url.toString().replace(/\/+$/, '') };
}

/** Endpoints of a remote region; Local is resolved by the extension once its service runs. */
export function remoteEndpoints(
  region: Exclude<Region, 'local'>,
  custom: { baseUrl?: string; nluUrl?: string },
): Endpoints | { error: string } {
  if (region !== 'custom') return { baseUrl: REGION_INFO[region].baseUrl!, nluUrl: REGION_INFO[region].nluUrl! };
  const base = checkServiceUrl(custom.baseUrl);
  if (base.error) return { error: `knowledgeDesk.custom.baseUrl ${base.error}` };
  const nlu = custom.nluUrl?.trim() ? checkServiceUrl(custom.nluUrl) : { url: base.url };
  if (nlu.error) return { error: `knowledgeDesk.custom.nluUrl ${nlu.error}` };
  return { baseUrl: base.url!, nluUrl: nlu.url! };
}
