import { z } from 'zod';
import type { ApiClient, CallOptions } from '../client';
import type { BufferPart, FilePart } from '../multipart';
import {
  bulkResultsSchema,
  bulkRunSchema,
  rareResultsSchema,
  rareStatusSchema,
  taskAckSchema,
  type BulkResultsPage,
  type BulkRun,
  type RareResult,
  type RareStatus,
  type TaskAck,
} from '../schemas/jobs';
import { path } from '../url';

export interface RareBuildParams {
  language?: string;
  default_model?: string;
  similarity_threshold?: number;
  top_k_per_chunk?: number;
  max_similar_items?: number;
  max_workers?: number;
  folder_ids?: string[];
}

export interface RareGenerateParams {
  num_samples?: number;
  input_pool_size?: number;
  num_questions?: number;
  num_information?: number;
  language?: string;
  default_model?: string;
  generation_model?: string;
  rare_user_prompt?: string;
}

export type BulkType = 'ga' | 'rag' | 'rag_agent_v2';

/** Answer-generation jobs (RARE): one build and one generate task per project. */
export class RareResource {
  constructor(private readonly client: ApiClient) {}

  status(options?: CallOptions): Promise<RareStatus> {
    return this.client.request(
      { operation: 'rare.status', method: 'GET', path: '/webapi/v2/rare/status', schema: rareStatusSchema },
      options,
    );
  }

  build(params: RareBuildParams = {}, options?: CallOptions): Promise<TaskAck> {
    return this.client.request(
      { operation: 'rare.build', method: 'POST', path: '/webapi/v2/rare/build', json: params, schema: taskAckSchema },
      options,
    );
  }

  generate(params: RareGenerateParams = {}, options?: CallOptions): Promise<TaskAck> {
    return this.client.request(
      { operation: 'rare.generate', method: 'POST', path: '/webapi/v2/rare/generate', json: params, schema: taskAckSchema },
      options,
    );
  }

  /** Asks the running job to stop between steps; cancelling twice is harmless, so it is retried. */
  cancel(options?: CallOptions): Promise<TaskAck> {
    return this.client.request(
      { operation: 'rare.cancel', method: 'POST', path: '/webapi/v2/rare/cancel', json: {}, schema: taskAckSchema, idempotent: true },
      options,
    );
  }

  async results(options?: CallOptions): Promise<RareResult[]> {
    return (
      await this.client.request(
        { operation: 'rare.results', method: 'GET', path: '/webapi/v2/rare/results', schema: rareResultsSchema },
        options,
      )
    ).results;
  }

  async deleteResult(resultId: string, options?: CallOptions): Promise<void> {
    await this.client.request(
      {
        operation: 'rare.deleteResult',
        method: 'DELETE',
        path: path`/webapi/v2/rare/results/${resultId}`,
        schema: z.unknown(),
        response: 'empty',
      },
      options,
    );
  }

  /** The result CSV (text); `storagePath` is the result's result_file_url. */
  csv(storagePath?: string, options?: CallOptions): Promise<string> {
    return this.client.request(
      {
        operation: 'rare.csv',
        method: 'GET',
        path: '/webapi/v2/rare/csv',
        query: { path: storagePath },
        schema: z.string(),
        response: 'text',
      },
      options,
    );
  }
}

/** Bulk processing: a CSV of questions answered in the background, results kept as CSV files. */
export class BulkResource {
  constructor(private readonly client: ApiClient) {}

  run(file: FilePart | BufferPart, bulkType: BulkType = 'ga', options?: CallOptions): Promise<BulkRun> {
    return this.client.request(
      {
        operation: 'bulk.run',
        method: 'POST',
        path: '/webapi/v2/bulk_processing/run',
        query: { bulk_type: bulkType },
        multipart: { file },
        schema: bulkRunSchema,
      },
      options,
    );
  }

  results(page = 1, options?: CallOptions): Promise<BulkResultsPage> {
    return this.client.request(
      { operation: 'bulk.results', method: 'GET', path: '/webapi/v2/bulk_processing/results', query: { page }, schema: bulkResultsSchema },
      options,
    );
  }

  download(fileUrl: string, options?: CallOptions): Promise<string> {
    return this.client.request(
      {
        operation: 'bulk.download',
        method: 'GET',
        path: '/webapi/v2/bulk_processing/download',
        query: { file_url: fileUrl },
        schema: z.string(),
        response: 'text',
      },
      options,
    );
  }

  async deleteResult(resultId: string, options?: CallOptions): Promise<void> {
    await this.client.request(
      {
        operation: 'bulk.deleteResult',
        method: 'DELETE',
        path: path`/webapi/v2/bulk_processing/results/${resultId}`,
        schema: z.unknown(),
        response: 'empty',
      },
      options,
    );
  }
}
