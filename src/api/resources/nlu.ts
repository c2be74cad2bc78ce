import type { ApiClient, CallOptions } from '../client';
import { addPhraseResponseSchema, inferResponseSchema, type Entity, type InferResponse } from '../schemas/nlu';
import { path } from '../url';

export { NLU_MAX_CHARS } from '../values';

/** Entity recognition: a separate service at nlu_url with its own key. */
export class NluResource {
  constructor(private readonly client: ApiClient) {}

  /** Entities in the first 2,000 characters; offsets index into `inputText`. Read-only, so retried. */
  infer(text: string, options?: CallOptions): Promise<InferResponse> {
    return this.client.request(
      {
        operation: 'nlu.infer',
        method: 'POST',
        path: '/api/inference',
        json: { text },
        schema: inferResponseSchema,
        target: 'nlu',
        idempotent: true,
      },
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
      {
        operation: 'nlu.addPhrase',
        method: 'POST',
        path: path`/api/add_phrase/${dataType}`,
        json: { text, entities },
        schema: addPhraseResponseSchema,
        target: 'nlu',
      },
      options,
    );
  }
}
