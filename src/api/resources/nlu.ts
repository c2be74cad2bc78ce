import type { CallOptions, Requester } from '../requester';
import { endpoint } from '../endpoint';
import { sendJson } from '../requestSpecs';
import { addPhraseResponseSchema, inferResponseSchema, type AddPhraseResponse, type Entity, type InferResponse } from '../schemas/nlu';

export { NLU_MAX_CHARS } from '../values';

/** Entity recognition: a separate service at nlu_url with its own key. */
export class NluResource {
  constructor(private readonly client: Requester) {}

  /** Entities in the first 2,000 characters; offsets index into `inputText`. Read-only, so retried. */
  infer(text: string, options?: CallOptions): Promise<InferResponse> {
    return this.client.request(
      sendJson(endpoint('nlu.infer'), { text }, inferResponseSchema, { target: 'nlu', idempotent: true }),
      options,
    );
  }

  /**
   * Teaches (train) or stores for evaluation (test) a phrase with its entities; anything but test is train.
   * Sent in the public shape (docs/api.md#add-phrase): a JSON array `[{text, entities: [{start, end, tag: {name}, token}]}]`,
   * `end` exclusive like inference's `endIndex`; a missing token is the text's slice.
   */
  addPhrase(
    text: string,
    entities: Array<Pick<Entity, 'startIndex' | 'endIndex' | 'tag'> & { token?: string }>,
    dataType: 'train' | 'test' = 'train',
    options?: CallOptions,
  ): Promise<AddPhraseResponse> {
    return this.addPhrases([{ text, entities }], dataType, options);
  }

  /** Several phrases in one request (same shape as addPhrase). */
  addPhrases(
    phrases: Array<{ text: string; entities: Array<Pick<Entity, 'startIndex' | 'endIndex' | 'tag'> & { token?: string }> }>,
    dataType: 'train' | 'test' = 'train',
    options?: CallOptions,
  ): Promise<AddPhraseResponse> {
    const body = phrases.map(({ text, entities }) => ({
      text,
      entities: entities.map((e) => ({
        start: e.startIndex,
        end: e.endIndex,
        tag: { name: e.tag },
        token: e.token ?? text.slice(e.startIndex, e.endIndex),
      })),
    }));
    return this.client.request(
      sendJson(endpoint('nlu.addPhrase', { data_type: dataType }), body, addPhraseResponseSchema, { target: 'nlu' }),
      options,
    );
  }
}
