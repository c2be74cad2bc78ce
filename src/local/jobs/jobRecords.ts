// Records of the answer-generation (RARE) and bulk-processing jobs, as stored in the journal and as sent
// (docs/api.md#answer-generation-jobs-rare: states idle|queued|running|completed|failed|cancelled, job_type
// build|generate; docs/api.md#bulk-processing: bulk list items). Stored records carry a few internal fields (blob hashes) that the API
// shapes below leave out, so the responses are exactly the documented ones.

export type JobState = 'idle' | 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export type RareJobType = 'build' | 'generate';
export type BulkType = 'ga' | 'rag' | 'rag_agent_v2';

export const ACTIVE: ReadonlySet<JobState> = new Set(['queued', 'running']);

/** What a job that was queued or running when the service stopped becomes after the restart. */
export const INTERRUPTED_MESSAGE = 'interrupted: the local service restarted before the job finished';

/** The label of the transparent local question generator (rare_config, generate_stats). */
export const LOCAL_GENERATOR = 'local-template';

// Keys in the RARE collection (store/collections.ts).
export const RARE_STATUS_KEY = 'status';
export const RARE_BUILD_KEY = 'build';

/** Free-form live progress, read by the extension's summarizeProgress (percent, done/total, step). */
export interface JobProgress {
  done: number;
  total: number;
  percent: number;
  step: string;
}

/** The RARE status record, exactly as GET /webapi/v2/rare/status sends it. */
export interface RareStatus {
  build_status: JobState;
  job_status: JobState;
  job_type: RareJobType | null;
  build_run_id: string | null;
  error_message: string | null;
  build_progress: Partial<JobProgress>;
  generate_progress: Partial<JobProgress>;
  build_stats: Record<string, unknown>;
  generate_stats: Record<string, unknown>;
  folder_ids: string[];
  default_model: string | null;
  generation_model: string | null;
}

export function idleStatus(): RareStatus {
  return {
    build_status: 'idle',
    job_status: 'idle',
    job_type: null,
    build_run_id: null,
    error_message: null,
    build_progress: {},
    generate_progress: {},
    build_stats: {},
    generate_stats: {},
    folder_ids: [],
    default_model: null,
    generation_model: null,
  };
}

/** The completed build generate reads: its data (chunks and links) is a JSON blob. */
export interface StoredBuild {
  runId: string;
  blob: string;
  chunks: number;
  createdAt: string;
}

export interface StoredRareResult {
  id: string;
  created_at: string;
  n_samples: number;
  rare_config: string;
  result_file_url: string;
  blob: string;
}

export function rareResultBody(r: StoredRareResult): Record<string, unknown> {
  return { id: r.id, created_at: r.created_at, n_samples: r.n_samples, rare_config: r.rare_config, result_file_url: r.result_file_url };
}

export interface StoredBulkRun {
  id: string;
  created_at: string;
  bulk_type: BulkType;
  status: JobState;
  total: number;
  processed: number;
  /** Set once the result file exists (completed runs). */
  file_url: string | null;
  error_message?: string;
  blob?: string;
  /** The uploaded file's name, for the download's file name. */
  file_name: string;
}

export function bulkRunBody(r: StoredBulkRun): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: r.id,
    created_at: r.created_at,
    bulk_type: r.bulk_type,
    status: r.status,
    total: r.total,
    processed: r.processed,
    file_url: r.file_url,
  };
  if (r.error_message) body.error_message = r.error_message;
  return body;
}

export function progress(done: number, total: number, step: string): JobProgress {
  return { done, total, percent: total > 0 ? Math.round((done / total) * 1000) / 10 : 0, step };
}

/** Newest first: by created_at, ties in reverse insertion order (a Map keeps insertion order). */
export function newestFirst<T extends { created_at: string }>(records: Iterable<T>): T[] {
  return [...records].reverse().sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
}
