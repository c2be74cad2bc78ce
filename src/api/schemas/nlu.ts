import { z } from 'zod';
import { listOf, textOrEmpty, unwrapResult } from './common';

export const entitySchema = z
  .object({ startIndex: z.number().int(), endIndex: z.number().int(), tag: z.string(), token: z.string() })
  .passthrough();
export type Entity = z.infer<typeof entitySchema>;

export const inferResponseSchema = unwrapResult(
  z
    .object({
      inputText: textOrEmpty,
      entities: listOf(entitySchema),
    })
    .passthrough(),
);
export type InferResponse = z.infer<typeof inferResponseSchema>;

/**
 * `{"success": true}` (public). Tolerant: any JSON object is accepted (older deployments and the local service's
 * old-shape answer say `result: "success"`), but `success: false` is a failure the caller must see.
 */
export const addPhraseResponseSchema = z.preprocess(
  (body) => (body === undefined || body === null ? {} : body),
  z
    .object({ success: z.boolean().optional() })
    .passthrough()
    .refine((b) => b.success !== false, { message: 'the service answered success: false', path: ['success'] }),
);
export type AddPhraseResponse = z.infer<typeof addPhraseResponseSchema>;
