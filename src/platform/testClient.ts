// The chat's client in tests that slow the local service's answer stream down (TestProbe.streamDelayMs): the test
// build only (testProbe.ts require()s this file behind `globalThis.__KD_TEST__`), so no other build loads it.
import type { Dispatcher } from 'undici';
import { ApiClient } from '../api/client';
import { undici } from '../api/undici';

/** The local service's test header (honoured only when it runs with `testHooks`): ms between stream lines. */
const STREAM_DELAY_HEADER = 'X-Local-Stream-Delay-Ms';

/** `client` with its requests carrying X-Local-Stream-Delay-Ms: `ms` between the lines of an answer stream. */
export function withStreamDelay(client: ApiClient, ms: number): ApiClient {
  return withExtraHeaders(client, { [STREAM_DELAY_HEADER]: String(ms) });
}

function withExtraHeaders(client: ApiClient, extra: Record<string, string>): ApiClient {
  const base: Dispatcher = client.config.dispatcher ?? undici().getGlobalDispatcher();
  const dispatcher = base.compose(
    (dispatch) => (opts, handler) => dispatch({ ...opts, headers: addHeaders(opts.headers, extra) }, handler),
  );
  return new ApiClient({ ...client.config, dispatcher });
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
