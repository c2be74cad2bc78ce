import { rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { Reply, type Handler } from '../http/context';

// Test tool of the local service (admin, needs the key): answers with whatever status, headers,
// body or timed chunks the request asks for, so the client's handling of every error shape, slow
// answers and broken streams is tested over real HTTP. A multipart request is described back.

const echoSchema = z
  .object({
    status: z.number().int().min(100).max(599).default(200),
    headers: z.record(z.string()).default({}),
    /** JSON value to answer with. */
    body: z.unknown().optional(),
    /** Raw text to answer with (wins over body). */
    raw: z.string().optional(),
    /** Text pieces written one by one (a stream); `\u0000` is never sent. */
    chunks: z.array(z.string()).optional(),
    /** Base64 pieces (to cut inside multi-byte characters). */
    chunks64: z.array(z.string()).optional(),
    chunkDelayMs: z.number().int().min(0).max(10_000).default(0),
    /** Wait before answering. */
    delayMs: z.number().int().min(0).max(60_000).default(0),
    /** Destroy the socket after the chunks instead of ending the response. */
    cut: z.boolean().default(false),
    contentType: z.string().default('application/json; charset=utf-8'),
  })
  .strict();

export interface EchoStats {
  /** Streams the client closed before the last chunk was written. */
  closedEarly: number;
}

export function echoHandler(stats: EchoStats): Handler {
  return async (ctx) => {
    if (/^multipart\//i.test(ctx.req.headers['content-type'] ?? '')) {
      const { fields, files } = await ctx.multipart({ maxFiles: 10 });
      await Promise.all(files.map((f) => rm(f.tempPath, { force: true })));
      return {
        fields: Object.fromEntries(fields),
        files: files.map(({ field, fileName, mimeType, size, sha256 }) => ({ field, fileName, mimeType, size, sha256 })),
      };
    }
    const o = await ctx.parse(echoSchema);
    if (o.delayMs) await delay(o.delayMs, undefined, { signal: ctx.signal }).catch(() => undefined);
    if (ctx.signal.aborted) return Reply.handled();
    const pieces = o.chunks?.map((c) => Buffer.from(c, 'utf8')) ?? o.chunks64?.map((c) => Buffer.from(c, 'base64'));
    if (!pieces) {
      const text = o.raw ?? (o.body === undefined ? '' : JSON.stringify(o.body));
      ctx.res.writeHead(o.status, { 'content-type': o.contentType, ...o.headers });
      ctx.res.end(text);
      return Reply.handled();
    }
    ctx.res.writeHead(o.status, { 'content-type': o.contentType, ...o.headers });
    ctx.res.flushHeaders();
    for (const piece of pieces) {
      if (ctx.signal.aborted) {
        stats.closedEarly++;
        return Reply.handled();
      }
      ctx.res.write(piece);
      if (o.chunkDelayMs) await delay(o.chunkDelayMs);
    }
    if (o.cut) ctx.res.destroy();
    else ctx.res.end();
    return Reply.handled();
  };
}
