import { z } from 'zod';
import { bareArrayAs, listOf, nullish, textOrEmpty, unwrapResult } from './common';

/** build_status / job_status values (docs/api.md#answer-generation-jobs-rare); other strings from a real service are kept as they are. */
export const JOB_STATES = ['idle', 'queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export { ACTIVE_JOB_STATES } from '../values';

const looseObject = z
  .record(z.unknown())
  .nullish()
  .transform((v) => v ?? {});

export const rareStatusSchema = unwrapResult(
  z
    .object({
      build_status: nullish(z.string()),
      job_status: nullish(z.string()),
      job_type: nullish(z.string()),
      build_run_id: nullish(z.string()),
      error_message: nullish(z.string()),
      build_progress: looseObject,
      generate_progress: looseObject,
      build_stats: looseObject,
      generate_stats: looseObject,
      folder_ids: listOf(z.string()),
      default_model: nullish(z.string()),
      generation_model: nullish(z.string()),
    })
    .passthrough(),
);
export type RareStatus = z.infer<typeof rareStatusSchema>;

export const taskAckSchema = z
  .object({
    message: textOrEmpty,
    task_id: nullish(z.string()),
  })
  .passthrough();
export type TaskAck = z.infer<typeof taskAckSchema>;

export const rareResultSchema = z
  .object({
    id: z.string(),
    created_at: nullish(z.string()),
    n_samples: nullish(z.number().int()),
    rare_config: nullish(z.string()),
    result_file_url: nullish(z.string()),
  })
  .passthrough();
export type RareResult = z.infer<typeof rareResultSchema>;

/** Either a bare array or `{ result: { results } }`. */
export const rareResultsSchema = bareArrayAs('results', unwrapResult(z.object({ results: listOf(rareResultSchema) }).passthrough()));

/** Bulk processing bodies are undocumented; docs/api.md#bulk-processing fixes the local ones, read tolerantly. */
export const bulkRunSchema = z.object({ id: z.string(), status: nullish(z.string()) }).passthrough();
export type BulkRun = z.infer<typeof bulkRunSchema>;

export const bulkResultSchema = z
  .object({
    id: z.string(),
    created_at: nullish(z.string()),
    bulk_type: nullish(z.string()),
    status: nullish(z.string()),
    total: nullish(z.number().int()),
    processed: nullish(z.number().int()),
    file_url: nullish(z.string()),
    error_message: nullish(z.string()),
  })
  .passthrough();
export type BulkResult = z.infer<typeof bulkResultSchema>;

export const bulkResultsSchema = bareArrayAs(
  'results',
  z
    .object({ results: listOf(bulkResultSchema), page: z.number().int().optional(), total_pages: z.number().int().optional() })
    .passthrough(),
);
export type BulkResultsPage = z.infer<typeof bulkResultsSchema>;
