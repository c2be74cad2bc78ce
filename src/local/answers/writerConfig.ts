// Which writer the local service uses (docs/local-service.md#writer): none unless configured. The standalone
// service and the MCP server read it from the environment (KD_LOCAL_WRITER_URL, KD_LOCAL_WRITER_MODEL,
// KD_LOCAL_WRITER_KEY, KD_LOCAL_WRITER_TIMEOUT_S); the extension passes it when it starts the service. The key
// is read from the environment only, never from a command line, where other processes can see it.
import { ChatCompletionsWriter } from './chatCompletionsWriter';
import type { AnswerWriter } from './answerWriter';
import { WRITER_TIMEOUT_MS } from './writtenAnswer';

/** A writer that crosses a process boundary as plain data (the extension's start message). */
export interface WriterOptions {
  /** Base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1 */
  url: string;
  model: string;
  apiKey?: string;
  /** Wait for the first text and between texts before falling back (default 30 s). */
  timeoutMs?: number;
}

export interface WriterSetup {
  writer: AnswerWriter;
  timeoutMs: number;
}

export class WriterConfigError extends Error {}

/** The writer the environment names, or undefined when KD_LOCAL_WRITER_URL is unset. Throws on a bad value. */
export function writerFromEnv(env: NodeJS.ProcessEnv, overrides: Partial<WriterOptions> = {}): WriterOptions | undefined {
  const url = overrides.url ?? env.KD_LOCAL_WRITER_URL?.trim();
  if (!url) return undefined;
  const timeout = env.KD_LOCAL_WRITER_TIMEOUT_S?.trim();
  const options: WriterOptions = {
    url,
    model: overrides.model ?? env.KD_LOCAL_WRITER_MODEL?.trim() ?? '',
    apiKey: env.KD_LOCAL_WRITER_KEY || undefined,
    timeoutMs: overrides.timeoutMs ?? (timeout ? Number(timeout) * 1000 : undefined),
  };
  checkWriterOptions(options);
  return options;
}

export function checkWriterOptions(options: WriterOptions): void {
  let parsed: URL;
  try {
    parsed = new URL(options.url);
  } catch {
    throw new WriterConfigError(`The writer URL is not a URL: ${options.url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new WriterConfigError(`The writer URL must be http or https: ${options.url}`);
  if (parsed.username || parsed.password) throw new WriterConfigError('Put the writer key in KD_LOCAL_WRITER_KEY, not in the URL.');
  if (!options.model) throw new WriterConfigError('The writer needs a model name (KD_LOCAL_WRITER_MODEL or --writer-model).');
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0 && options.timeoutMs <= 600_000))
    throw new WriterConfigError('The writer timeout must be between 0 and 600 seconds.');
}

export function writerSetup(options: WriterOptions | undefined): WriterSetup | undefined {
  if (!options) return undefined;
  checkWriterOptions(options);
  return {
    writer: new ChatCompletionsWriter({ baseUrl: options.url, model: options.model, apiKey: options.apiKey }),
    timeoutMs: options.timeoutMs ?? WRITER_TIMEOUT_MS,
  };
}

/** The writer's URL and model for logs and the start-up banner: never the key. */
export function describeWriter(options: WriterOptions | undefined): string {
  return options ? `${options.model} at ${options.url}` : 'off (extractive answers)';
}
