// The background jobs of the local service (RARE and bulk processing), opened once at start: jobs the last
// run left unfinished are marked failed before the server answers any request.
import type { AnswerService } from '../answers/answerService';
import type { KbStore } from '../kb/kbStore';
import type { LocalLogger } from '../logger';
import type { Retrieval } from '../search/retrieval';
import type { BlobStore } from '../store/blobs';
import type { Journal } from '../store/journal';
import { BulkJobs } from './bulkJobs';
import { RareJobs } from './rareJobs';

export interface JobServiceDeps {
  journal: Journal;
  blobs: BlobStore;
  kb: KbStore;
  retrieval: Retrieval;
  answers: AnswerService;
  logger: LocalLogger;
  /** Pause added to every job step (tests; default 0). */
  stepDelayMs?: number;
}

export interface JobServices {
  rare: RareJobs;
  bulk: BulkJobs;
  /** Stops running jobs at their next step; call before the journal closes. */
  close(): Promise<void>;
}

export async function openJobServices(deps: JobServiceDeps): Promise<JobServices> {
  const shared = { ...deps, stepDelayMs: deps.stepDelayMs ?? 0 };
  const rare = new RareJobs(shared);
  const bulk = new BulkJobs(shared);
  await rare.recover();
  await bulk.recover();
  return { rare, bulk, close: async () => void (await Promise.all([rare.close(), bulk.close()])) };
}
