import type { Dispatcher } from 'undici';
import { undici } from './undici';

export interface ProxySettings {
  /** VS Code's `http.proxy`; wins over the environment. */
  proxy?: string;
  /** VS Code's `http.proxyStrictSSL` (default true): verify TLS certificates of the service and the proxy. */
  strictSSL?: boolean;
  /** VS Code's `http.noProxy` entries, added to NO_PROXY. */
  noProxy?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

// The local service is on loopback: it must never be sent through a corporate proxy.
const ALWAYS_DIRECT = ['localhost', '127.0.0.1', '::1'];

export interface DispatcherChoice {
  dispatcher: Dispatcher;
  /** For the log: which proxy is used, without credentials. */
  description: string;
}

/**
 * One keep-alive dispatcher for all calls. A bundled undici has its own connection pool and does
 * not go through VS Code's proxy support, so the proxy settings are applied here.
 */
export function createDispatcher(settings: ProxySettings = {}): DispatcherChoice {
  const env = settings.env ?? process.env;
  const strict = settings.strictSSL ?? true;
  const tls = { rejectUnauthorized: strict };
  const proxy = settings.proxy?.trim() || env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy || '';
  const common = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, connect: tls };
  if (!proxy) return { dispatcher: new (undici().Agent)(common), description: 'direct' };

  const noProxy = [...ALWAYS_DIRECT, ...(env.NO_PROXY ?? env.no_proxy ?? '').split(','), ...(settings.noProxy ?? [])]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(',');
  const dispatcher = new (undici().EnvHttpProxyAgent)({
    ...common,
    httpProxy: proxy,
    httpsProxy: proxy,
    noProxy,
    requestTls: tls,
    proxyTls: tls,
  });
  return { dispatcher, description: `proxy ${redactUrl(proxy)} (no proxy for ${noProxy})` };
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = u.username ? '***' : '';
      u.password = u.password ? '***' : '';
    }
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(invalid URL)';
  }
}
