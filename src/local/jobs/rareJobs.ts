// Answer-generation jobs (RARE) of the local service: one build and one generate task per project, one job at
// a time, run in the background in steps (jobControl.ts). The status record is committed to the journal at
// every state change (live progress between them is kept in memory), so a job that was queued or running when
// the service stopped is found on the next start and reported failed: a job cannot resume halfway.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { badRequest, notFound } from '../http/errors';
import type { Retrieval } from '../search/retrieval';
import type { JournalRecord } from '../store/journal';
import { LEXICAL_MODEL } from '../search/lexicalHash';
import { releaseBlob, type BlobDeps } from './jobBlobs';
import { JobCancelled, JobControl, JobInterrupted } from './jobControl';
import {
  ACTIVE,
  idleStatus,
  INTERRUPTED_MESSAGE,
  LOCAL_GENERATOR,
  newestFirst,
  progress,
  RARE_BUILD_KEY,
  RARE_STATUS_KEY,
  rareResultBody,
  type JobState,
  type RareJobType,
  type RareStatus,
  type StoredBuild,
  type StoredRareResult,
} from './jobRecords';
import { collectChunks, countPairs, linkChunks, type BuildData } from './rareBuild';
import { chunkIdf, generateRows, resultCsv, seedOf } from './rareGenerate';
import type { BuildParams, GenerateParams } from './rareParams';
import { RARE, RARE_RESULTS } from '../store/collections';

export interface RareDeps extends BlobDeps {
  retrieval: Retrieval;
  stepDelayMs: number;
}

export interface TaskAck {
  message: string;
  task_id: string;
}

/** How long cancel waits for the job to reach its next step, so its answer can say "cancelled". */
const CANCEL_WAIT_MS = 2000;

interface ActiveJob {
  id: string;
  type: RareJobType;
  control: JobControl;
  done: Promise<void>;
}

export class RareJobs {
  private status: RareStatus;
  private active: ActiveJob | undefined;
  private closing = false;

  constructor(private readonly deps: RareDeps) {
    this.status = { ...idleStatus(), ...deps.journal.get<RareStatus>(RARE, RARE_STATUS_KEY) };
  }

  /** At start: a job the last run left queued or running is failed, with the reason. */
  async recover(): Promise<void> {
    const s = this.status;
    if (!ACTIVE.has(s.build_status) && !ACTIVE.has(s.job_status)) return;
    if (ACTIVE.has(s.build_status)) {
      s.build_status = 'failed';
      s.build_progress = { ...s.build_progress, step: 'interrupted' };
    }
    if (ACTIVE.has(s.job_status)) s.job_status = 'failed';
    if (s.job_type === 'generate') s.generate_progress = { ...s.generate_progress, step: 'interrupted' };
    s.error_message = INTERRUPTED_MESSAGE;
    await this.save();
    this.deps.logger.warn(`RARE ${s.job_type} job ${s.build_run_id ?? ''}: ${INTERRUPTED_MESSAGE}`);
  }

  current(): RareStatus {
    return structuredClone(this.status);
  }

  async startBuild(params: BuildParams): Promise<TaskAck> {
    this.assertIdle();
    for (const id of params.folder_ids) {
      if (!this.deps.kb.get(id)) throw badRequest(`folder_ids: no folder or document with the id ${JSON.stringify(id)}`, 'folder_ids');
    }
    const id = randomUUID();
    Object.assign(this.status, {
      build_status: 'queued',
      job_status: 'queued',
      job_type: 'build',
      build_run_id: id,
      error_message: null,
      build_progress: progress(0, 0, 'queued'),
      build_stats: {},
      folder_ids: params.folder_ids,
      default_model: params.default_model ?? null,
    } satisfies Partial<RareStatus>);
    this.launch(id, 'build', (control) => this.runBuild(id, params, control));
    await this.save();
    return { message: `The build task ${id} was queued.`, task_id: id };
  }

  async startGenerate(params: GenerateParams): Promise<TaskAck> {
    this.assertIdle();
    const build = this.deps.journal.get<StoredBuild>(RARE, RARE_BUILD_KEY);
    if (this.status.build_status !== 'completed' || !build) {
      throw badRequest(`Run a build first: generate needs a completed build, and the build is ${this.status.build_status}.`);
    }
    const id = randomUUID();
    Object.assign(this.status, {
      job_status: 'queued',
      job_type: 'generate',
      error_message: null,
      generate_progress: progress(0, params.num_samples, 'queued'),
      generate_stats: {},
      default_model: params.default_model ?? this.status.default_model,
      generation_model: params.generation_model ?? null,
    } satisfies Partial<RareStatus>);
    this.launch(id, 'generate', (control) => this.runGenerate(id, build, params, control));
    await this.save();
    return { message: `The generate task ${id} was queued; its result will have the id ${id}.`, task_id: id };
  }

  async cancel(): Promise<TaskAck> {
    const job = this.running();
    if (!job) throw badRequest(`No job is running: there is nothing to cancel (the last job is ${this.status.job_status}).`);
    job.control.cancel();
    const stopped = await Promise.race([job.done.then(() => true), sleep(CANCEL_WAIT_MS).then(() => false)]);
    return stopped && this.status.job_status === 'cancelled'
      ? { message: `The ${job.type} task ${job.id} was cancelled.`, task_id: job.id }
      : { message: `Cancellation of the ${job.type} task ${job.id} was requested; it stops at its next step.`, task_id: job.id };
  }

  results(): { results: Array<Record<string, unknown>> } {
    return { results: newestFirst(this.deps.journal.collection<StoredRareResult>(RARE_RESULTS).values()).map(rareResultBody) };
  }

  async deleteResult(id: string): Promise<void> {
    const record = this.deps.journal.get<StoredRareResult>(RARE_RESULTS, id);
    if (!record) throw notFound(`RARE result not found: ${JSON.stringify(id.slice(0, 200))}.`);
    await this.deps.journal.commit([{ c: RARE_RESULTS, k: id }]);
    await releaseBlob(this.deps, record.blob);
  }

  /** The CSV of the result stored at `path` (its result_file_url; its id also works); the newest without a path. */
  async csv(path: string | undefined): Promise<{ text: string; id: string }> {
    const all = this.deps.journal.collection<StoredRareResult>(RARE_RESULTS);
    const record = path ? [...all.values()].find((r) => r.result_file_url === path || r.id === path) : newestFirst(all.values())[0];
    if (!record)
      throw notFound(
        path
          ? `RARE result file not found: ${JSON.stringify(path.slice(0, 300))}.`
          : 'RARE result not found: there are no results yet (run a generate task first).',
      );
    if (!this.deps.blobs.has(record.blob)) throw notFound(`RARE result file not found in the data folder (result ${record.id}).`);
    return { text: (await this.deps.blobs.read(record.blob)).toString('utf8'), id: record.id };
  }

  /** Stops the running job at its next step without recording an outcome (the next start reports it failed). */
  async close(): Promise<void> {
    this.closing = true;
    this.active?.control.wakeUp();
    await this.active?.done;
  }

  /**
   * The job still queued or running. The status turns final (and is committed) a moment before the job's
   * promise settles; from that moment a new job may start, so a client that saw "completed" is never refused.
   */
  private running(): ActiveJob | undefined {
    return this.active && ACTIVE.has(this.status.job_status) ? this.active : undefined;
  }

  private assertIdle(): void {
    const job = this.running();
    if (job)
      throw badRequest(
        `A ${job.type} task (${job.id}) is already ${this.status.job_status}: one answer-generation job runs at a time. Cancel it or wait until it finishes.`,
      );
  }

  private launch(id: string, type: RareJobType, body: (control: JobControl) => Promise<void>): void {
    const control = new JobControl(() => this.closing, this.deps.stepDelayMs);
    const done = (async () => {
      try {
        await control.step(); // the request that queued the job is answered first
        this.setState(type, 'running');
        await this.save();
        await body(control);
      } catch (error) {
        await this.settle(type, error);
      } finally {
        if (this.active?.id === id) this.active = undefined;
      }
    })();
    this.active = { id, type, control, done };
  }

  private async settle(type: RareJobType, error: unknown): Promise<void> {
    if (error instanceof JobInterrupted) return;
    const cancelled = error instanceof JobCancelled;
    const key = type === 'build' ? 'build_progress' : 'generate_progress';
    const changes: Partial<RareStatus> = {
      ...this.stateChanges(type, cancelled ? 'cancelled' : 'failed'),
      [key]: { ...this.status[key], step: cancelled ? 'cancelled' : 'failed' },
    };
    if (!cancelled) {
      changes.error_message = `${type} failed: ${(error as Error)?.message ?? String(error)}`;
      this.deps.logger.error(`RARE ${type}: ${(error as Error)?.stack ?? error}`);
    }
    await this.finish(changes).catch((e) => this.deps.logger.error(`RARE ${type}: cannot record the outcome: ${e}`));
  }

  private stateChanges(type: RareJobType, state: JobState): Partial<RareStatus> {
    return type === 'build' ? { job_status: state, build_status: state } : { job_status: state };
  }

  private setState(type: RareJobType, state: JobState): void {
    Object.assign(this.status, this.stateChanges(type, state));
  }

  private save(): Promise<void> {
    return this.deps.journal.commit([{ c: RARE, k: RARE_STATUS_KEY, v: this.status }]);
  }

  /**
   * A job's final state, committed with its records (the build, the result) BEFORE the status shows it:
   * whoever sees "completed" can use the build or find the result at once.
   */
  private async finish(changes: Partial<RareStatus>, records: JournalRecord[] = []): Promise<void> {
    await this.deps.journal.commit([...records, { c: RARE, k: RARE_STATUS_KEY, v: { ...this.status, ...changes } }]);
    Object.assign(this.status, changes);
  }

  private async runBuild(id: string, params: BuildParams, control: JobControl): Promise<void> {
    const started = Date.now();
    this.status.build_progress = progress(0, 0, 'collecting chunks');
    const input = await collectChunks(this.deps.kb, this.deps.retrieval, params.folder_ids);
    control.check();
    if (!input.chunks.length)
      throw new Error('no processed documents in the selected folders: upload documents (or choose other folders) and build again');
    const links = await linkChunks(input, params, control, (p) => (this.status.build_progress = p));
    const n = input.chunks.length;
    this.status.build_progress = progress(n, n, 'saving');
    const data: BuildData = { version: 1, runId: id, model: LEXICAL_MODEL, params, chunks: input.chunks, links };
    const { hash } = await this.deps.blobs.putBuffer(JSON.stringify(data));
    const previous = this.deps.journal.get<StoredBuild>(RARE, RARE_BUILD_KEY);
    const stored: StoredBuild = { runId: id, blob: hash, chunks: n, createdAt: new Date().toISOString() };
    await this.finish(
      {
        ...this.stateChanges('build', 'completed'),
        build_progress: progress(n, n, 'completed'),
        build_stats: { chunks: n, documents: input.documents, pairs: countPairs(links), duration_ms: Date.now() - started },
      },
      [{ c: RARE, k: RARE_BUILD_KEY, v: stored }],
    );
    if (previous && previous.blob !== hash) await releaseBlob(this.deps, previous.blob);
  }

  private async runGenerate(id: string, build: StoredBuild, params: GenerateParams, control: JobControl): Promise<void> {
    const started = Date.now();
    this.status.generate_progress = progress(0, params.num_samples, 'reading the build');
    const data = JSON.parse((await this.deps.blobs.read(build.blob)).toString('utf8')) as BuildData;
    const language = params.language ?? data.params.language;
    const seed = seedOf(`${data.runId}\n${JSON.stringify(params)}`);
    const outcome = await generateRows(
      data,
      { ...params, language },
      seed,
      chunkIdf(data),
      control,
      (p) => (this.status.generate_progress = p),
    );
    const { hash } = await this.deps.blobs.putBuffer(resultCsv(outcome.rows));
    const config = { ...params, language, generator: LOCAL_GENERATOR, build_run_id: data.runId, similarity_model: data.model, seed };
    const result: StoredRareResult = {
      id,
      created_at: new Date().toISOString(),
      n_samples: outcome.samples,
      rare_config: JSON.stringify(config),
      result_file_url: `rare/results/${id}.csv`,
      blob: hash,
    };
    await this.finish(
      {
        ...this.stateChanges('generate', 'completed'),
        generate_progress: progress(params.num_samples, params.num_samples, 'completed'),
        generate_stats: {
          samples: outcome.samples,
          questions: outcome.rows.length,
          duration_ms: Date.now() - started,
          generator: LOCAL_GENERATOR,
        },
      },
      [{ c: RARE_RESULTS, k: id, v: result }],
    );
  }
}
