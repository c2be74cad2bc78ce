// Test support only: a client that adds request headers (the local service's
// X-Local-Stream-Delay-Ms slows a stream so a test can press Stop in the middle of it).
import type { Dispatcher } from 'undici';
import { undici } from '../../../api/undici';
import type { ApiClient } from '../../../api/client';

export const STREAM_DELAY_HEADER = 'X-Local-Stream-Delay-Ms';

export function withExtraHeaders(client: ApiClient, extra: Record<string, string>): ApiClient {
  const base: Dispatcher = client.config.dispatcher ?? undici().getGlobalDispatcher();
  const dispatcher = base.compose(
    (dispatch) => (opts, handler) => dispatch({ ...opts, headers: addHeaders(opts.headers, extra) }, handler),
  );
  // The client's own class: importing ApiClient here would load it (and its schemas) at activation.
  return new (client.constructor as typeof ApiClient)({ ...client.config, dispatcher });
}

function addHeaders(
  headers: Dispatcher.DispatchOptions['headers'],
  extra: Record<string, string>,
): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) out[String(headers[i])] = String(headers[i + 1]);
  } else if (headers && typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [k, v] of headers as Iterable<[string, string | string[] | undefined]>) out[k] = v;
  } else if (headers) {
    Object.assign(out, headers);
  }
  return { ...out, ...extra };
}
