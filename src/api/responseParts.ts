// Small helpers of ApiClient over undici responses (kept apart so client.ts stays one screenful of logic).
import type { Dispatcher } from 'undici';

const ERROR_BODY_LIMIT = 64 * 1024;

/** An error body, at most 64 KiB of it (the rest is read and dropped so the connection can be reused). */
export async function readLimited(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < ERROR_BODY_LIMIT) chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, ERROR_BODY_LIMIT);
}
