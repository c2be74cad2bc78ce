import { z } from 'zod';

export const entitySchema = z
  .object({ startIndex: z.number().int(), endIndex: z.number().int(), tag: z.string(), token: z.string() })
  .passthrough();
export type Entity = z.infer<typeof entitySchema>;

export const inferResponseSchema = z.preprocess(
  (body) => (body as { result?: unknown })?.result ?? body,
  z
    .object({
      inputText: z
        .string()
        .nullish()
        .transform((v) => v ?? ''),
      entities: z
        .array(entitySchema)
        .nullish()
        .transform((v) => v ?? []),
    })
    .passthrough(),
);
export type InferResponse = z.infer<typeof inferResponseSchema>;

/** The add-phrase response is undocumented (docs/api.md#add-phrase): anything JSON is accepted. */
export const addPhraseResponseSchema = z.unknown();
