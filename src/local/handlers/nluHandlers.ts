// Entity recognition (docs/api.md#entity-recognition, with the local tags and learning).
//
// POST /api/inference  { text } → { inputText, entities: [{ startIndex, endIndex, tag, token }] }
//   inputText is the first 2,000 characters of text (UTF-16 code units, 1,999 if the 2,000th would
//   split a surrogate pair); offsets index into it; an entity crossing the cut is not returned.
// POST /api/add_phrase/{data_type}  [{ text, entities: [{ start, end, tag: { name }, token }] }] → { success: true }
//   (the public shape). The older single object { text, entities: [{ startIndex, endIndex, tag, token? }] } is
//   accepted too, and answered as the service answers: { success: true } (a client written against the service
//   must not see fields the service never sends). data_type `test` stores the phrase for evaluation; any other
//   value (train included) stores and learns it. Every phrase of an array is checked before any is stored.
//
// Every error has the body { type: 'APIError', code, message }: 400/7003 for invalid parameters,
// 500/7000 for anything unexpected. 403/7001 (key), 403/7002 (JSON) and 405 come from the server;
// 403/7004 (payment) never happens locally: the local service has no billing.
import type { Handler, Handlers, RequestContext } from '../http/context';
import { HttpError, NluError } from '../http/errors';
import { InvalidJsonError } from '../http/body';
import type { LocalLogger } from '../logger';
import { parsePhrases, requireText } from '../nlu/nluRequests';
import type { DataType, PhraseBook } from '../nlu/phraseBook';

export interface NluHandlerDeps {
  book: PhraseBook;
  logger?: LocalLogger;
}

export const NLU_UNEXPECTED = (): NluError => new NluError(500, 7000, 'Something went wrong');

export function nluHandlers(deps: NluHandlerDeps): Handlers {
  const { book } = deps;
  const guarded =
    (op: string, fn: Handler): Handler =>
    async (ctx: RequestContext) => {
      try {
        return await fn(ctx);
      } catch (error) {
        // Typed errors are answered by the server in the entity-recognition shape (InvalidJsonError → 7002).
        if (error instanceof NluError || error instanceof InvalidJsonError || error instanceof HttpError) throw error;
        deps.logger?.error(`${op}: ${(error as Error)?.stack ?? error}`);
        throw NLU_UNEXPECTED();
      }
    };

  return {
    'nlu.infer': guarded('nlu.infer', async (ctx) => book.infer(requireText(await ctx.body()))),

    'nlu.addPhrase': guarded('nlu.addPhrase', async (ctx) => {
      const dataType: DataType = ctx.params.data_type === 'test' ? 'test' : 'train';
      // Either shape (the older object is one phrase): each phrase is decided and committed in its own span
      // (phraseBook.ts); all are durable before the answer.
      const { phrases } = parsePhrases(await ctx.body());
      await Promise.all(phrases.map((p) => book.add(dataType, p.text, p.entities)));
      return { success: true };
    }),
  };
}
