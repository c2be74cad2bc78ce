// Build and generate parameters (all optional; the service documents no defaults or bounds). The local
// service uses the same defaults and bounds as the extension's prompts (src/features/jobs/jobParams.ts), so
// what the user is offered is what the service accepts; anything outside them is a 400 naming the field.
import { z } from 'zod';

const int = (min: number, max: number, def: number) =>
  z
    .number()
    .int()
    .min(min)
    .max(max)
    .nullish()
    .transform((v) => v ?? def);
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v || undefined);

export const buildParamsSchema = z.object({
  /** en, ja, or empty for "decide from the documents". Only the generator's question language uses it. */
  language: text(20),
  default_model: text(200),
  /** Cosine of lexical-hash-v1 vectors above which two chunks are linked. */
  similarity_threshold: z
    .number()
    .min(0)
    .max(1)
    .nullish()
    .transform((v) => v ?? 0.3),
  /** Best-scoring candidates looked at for each chunk. */
  top_k_per_chunk: int(1, 100, 5),
  /** Links kept for each chunk (at most top_k_per_chunk of them can qualify). */
  max_similar_items: int(1, 50, 3),
  /** Chunks processed per event-loop turn = max_workers × CHUNKS_PER_WORKER (no threads; see rareBuild.ts). */
  max_workers: int(1, 16, 2),
  /** Folders (with their subfolders) or documents; empty = the whole knowledge base. */
  folder_ids: z
    .array(z.string().trim().min(1).max(200))
    .max(1000)
    .nullish()
    .transform((v) => [...new Set(v ?? [])]),
});
export type BuildParams = z.output<typeof buildParamsSchema>;

export const generateParamsSchema = z.object({
  num_samples: int(1, 1000, 10),
  /** The best-linked chunks samples are drawn from. */
  input_pool_size: int(1, 10000, 50),
  num_questions: int(1, 20, 3),
  /** Chunks per sample: a chunk and its most similar ones. */
  num_information: int(1, 20, 3),
  language: text(20),
  default_model: text(200),
  generation_model: text(200),
  /** Kept in rare_config; the local template generator uses no prompt. */
  rare_user_prompt: text(10_000),
});
export type GenerateParams = z.output<typeof generateParamsSchema>;
