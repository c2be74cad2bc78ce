// --local: the local service of a data folder. A folder already served (by a VS Code window, or another
// MCP server) is used where it runs, as VS Code windows share it (the lock file names its URL; keys.json
// holds the key); otherwise the service starts in this process, from dist/local.js beside dist/mcp.js.
import path from 'node:path';
import type * as LocalModule from '../local/entry';

export interface LocalEndpoint {
  url: string;
  apiKey: string;
  /** Set when this process started the service: close it on exit. */
  close?: () => Promise<void>;
  /** Set when this process started the service: resolves when no document waits for processing. */
  idle?: () => Promise<void>;
}

export interface EndpointLog {
  info(message: string): void;
  warn(message: string): void;
}

function loadLocal(): typeof LocalModule {
  // A computed path: the service stays its own bundle, loaded only for --local.
  return require(path.join(__dirname, 'local.js')) as typeof LocalModule;
}

export async function openLocalEndpoint(dataDir: string, log: EndpointLog): Promise<LocalEndpoint> {
  const local = loadLocal();
  const owner = await local.readLockOwner(dataDir);
  if (owner?.url) {
    const keys = await local.loadOrCreateKeys(dataDir);
    log.info(`using the local service of process ${owner.pid} at ${owner.url} (it owns ${dataDir})`);
    return { url: owner.url, apiKey: keys.apiKey };
  }
  try {
    const service = await local.startLocalService({
      dataDir,
      // KD_LOCAL_WRITER_*: a language model writes the answers (docs/local-service.md#writer); unset: extractive.
      writer: writerOf(local, log),
      // stdout carries the protocol: the service logs to stderr only.
      logger: { debug: () => undefined, info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.warn(m) },
    });
    log.info(`started the local service on ${service.url} (data: ${dataDir}; writer: ${local.describeWriter(writerOf(local))})`);
    return { url: service.url, apiKey: service.apiKey, close: () => service.close(), idle: () => service.processingIdle() };
  } catch (error) {
    // Taken between our look and our start: use the winner.
    if (!(error instanceof local.DataFolderLockedError) || !error.owner.url) throw error;
    const keys = await local.loadOrCreateKeys(dataDir);
    log.info(`using the local service of process ${error.owner.pid} at ${error.owner.url}`);
    return { url: error.owner.url, apiKey: keys.apiKey };
  }
}

function writerOf(local: typeof LocalModule, log?: EndpointLog): ReturnType<typeof LocalModule.writerFromEnv> {
  try {
    return local.writerFromEnv(process.env);
  } catch (error) {
    log?.warn(`KD_LOCAL_WRITER_*: ${(error as Error).message} Answers stay extractive.`);
    return undefined;
  }
}
