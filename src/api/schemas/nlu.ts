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

/** The add-phrase response is undocumented (docs/api.md#add-phrase): anything JSON is accepted. */
export const addPhraseResponseSchema = z.unknown();
