import type { ApiClient, CallOptions } from '../client';
import { sendJson } from '../requestSpecs';
import { addPhraseResponseSchema, inferResponseSchema, type Entity, type InferResponse } from '../schemas/nlu';
import { path } from '../url';

export { NLU_MAX_CHARS } from '../values';

/** Entity recognition: a separate service at nlu_url with its own key. */
export class NluResource {
  constructor(private readonly client: ApiClient) {}

  /** Entities in the first 2,000 characters; offsets index into `inputText`. Read-only, so retried. */
  infer(text: string, options?: CallOptions): Promise<InferResponse> {
    return this.client.request(
      sendJson('nlu.infer', 'POST', '/api/inference', { text }, inferResponseSchema, { target: 'nlu', idempotent: true }),
      options,
    );
  }

  /** Teaches (train) or stores for evaluation (test) a phrase with its entities; anything but test is train. */
  addPhrase(
    text: string,
    entities: Array<Pick<Entity, 'startIndex' | 'endIndex' | 'tag'> & { token?: string }>,
    dataType: 'train' | 'test' = 'train',
    options?: CallOptions,
  ): Promise<unknown> {
    return this.client.request(
      sendJson('nlu.addPhrase', 'POST', path`/api/add_phrase/${dataType}`, { text, entities }, addPhraseResponseSchema, { target: 'nlu' }),
      options,
    );
  }
}
