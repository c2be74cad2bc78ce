import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { reportedError, readErrorBody } from './errorBody';
import { ApiAbortError, ApiValidationError, OperationNotOfferedError, ServiceReportedError } from './errors';
import { describeOutcome, headerValue, statusError, translateFailure } from './failures';
import { identityHeaders, type Identity } from './identity';
import { buildForm } from './multipart';
import { defaultRetryPolicy, isRetryable, retryDelay, sleep, type Outcome, type RetryPolicy } from './retry';
import { buildQuery, joinUrl, trimSlashes } from './url';
import { parseResponse } from './validate';
import { Attempt } from './attempt';
import { readLimited } from './responseParts';
import { undici } from './undici';
import type { CallOptions, RawResponse, Requester, RequestSpec } from './requester';
import { AnswersResource } from './resources/answers';
import { FaqResource } from './resources/faq';
import { BulkResource, RareResource } from './resources/jobs';
import { NluResource } from './resources/nlu';
import { KbNodesResource } from './resources/kbNodes';
import { LocalDocsResource } from './resources/localDocs';
import { FoldersResource } from './resources/folders';
import { HashtagsResource } from './resources/hashtags';
import { ProjectsResource } from './resources/projects';
import { isMissingRoute, offersFor, sharedOfferMemory, type DeploymentOffers, type OfferMemory, type OptionalSpec } from './offers';

export interface ClientLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
}

export interface ClientConfig {
  baseUrl: string;
  /** Entity-recognition address; defaults to baseUrl. */
  nluUrl?: string;
  apiKey: string;
  nluApiKey?: string;
  identity?: Identity;
  /** Per-attempt timeout in ms (default 60 s). For streams it bounds the wait for headers and each idle gap. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  dispatcher?: Dispatcher;
  userAgent?: string;
  logger?: ClientLogger;
  /** Where "this deployment does not offer X" is remembered (default: shared by the process, per base URL). */
  offerMemory?: OfferMemory;
}

const VERSION = '0.1.0';
/** Empty or whitespace only; fails at the first other character, so a body is not scanned. */
const BLANK = /^\s*$/;

/** The HTTP client of the service: resource modules over one `request()`. */
export class ApiClient implements Requester {
  readonly answers = new AnswersResource(this);
  readonly faq = new FaqResource(this);
  readonly rare = new RareResource(this);
  readonly bulk = new BulkResource(this);
  readonly nlu = new NluResource(this);
  readonly kbNodes = new KbNodesResource(this);
  readonly localDocs = new LocalDocsResource(this);
  readonly folders = new FoldersResource(this);
  readonly hashtags = new HashtagsResource(this);
  readonly projects = new ProjectsResource(this);
  /** Operations this deployment answered 404/405 for (docs/api.md#operations-a-deployment-may-not-offer). */
  readonly offers: DeploymentOffers;
  readonly nluOffers: DeploymentOffers;

  private readonly policy: RetryPolicy;
  private readonly rememberMissing: (spec: RequestSpec) => void;
  /** The headers of every call, per target, built once: the config does not change. */
  private readonly baseHeaders: Record<'base' | 'nlu', Record<string, string>>;
  /** The same with `content-type: application/json`, also built once (a spread per call cost ~3 µs in V8). */
  private readonly jsonHeaders: Record<'base' | 'nlu', Record<string, string>>;
  /** The base URL of each target without its trailing slashes (joinUrl's work done once). */
  private readonly bases: Record<'base' | 'nlu', string>;

  constructor(readonly config: ClientConfig) {
    this.policy = { ...defaultRetryPolicy, ...config.retry };
    const common = {
      accept: 'application/json, application/x-ndjson, text/csv, */*',
      'user-agent': config.userAgent ?? `knowledge-desk/${VERSION}`,
      ...identityHeaders(config.identity),
    };
    const memory = config.offerMemory ?? sharedOfferMemory;
    this.offers = offersFor(memory, config.baseUrl);
    this.nluOffers = offersFor(memory, config.nluUrl ?? config.baseUrl);
    this.rememberMissing = (spec) =>
      memory.remember(spec.target === 'nlu' ? (config.nluUrl ?? config.baseUrl) : config.baseUrl, spec.operation);
    this.bases = { base: trimSlashes(config.baseUrl), nlu: trimSlashes(config.nluUrl ?? config.baseUrl) };
    this.baseHeaders = { base: { 'API-KEY': config.apiKey, ...common }, nlu: { 'API-KEY': config.nluApiKey ?? '', ...common } };
    const json = { 'content-type': 'application/json' };
    this.jsonHeaders = { base: { ...this.baseHeaders.base, ...json }, nlu: { ...this.baseHeaders.nlu, ...json } };
  }

  /** Sends a request and returns its validated body. */
  async request<S extends z.ZodTypeAny>(spec: RequestSpec<S>, options: CallOptions = {}): Promise<z.output<S>> {
    const { response, done } = await this.send(spec, options, false);
    try {
      const text = await response.body.text();
      return this.decode(spec, response.statusCode, text);
    } catch (error) {
      throw translateFailure(spec.operation, error, done, this.url(spec));
    } finally {
      done.release();
    }
  }

  /**
   * `request()` for an operation a deployment may not offer: a 404 from a missing route or a 405 throws
   * OperationNotOfferedError and is remembered in `offers` (later calls fail at once, without a request).
   */
  async requestOptional<S extends z.ZodTypeAny>(
    spec: RequestSpec<S>,
    options: CallOptions = {},
    optional: OptionalSpec = {},
  ): Promise<z.output<S>> {
    this.assertOffered(spec);
    try {
      return await this.request(spec, options);
    } catch (error) {
      throw this.notOffered(spec, error, optional);
    }
  }

  /** `requestRaw()` for an operation a deployment may not offer (see requestOptional). */
  async requestRawOptional(spec: RequestSpec, options: CallOptions = {}, optional: OptionalSpec = {}): Promise<RawResponse> {
    this.assertOffered(spec);
    try {
      return await this.requestRaw(spec, options);
    } catch (error) {
      throw this.notOffered(spec, error, optional);
    }
  }

  private assertOffered(spec: RequestSpec): void {
    const offers = spec.target === 'nlu' ? this.nluOffers : this.offers;
    if (!offers.isOffered(spec.operation)) throw new OperationNotOfferedError(spec.operation);
  }

  private notOffered(spec: RequestSpec, error: unknown, optional: OptionalSpec): unknown {
    const missingRoute = isMissingRoute(error, optional.ids ?? []);
    if (!missingRoute) return error;
    this.rememberMissing(spec);
    this.config.logger?.info(`${spec.operation}: not offered by this deployment (HTTP ${(error as { status?: number }).status})`);
    return new OperationNotOfferedError(spec.operation);
  }

  /**
   * Sends a request and hands back the undecoded body as it arrives (streams, downloads).
   * Retries happen only before the first byte; once the caller reads, a failure is final.
   */
  async requestRaw(spec: RequestSpec, options: CallOptions = {}): Promise<RawResponse> {
    const { response, done } = await this.send(spec, options, true);
    const translate = (error: unknown): unknown => translateFailure(spec.operation, error, done, this.url(spec));
    const body = response.body;
    async function* iterate(): AsyncGenerator<Uint8Array> {
      try {
        for await (const chunk of body) yield chunk as Uint8Array;
      } catch (error) {
        throw translate(error);
      } finally {
        done.release();
        body.destroy();
      }
    }
    return {
      status: response.statusCode,
      headers: response.headers,
      body: iterate(),
      cancel: () => {
        done.release();
        body.destroy();
      },
    };
  }

  private async send(
    spec: RequestSpec,
    options: CallOptions,
    streaming: boolean,
  ): Promise<{ response: Dispatcher.ResponseData; done: Attempt }> {
    const maxRetries = options.maxRetries ?? this.policy.maxRetries;
    const idempotent = spec.idempotent ?? spec.method !== 'POST';
    const url = this.url(spec);
    const logger = this.config.logger;
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs ?? 60_000;
    for (let attempt = 0; ; attempt++) {
      const done = new Attempt(options.signal, timeoutMs);
      const started = logger ? Date.now() : 0;
      let outcome: Outcome;
      let failure: unknown;
      try {
        // Multipart bodies are built asynchronously; a JSON body needs no await (one less turn per call).
        const { body, headers: bodyHeaders } = spec.multipart ? await buildForm(spec.multipart) : jsonBody(spec);
        const response = await undici().request(url, {
          method: spec.method,
          headers: bodyHeaders ? { ...this.headers(spec), ...bodyHeaders } : this.headers(spec),
          body,
          signal: done,
          dispatcher: this.config.dispatcher,
          // Streams: the per-call timeout becomes an idle timeout between chunks.
          bodyTimeout: streaming ? timeoutMs : 0,
          headersTimeout: 0,
        });
        if (response.statusCode >= 200 && response.statusCode < 300) {
          logger?.debug(`${spec.method} ${spec.path} → ${response.statusCode} in ${Date.now() - started} ms`);
          if (streaming) done.stopTimer();
          return { response, done };
        }
        const text = await readLimited(response.body);
        done.release();
        const retryAfter = headerValue(response.headers, 'retry-after');
        outcome = { kind: 'status', status: response.statusCode, retryAfter };
        failure = statusError(spec.operation, response.statusCode, text, response.headers);
        logger?.debug(`${spec.method} ${spec.path} → ${response.statusCode} in ${Date.now() - started} ms`);
      } catch (error) {
        done.release();
        if (done.abortedByCaller) throw new ApiAbortError(spec.operation, { cause: error });
        outcome = done.timedOut ? { kind: 'timeout' } : { kind: 'connection' };
        failure = translateFailure(spec.operation, error, done, url);
      }
      const delay =
        attempt < maxRetries && isRetryable(outcome, idempotent)
          ? retryDelay(attempt + 1, this.policy, outcome.kind === 'status' ? outcome.retryAfter : undefined)
          : undefined;
      if (delay === undefined) throw failure;
      this.config.logger?.info(`${spec.operation}: ${describeOutcome(outcome)}; retry ${attempt + 1}/${maxRetries} in ${delay} ms`);
      try {
        await sleep(delay, options.signal);
      } catch (error) {
        throw new ApiAbortError(spec.operation, { cause: error });
      }
    }
  }

  private decode(spec: RequestSpec, status: number, text: string): unknown {
    if (spec.response === 'empty') return parseResponse(spec.operation, spec.schema, undefined);
    if (spec.response === 'text') return parseResponse(spec.operation, spec.schema, text);
    let body: unknown;
    try {
      // A test, not text.trim(): trimming copied every body once more (JSON.parse skips the whitespace itself).
      body = BLANK.test(text) ? undefined : JSON.parse(text);
    } catch {
      throw new ApiValidationError(spec.operation, '', `is not JSON (starts with ${JSON.stringify(text.slice(0, 40))})`);
    }
    const reported = reportedError(body);
    if (reported) {
      const info = readErrorBody(body);
      throw new ServiceReportedError(`${spec.operation} failed: ${reported}`, {
        operation: spec.operation,
        status,
        code: info.code,
        field: info.field,
        body,
      });
    }
    return parseResponse(spec.operation, spec.schema, body);
  }

  private url(spec: RequestSpec): string {
    return joinUrl(this.bases[spec.target === 'nlu' ? 'nlu' : 'base'], spec.path) + buildQuery(spec.query);
  }

  private headers(spec: RequestSpec): Record<string, string> {
    // undici does not modify the object it is given: the shared ones are safe to pass as they are.
    return (spec.json !== undefined ? this.jsonHeaders : this.baseHeaders)[spec.target === 'nlu' ? 'nlu' : 'base'];
  }
}

function jsonBody(spec: RequestSpec): { body?: string; headers?: undefined } {
  return spec.json !== undefined ? { body: JSON.stringify(spec.json) } : {};
}
