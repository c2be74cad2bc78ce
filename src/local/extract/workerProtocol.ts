// Messages between the ExtractorPool and its worker threads: plain data only (structured clone).
import type { Extraction, ExtractionFailure } from './types';

export interface WorkerSetup {
  assetsDir: string;
  maxPages?: number;
  maxDecodedBytes?: number;
}

export interface WorkerRequest {
  id: number;
  filePath: string;
  fileName: string;
}

export type WorkerReply =
  { id: number; ok: true; extraction: Extraction } | { id: number; ok: false; reason: ExtractionFailure; message: string };

/** Sent once when the worker's code has loaded. */
export interface WorkerReady {
  ready: true;
}

export type WorkerMessage = WorkerReply | WorkerReady;
