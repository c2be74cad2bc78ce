import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Handler } from './http/context';
import type { FaultConfig } from './http/faults';
import { createHttpServer } from './http/server';
import type { HttpTimeouts } from './http/timeouts';
import { adminHandlers } from './handlers/adminHandlers';
import type * as TestKit from './testKit';
import { answerHandlers } from './handlers/answerHandlers';
import { localDocsHandlers } from './handlers/localDocsHandlers';
import { retrievalHandlers } from './handlers/retrievalHandlers';
import { faqHandlers } from './handlers/faqHandlers';
import { jobHandlers } from './handlers/jobHandlers';
import { isReferenced } from './jobs/jobBlobs';
import { openJobServices } from './jobs/jobServices';
import { kbHandlers, releaseBlobs } from './handlers/kbHandlers';
import { kbOpsHandlers } from './handlers/kbOpsHandlers';
import { AnswerFeedbackStore } from './answers/answerFeedback';
import { nluHandlers } from './handlers/nluHandlers';
import { FaqService } from './faq/faqService';
import { PhraseBook } from './nlu/phraseBook';
import { ExtractorPool, defaultAssetsDir } from './extract/extractorPool';
import { KbService } from './kb/kbService';
import { KbStore } from './kb/kbStore';
import { ProcessingQueue, type Extractor } from './kb/processing';
import { seedFromDir } from './kb/seed';
import { silentLogger, type LocalLogger } from './logger';
import { AnswerService } from './answers/answerService';
import { describeWriter, writerSetup, type WriterOptions } from './answers/writerConfig';
import { HighlightResolver } from './search/highlightResolver';
import { Retrieval } from './search/retrieval';
import { IndexSnapshots, INDEX_SNAPSHOT_FILE, loadIndexSnapshot } from './search/indexPersistence';
import { BlobStore } from './store/blobs';
import { Journal } from './store/journal';
import { loadOrCreateKeys } from './store/keys';
import { acquireLock } from './store/lock';
import { DIR_MODE, tightenModes } from './store/fileModes';
import { prefixed } from '../core/records';

export const LOCAL_SERVICE_VERSION = '0.1.0';

export interface LocalServiceOptions {
  /** Folder holding the store, blobs, keys and lock. Created if missing. */
  dataDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Folders whose files `file://` cloud uploads may read. */
  allowedRoots?: string[];
  /** Imported (keeping its folders) when the knowledge base is empty. */
  seedDir?: string;
  /** Text extraction; default: a worker-thread pool over the bundled extractors. */
  extractor?: Extractor & { close?(): Promise<void> };
  /** Largest accepted upload, in bytes (default 512 MiB). */
  maxUploadBytes?: number;
  /** Largest number of data rows in one uploaded Q&A file (default 100,000; docs/local-service.md#qa-files). */
  maxFaqFileRows?: number;
  /** Test option: rows per journal commit of an uploaded Q&A file (default 250), so small files make many batches. */
  faqUploadBatchRows?: number;
  /** Largest size an uploaded Q&A XLSX's parts may expand to, in bytes (default 16 MiB; docs/local-service.md#qa-files). */
  maxFaqXlsxBytes?: number;
  /** Largest accepted JSON body, in bytes (default 16 MiB). */
  maxJsonBytes?: number;
  /**
   * Test option (test build only, testKit.ts): serves the test routes, injects faults, and honours the stream
   * delay header. Without it those routes are 404 and the header is ignored; the extension passes it only in
   * the test build. Other builds do not contain them at all.
   */
  testHooks?: boolean;
  /** Faults injected from the start (with `testHooks` only). */
  faults?: FaultConfig;
  logger?: LocalLogger;
  /** fdatasync each commit (default true; tests of other things may turn it off for speed). */
  fsync?: boolean;
  /** Pause added to each step of a RARE or bulk job (default 0): lets tests cancel or interrupt a running job. */
  jobStepDelayMs?: number;
  /** HTTP timeouts (http/timeouts.ts); tests use short ones. */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** Test option: responses carry the sequence number of their request's first commit (http/commitSeq.ts). */
  exposeCommitSeq?: boolean;
  /** Test option: how long the search indexes must stay unchanged before their snapshot is written (default 5 s). */
  indexSnapshotSettleMs?: number;
  /** Test option: the index snapshot is read once this resolves too (the service listens before it is read). */
  indexSnapshotReadAfter?: Promise<void>;
  /** A language model that writes generative answers over the passages (answers/writerConfig.ts); none by default. */
  writer?: WriterOptions;
}

export interface LocalService {
  readonly url: string;
  readonly port: number;
  readonly apiKey: string;
  readonly nluApiKey: string;
  readonly dataDir: string;
  /** Folders file:// cloud uploads may read (the extension passes the workspace folders). */
  setAllowedRoots(roots: string[]): void;
  /** Changes the writer of generative answers (undefined: extractive answers); answers already started keep theirs. */
  setWriter(options: WriterOptions | undefined): void;
  /** Resolves when no document is waiting for or in processing. */
  processingIdle(): Promise<void>;
  close(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';

/** Starts the local service on 127.0.0.1. Throws DataFolderLockedError if another process owns the folder. */
export async function startLocalService(options: LocalServiceOptions): Promise<LocalService> {
  const logger = options.logger ?? silentLogger;
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true, mode: DIR_MODE });
  const lock = await acquireLock(dataDir);
  await tightenModes(dataDir, logger);
  const closers: Array<() => Promise<void>> = [() => lock.release()];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.reverse()) await close().catch((e) => logger.warn(`close: ${e}`));
  };
  try {
    const keys = await loadOrCreateKeys(dataDir);
    // The test options work in the test build only (src/testBuild.d.ts); other builds do not have testKit.ts.
    const testKit = globalThis.__KD_TEST__ ? (require('./testKit') as typeof TestKit) : undefined;
    const commitSeq = options.exposeCommitSeq ? testKit?.commitSeqTracker() : undefined;
    const journal = await Journal.open({ dir: path.join(dataDir, 'db'), fsync: options.fsync ?? true, onCommit: commitSeq?.onCommit });
    closers.push(() => journal.close());
    const blobs = await BlobStore.open(path.join(dataDir, 'blobs'));
    const kb = new KbStore(journal);
    const faults = options.testHooks ? testKit?.faultInjector(options.faults) : undefined;
    const maxUploadBytes = options.maxUploadBytes ?? 512 * 1024 * 1024;
    let allowedRoots = [...(options.allowedRoots ?? [])];

    const extractor = options.extractor ?? new ExtractorPool({ assetsDir: defaultAssetsDir() });
    closers.push(async () => extractor.close?.());
    const processing = new ProcessingQueue(kb, blobs, extractor, logger);
    closers.push(async () => processing.close());
    const test = faults && testKit?.testHandlers({ faults, processing });
    const indexFile = path.join(dataDir, 'db', INDEX_SNAPSHOT_FILE);
    // Read once the service listens (decoding took seconds at 100,000 Q&As): searches wait for it, as for a rebuild.
    let listening!: () => void;
    const savedIndexes = new Promise<void>((resolve) => (listening = resolve))
      .then(() => options.indexSnapshotReadAfter)
      .then(() => loadIndexSnapshot(indexFile, journal, logger));
    const retrieval = new Retrieval(kb, blobs, logger);
    closers.push(async () => retrieval.close());
    processing.onProcessed((node, extraction) => retrieval.onProcessed(node, extraction));
    let restored = false;
    let settled = false;
    const retrievalRestored = retrieval.rebuildInBackground(savedIndexes.then((saved) => saved?.retrieval));
    const faq = new FaqService(
      journal,
      savedIndexes.then((saved) => saved?.faq),
    );
    const loaded = Promise.all([retrievalRestored, faq.faqs.indexLoaded, savedIndexes]).then(([yes, , saved]) => {
      restored = yes && saved !== undefined;
      settled = true;
      return restored;
    });
    const snapshots = new IndexSnapshots(
      { file: indexFile, journal, faqs: faq.faqs, retrieval, logger, settleMs: options.indexSnapshotSettleMs },
      loaded,
    );
    closers.push(() => snapshots.close());
    // A writer that cannot be set up (a bad URL) leaves answers extractive: it must not stop the service.
    const setUp = (next: WriterOptions | undefined): ReturnType<typeof writerSetup> => {
      try {
        const setup = writerSetup(next);
        logger.info(next ? `answers: written by ${describeWriter(next)}` : 'answers: extractive (no writer)');
        return setup;
      } catch (error) {
        logger.warn(`answers: the writer is not used: ${(error as Error).message}`);
        return undefined;
      }
    };
    let writer = setUp(options.writer);
    const answers = new AnswerService({ retrieval, kb, journal, faqs: faq.faqs, writer: () => writer });
    const jobs = await openJobServices({ journal, blobs, kb, retrieval, answers, logger, stepDelayMs: options.jobStepDelayMs });
    closers.push(() => jobs.close());
    const kbService = new KbService(kb, blobs, (id) => processing.enqueue(id), { maxUploadBytes });

    const traffic = { inFlight: 0, received: new Map<string, number>() };
    const handlers = new Map<string, Handler>(
      Object.entries({
        ...kbHandlers({
          kb: kbService,
          blobs,
          allowedRoots: () => allowedRoots,
          maxUploadBytes,
          isBlobUsed: (hash) => isReferenced({ journal, blobs, kb, logger }, hash),
        }),
        ...retrievalHandlers({ retrieval, highlights: new HighlightResolver(kb, retrieval) }),
        ...answerHandlers({
          answers,
          feedback: new AnswerFeedbackStore(journal),
          isDocument: (id) => kb.get(id)?.nodeType === 'file',
          streamDelay: test?.streamDelay,
        }),
        ...kbOpsHandlers({
          kb,
          blobs,
          retrieval,
          faqs: faq.faqs,
          releaseBlobs: (removed) => releaseBlobs(removed, blobs, (hash) => isReferenced({ journal, blobs, kb, logger }, hash)),
        }),
        ...localDocsHandlers({ kb, blobs, retrieval }),
        ...faqHandlers({
          faq,
          tempPath: () => blobs.tempPath(),
          maxFaqFileRows: options.maxFaqFileRows,
          faqUploadBatchRows: options.faqUploadBatchRows,
          maxFaqXlsxBytes: options.maxFaqXlsxBytes,
        }),
        ...nluHandlers({ book: new PhraseBook(journal), logger }),
        ...jobHandlers(jobs),
        ...test?.handlers,
        ...adminHandlers({
          name: 'knowledge-desk-local',
          version: LOCAL_SERVICE_VERSION,
          startedAt: Date.now(),
          counts: () => ({
            nodes: kb.size,
            ...test?.counts(),
            ...prefixed('answers.', answers.counts),
            'retrieval.passages': retrieval.index.passageCount,
            // Requests still being handled, this one included: 1 when the service is otherwise idle.
            'http.inFlight': traffic.inFlight,
            ...prefixed('http.received.', Object.fromEntries(traffic.received)),
            'retrieval.documents': retrieval.index.documentCount,
            // 0 while the start-up rebuild runs (searches wait for it; the two counts above are partial until then).
            'retrieval.ready': retrieval.isReady ? 1 : 0,
            // Search index snapshot (docs/local-service.md#search-index-snapshot): 1 when this start loaded one;
            // what the start still had to index; snapshots written since.
            'index.snapshotLoaded': restored ? 1 : 0,
            // 1 once the snapshot was read and used or set aside (the service listens before).
            'index.snapshotSettled': settled ? 1 : 0,
            'index.reindexedQas': faq.faqs.reindexed,
            'index.reindexedDocuments': retrieval.reindexed,
            'index.snapshotWrites': snapshots.counts.writes,
          }),
        }),
      }),
    );
    const server = createHttpServer({
      handlers: commitSeq ? commitSeq.wrap(handlers) : handlers,
      keys,
      faults,
      testRoutes: faults && testKit?.TEST_ROUTES,
      maxJsonBytes: options.maxJsonBytes ?? 16 * 1024 * 1024,
      multipart: { maxFileBytes: maxUploadBytes, tempPath: () => blobs.tempPath() },
      logger,
      traffic,
      timeouts: options.httpTimeouts,
    });
    await listen(server, options.port ?? 0);
    listening();
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    const port = (server.address() as AddressInfo).port;
    const url = `http://${LOOPBACK}:${port}`;
    await lock.update({ url });
    logger.info(`local service listening on ${url} (data: ${dataDir})`);
    const resumed = processing.resumePending();
    if (resumed) logger.info(`processing ${resumed} documents left unfinished by the last run`);
    if (options.seedDir) {
      const seeded = await seedFromDir(options.seedDir, kbService, blobs);
      if (seeded) logger.info(`seeded ${seeded} documents from ${options.seedDir}`);
    }
    let closed: Promise<void> | undefined;
    return {
      url,
      port,
      apiKey: keys.apiKey,
      nluApiKey: keys.nluApiKey,
      dataDir,
      setAllowedRoots: (roots) => (allowedRoots = [...roots]),
      setWriter: (next) => (writer = setUp(next)),
      processingIdle: () => processing.idle(),
      close: () => (closed ??= closeAll()),
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

function listen(server: ReturnType<typeof createHttpServer>, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: the service holds a project's documents and must not be reachable from the network.
    server.listen(port, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
