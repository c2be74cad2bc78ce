// POST /webapi/generative_answer (docs/api.md#generative-answers): extractive answers, sync (one JSON object) or stream (NDJSON).
import { Reply, type Handler } from '../http/context';
import { answerBody } from '../answers/answerBody';
import { answerRequestSchema } from '../answers/answerSchema';
import type { AnswerService } from '../answers/answerService';
import { streamDelay, writeAnswerStream } from '../answers/streamWriter';

/** `honourStreamDelay`: the X-Local-Stream-Delay-Ms test header is read (LocalServiceOptions.testHooks only). */
export function answerHandlers(answers: AnswerService, honourStreamDelay = false): Record<string, Handler> {
  return {
    'answers.generate': async (ctx) => {
      const request = await ctx.parse(answerRequestSchema);
      const baseUrl = `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
      const { plan, commit } = await answers.prepare(request, ctx.identity, baseUrl);
      if (request.mode === 'sync') {
        await commit();
        answers.counts.sync++;
        return answerBody(plan);
      }
      answers.counts.streamed++;
      const outcome = await writeAnswerStream(ctx, plan, commit, honourStreamDelay ? streamDelay(ctx) : 0);
      if (outcome.closedEarly) answers.counts.closedEarly++;
      return Reply.handled();
    },
  };
}
