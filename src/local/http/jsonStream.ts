// JSON answers written in bounded pieces with backpressure (docs/local-service.md#timeouts-and-slow-readers).
// A client that asks for a large answer (a document's /text) and never reads it must not make the service hold
// a whole serialised copy per connection: the text is produced piece by piece, and the next piece is only made
// once the socket has taken the previous one. Small answers are still sent whole, with a Content-Length.
import type { ServerResponse } from 'node:http';

/** Characters per piece handed to the socket. */
export const JSON_CHUNK_CHARS = 64 * 1024;

/**
 * The text `JSON.stringify(value)` gives, in pieces of at least `chunkChars` characters (the last one, the return
 * value, may be shorter). Objects and arrays are walked and long strings sliced, so no piece is much longer than
 * `chunkChars` whatever the shape. Follows JSON.stringify: toJSON, undefined/function/symbol values left out of
 * objects and written null in arrays, non-finite numbers null; a cycle or a BigInt throws a TypeError.
 */
export function* jsonChunks(value: unknown, chunkChars = JSON_CHUNK_CHARS): Generator<string, string, undefined> {
  const out = { text: '' };
  const seen = new Set<object>();
  function* walk(v: unknown, key: string): Generator<string, void, undefined> {
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      v = (v as { toJSON(key: string): unknown }).toJSON(key);
    }
    if (typeof v === 'string' && v.length > chunkChars) {
      yield* longString(v);
    } else if (v === null || typeof v !== 'object' || v instanceof Number || v instanceof String || v instanceof Boolean) {
      out.text += JSON.stringify(v) ?? 'null';
    } else {
      if (seen.has(v)) throw new TypeError('Converting circular structure to JSON');
      seen.add(v);
      if (Array.isArray(v)) {
        out.text += '[';
        for (let i = 0; i < v.length; i++) {
          if (i) out.text += ',';
          const item: unknown = v[i];
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') out.text += 'null';
          else yield* walk(item, String(i));
          if (out.text.length >= chunkChars) yield take();
        }
        out.text += ']';
      } else {
        out.text += '{';
        let first = true;
        for (const k of Object.keys(v)) {
          const item = (v as Record<string, unknown>)[k];
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
          out.text += `${first ? '' : ','}${JSON.stringify(k)}:`;
          first = false;
          yield* walk(item, k);
          if (out.text.length >= chunkChars) yield take();
        }
        out.text += '}';
      }
      seen.delete(v);
    }
  }
  function* longString(s: string): Generator<string, void, undefined> {
    out.text += '"';
    for (let at = 0; at < s.length;) {
      let end = Math.min(s.length, at + chunkChars);
      // Never between the two halves of a surrogate pair: each half alone would be escaped as \udxxx.
      const last = s.charCodeAt(end - 1);
      if (end < s.length && last >= 0xd800 && last <= 0xdbff) end += end - 1 > at ? -1 : 1;
      out.text += JSON.stringify(s.slice(at, end)).slice(1, -1);
      at = end;
      if (out.text.length >= chunkChars) yield take();
    }
    out.text += '"';
  }
  const take = (): string => {
    const piece = out.text;
    out.text = '';
    return piece;
  };
  yield* walk(value, '');
  return take();
}

/**
 * Answers `status` with `value` as JSON. An answer shorter than one piece is sent whole with a Content-Length;
 * a longer one is sent chunked, each piece written only after the socket drained the one before. Resolves when
 * the answer is written or the connection closed.
 */
export async function writeJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): Promise<void> {
  const pieces = jsonChunks(value);
  const first = pieces.next();
  const type = { 'content-type': 'application/json; charset=utf-8' };
  if (first.done) {
    res.writeHead(status, { ...type, 'content-length': String(Buffer.byteLength(first.value)), ...headers });
    res.end(first.value);
    return;
  }
  res.writeHead(status, { ...type, ...headers });
  let next: IteratorResult<string, string> = first;
  try {
    while (!next.done) {
      if (!res.write(next.value) && !(await drained(res))) return;
      next = pieces.next();
    }
  } catch (error) {
    // Part of the answer is already sent: the client sees a cut connection, never a truncated JSON that ends well.
    res.destroy();
    throw error;
  }
  res.end(next.value);
}

/** True once `res` can take more, false if the connection closed first. */
export function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}
