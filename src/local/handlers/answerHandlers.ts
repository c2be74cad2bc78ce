// POST /webapi/generative_answer (docs/api.md#generative-answers): extractive answers, sync (one JSON object) or stream (NDJSON);
// answer feedback and its history (docs/api.md#answer-feedback).
import { Reply, type Handlers, type RequestContext } from '../http/context';
import { answerBody } from '../answers/answerBody';
import { answerRequestSchema } from '../answers/answerSchema';
import type { AnswerService } from '../answers/answerService';
import { writeAnswerStream } from '../answers/streamWriter';
import { feedbackListSchema, userFeedbackSchema, type AnswerFeedbackStore } from '../answers/answerFeedback';
import { HttpError, parseOrBadRequest } from '../http/errors';

/** Without OWN-USER-ID (or USER-EMAIL) all calls share one user, as on the service (public). */
const DEFAULT_USER = 'default';

export interface AnswerHandlerDeps {
  answers: AnswerService;
  feedback: AnswerFeedbackStore;
  isDocument: (id: string) => boolean;
  /** Pause between stream lines a request asks for (the test build's X-Local-Stream-Delay-Ms, src/local/testKit.ts). */
  streamDelay?: (ctx: RequestContext) => number;
}

export function answerHandlers(deps: AnswerHandlerDeps): Handlers {
  const { answers } = deps;
  return {
    // POST /webapi/mrc/user_feedback {answerHash, answer, id, query, positive} → {result: {userFeedback: {positiveCount, negativeCount}}}
    'answers.feedback': async (ctx) => {
      const body = await ctx.parse(userFeedbackSchema);
      if (!deps.isDocument(body.id)) throw new HttpError(404, `Document not found: ${body.id}`, { field: 'id' });
      const user = ctx.identity.ownUserId ?? ctx.identity.userEmail ?? DEFAULT_USER;
      return { result: { userFeedback: await deps.feedback.vote(body, user) } };
    },
    // GET /webapi/mrc_feedbacks?offset&limit → {result: [{query, feedbacks: [{document_id, answer, answer_hash, positive}]}]}
    'answers.feedbackHistory': async (ctx) => {
      const { offset, limit } = parseOrBadRequest(feedbackListSchema, Object.fromEntries(ctx.query));
      return { result: deps.feedback.history(offset, limit) };
    },
    'answers.generate': async (ctx) => {
      const request = await ctx.parse(answerRequestSchema);
      const baseUrl = `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
      const { plan, commit } = await answers.prepare(request, ctx.identity, baseUrl);
      if (request.mode === 'sync') {
        // A writer (answerWriter.ts) writes the whole answer first; it falls back to the extractive one by itself.
        if (plan.write) for await (const _ of plan.write(ctx.signal, false));
        await commit();
        answers.counts.sync++;
        return answerBody(plan);
      }
      answers.counts.streamed++;
      const outcome = await writeAnswerStream(ctx, plan, commit, deps.streamDelay?.(ctx) ?? 0);
      if (outcome.closedEarly) answers.counts.closedEarly++;
      return Reply.handled();
    },
  };
}
