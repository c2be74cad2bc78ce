// The messages between the extension host and the local service it runs as a child process
// (`node dist/local.js --supervised`, over the IPC channel of child_process.fork). Plain interfaces, no zod:
// the extension host loads this at activation, and both ends are built from the same sources.

/** What the parent asks the child to start with (the options of startLocalService that cross a process). */
export interface ChildStartOptions {
  dataDir: string;
  allowedRoots: string[];
  maxUploadBytes?: number;
  seedDir?: string;
  /** The port of the previous run, tried first so a restarted service keeps its address (0: any free port). */
  port?: number;
  /** The writer of generative answers (LocalServiceOptions.writer); absent: extractive answers. */
  writer?: ChildWriter;
  /** Test options of the service (LocalServiceOptions), passed only by the extension's test build (platform/localServiceTestOptions.ts). */
  testHooks?: boolean;
  jobStepDelayMs?: number;
}

/** An OpenAI-compatible endpoint whose model writes the answers (the extension serves its chosen model on one). */
export interface ChildWriter {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
}

export type ParentMessage =
  | { type: 'start'; options: ChildStartOptions }
  | { type: 'setAllowedRoots'; roots: string[] }
  /** The writer setting changed: answers started from now on use this writer (none: extractive). */
  | { type: 'setWriter'; writer?: ChildWriter };

export type ChildMessage =
  /** Listening: the endpoint and its keys. */
  | { type: 'ready'; url: string; apiKey: string; nluApiKey: string }
  /** Another process owns the data folder (the lock file names it); the keys are the folder's. The child exits. */
  | { type: 'locked'; owner: { pid: number; url?: string }; apiKey: string; nluApiKey: string }
  /** The service could not start; `message` says why. The child exits. */
  | { type: 'failed'; message: string };

/** The argument that makes dist/local.js wait for a `start` message instead of parsing a command line. */
export const SUPERVISED_ARG = '--supervised';

/** The child's log lines: "<level> <message>" on stdout, continuation lines indented. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isChildMessage(value: unknown): value is ChildMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'ready' || type === 'locked' || type === 'failed';
}
