import type { CallOptions, Requester } from '../requester';
import { endpoint } from '../endpoint';
import { deleteEmpty, getJson, getText, sendJson } from '../requestSpecs';
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
  constructor(private readonly client: Requester) {}

  status(options?: CallOptions): Promise<RareStatus> {
    return this.client.request(getJson(endpoint('rare.status'), rareStatusSchema), options);
  }

  build(params: RareBuildParams = {}, options?: CallOptions): Promise<TaskAck> {
    return this.client.request(sendJson(endpoint('rare.build'), params, taskAckSchema), options);
  }

  generate(params: RareGenerateParams = {}, options?: CallOptions): Promise<TaskAck> {
    return this.client.request(sendJson(endpoint('rare.generate'), params, taskAckSchema), options);
  }

  /** Asks the running job to stop between steps; cancelling twice is harmless, so it is retried. */
  cancel(options?: CallOptions): Promise<TaskAck> {
    return this.client.request(sendJson(endpoint('rare.cancel'), {}, taskAckSchema, { idempotent: true }), options);
  }

  async results(options?: CallOptions): Promise<RareResult[]> {
    return (await this.client.request(getJson(endpoint('rare.results'), rareResultsSchema), options)).results;
  }

  async deleteResult(resultId: string, options?: CallOptions): Promise<void> {
    await this.client.request(deleteEmpty(endpoint('rare.deleteResult', { result_id: resultId })), options);
  }

  /** The result CSV (text); `storagePath` is the result's result_file_url. */
  csv(storagePath?: string, options?: CallOptions): Promise<string> {
    return this.client.request(getText(endpoint('rare.csv'), { path: storagePath }), options);
  }
}

/** Bulk processing: a CSV of questions answered in the background, results kept as CSV files. */
export class BulkResource {
  constructor(private readonly client: Requester) {}

  /** Bulk processing is optional: a deployment without it answers OperationNotOfferedError (404/405). */
  run(file: FilePart | BufferPart, bulkType: BulkType = 'ga', options?: CallOptions): Promise<BulkRun> {
    return this.client.requestOptional(
      {
        ...endpoint('bulk.run'),
        query: { bulk_type: bulkType },
        multipart: { file },
        schema: bulkRunSchema,
      },
      options,
    );
  }

  results(page = 1, options?: CallOptions): Promise<BulkResultsPage> {
    return this.client.request(getJson(endpoint('bulk.results'), bulkResultsSchema, { page }), options);
  }

  download(fileUrl: string, options?: CallOptions): Promise<string> {
    return this.client.request(getText(endpoint('bulk.download'), { file_url: fileUrl }), options);
  }

  async deleteResult(resultId: string, options?: CallOptions): Promise<void> {
    await this.client.request(deleteEmpty(endpoint('bulk.deleteResult', { result_id: resultId })), options);
  }
}
