import { z } from 'zod';

export const embeddingStatusSchema = z.preprocess(
  (body) => (body as { result?: unknown })?.result ?? body,
  z.object({ total: z.number().int(), pending: z.number().int(), ready: z.number().int() }).passthrough(),
);
export type EmbeddingStatus = z.infer<typeof embeddingStatusSchema>;
