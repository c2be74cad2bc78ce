// Entry of dist/local.js: the extension require()s it for the Local region, and
// `node dist/local.js --data DIR` runs the same service standalone.
import { parseArgs } from 'node:util';
import { consoleLogger } from './logger';
import { runSupervised } from './process/childMain';
import { SUPERVISED_ARG } from '../core/localServiceProtocol';
import { startLocalService, type LocalService, type LocalServiceOptions } from './service';
import { DataFolderLockedError } from './store/lock';
import { describeWriter, writerFromEnv, type WriterOptions } from './answers/writerConfig';

export { startLocalService, LOCAL_SERVICE_VERSION } from './service';
export type { LocalService, LocalServiceOptions } from './service';
export { DataFolderLockedError, readLockOwner } from './store/lock';
export { loadOrCreateKeys } from './store/keys';
export { writerFromEnv, describeWriter } from './answers/writerConfig';

const USAGE = `Usage: node dist/local.js --data DIR [--port N] [--seed DIR] [--allow DIR]... [--max-upload-mb N] [--verbose]

  --data DIR          data folder (store, files, keys); created if missing
  --port N            port on 127.0.0.1 (default: a free port)
  --seed DIR          import the files of DIR (keeping its folders) when the knowledge base is empty
  --allow DIR         folder that file:// cloud uploads may read (repeatable)
  --max-upload-mb N   largest accepted upload (default 512)
  --max-faq-rows N    largest number of rows in one uploaded Q&A file (default 100000)
  --writer-url URL    an OpenAI-compatible API (e.g. http://127.0.0.1:11434/v1) whose model writes the answers
                      over the passages (default: KD_LOCAL_WRITER_URL; unset: extractive answers)
  --writer-model NAME the model to ask (default: KD_LOCAL_WRITER_MODEL); its key, if it needs one, is read
                      from KD_LOCAL_WRITER_KEY only
  --writer-timeout-s N  wait for the model's first text (and between texts) before answering extractively
                      (default: KD_LOCAL_WRITER_TIMEOUT_S, else 30)
  --verbose           log every request
  --test-faq-batch N  (tests) rows per journal commit of an uploaded Q&A file
  --test-commit-seq   (tests) answer with the journal sequence number of each request's first commit`;

const TEXT = { type: 'string' } as const;
const FLAG = { type: 'boolean' } as const;

export async function main(argv: string[]): Promise<LocalService | undefined> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        data: TEXT,
        port: TEXT,
        seed: TEXT,
        allow: { ...TEXT, multiple: true },
        'max-upload-mb': TEXT,
        'max-faq-rows': TEXT,
        'writer-url': TEXT,
        'writer-model': TEXT,
        'writer-timeout-s': TEXT,
        'test-faq-batch': TEXT,
        verbose: FLAG,
        'test-commit-seq': FLAG,
        help: { ...FLAG, short: 'h' },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return undefined;
  }
  if (args.help || !args.data) {
    (args.help ? console.log : console.error)(USAGE);
    if (!args.help) process.exitCode = 2;
    return undefined;
  }
  const port = args.port === undefined ? 0 : Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a port number, got ${args.port}`);
    process.exitCode = 2;
    return undefined;
  }
  let writer: WriterOptions | undefined;
  try {
    writer = writerFromEnv(process.env, {
      url: args['writer-url'],
      model: args['writer-model'],
      timeoutMs: args['writer-timeout-s'] === undefined ? undefined : Number(args['writer-timeout-s']) * 1000,
    });
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 2;
    return undefined;
  }
  const options: LocalServiceOptions = {
    dataDir: args.data,
    port,
    allowedRoots: args.allow ?? [],
    logger: consoleLogger(!!args.verbose),
    writer,
  };
  if (args['max-upload-mb']) options.maxUploadBytes = Number(args['max-upload-mb']) * 1024 * 1024;
  if (args['max-faq-rows']) options.maxFaqFileRows = Number(args['max-faq-rows']);
  if (args['test-faq-batch']) options.faqUploadBatchRows = Number(args['test-faq-batch']);
  if (args.seed) options.seedDir = args.seed;
  if (args['test-commit-seq']) options.exposeCommitSeq = true;
  let service: LocalService;
  try {
    service = await startLocalService(options);
  } catch (error) {
    if (error instanceof DataFolderLockedError) {
      const owner = error.owner;
      console.error(
        `The data folder ${args.data} is in use by process ${owner.pid}${owner.url ? ` (${owner.url})` : ''}. Stop it or choose another --data folder.`,
      );
      process.exitCode = 2;
      return undefined;
    }
    throw error;
  }
  console.log(
    `Knowledge Desk local service\n  URL:      ${service.url}\n  API key:  ${service.apiKey}\n  NLU key:  ${service.nluApiKey}\n  Data:     ${service.dataDir}\n  Writer:   ${describeWriter(writer)}`,
  );
  const stop = (signal: string): void => {
    console.log(`${signal}: stopping`);
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return service;
}

if (require.main === module && process.send && process.argv[2] === SUPERVISED_ARG) {
  // Started by the extension host (child_process.fork): options come over IPC (src/local/process/childMain.ts).
  runSupervised();
} else if (require.main === module) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
