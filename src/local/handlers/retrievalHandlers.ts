// Retrieval and highlights: POST /webapi/retrieval, GET /webapi/v2/highlights/{clue_id},
// POST /webapi/v2/retrieval/highlight. Exact shapes of docs/api.md#retrieval and docs/api.md#highlights.
import { z } from 'zod';
import type { Handlers, Identity } from '../http/context';
import { badRequest, notFound } from '../http/errors';
import type { DocumentScope } from '../search/filters';
import type { HighlightResolver } from '../search/highlightResolver';
import type { Retrieval } from '../search/retrieval';

const ids = z.array(z.string().min(1).max(200)).max(1000).nullish();
const andOr = z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['and', 'or'])).nullish();
const weight = (def: number) =>
  z
    .number()
    .min(0)
    .max(9)
    .nullish()
    .transform((v) => v ?? def);

export const retrievalSchema = z
  .object({
    question: z.string().trim().min(1).max(2000),
    maxDocumentClues: z
      .number()
      .int()
      .min(1)
      .max(50)
      .nullish()
      .transform((v) => v ?? 3),
    bm25_score_weight: weight(9),
    text_vector_score_weight: weight(1),
    title_vector_score_weight: weight(0),
    hashtags: ids,
    hashtags_operator: andOr,
    exclude_hashtags: ids,
    exclude_hashtags_operator: andOr,
    targetFolders: ids,
    folderIds: ids,
    knowledgeBaseIds: ids,
    enablePersonalFolderSearch: z.boolean().nullish(),
    personalFolderIds: ids,
    personalDocumentIds: ids,
    // Accepted and validated, but without effect locally: there is no keyword-extraction model, and no
    // clue feedback is collected for retrieval (only Q&A feedback exists).
    use_keywords: z.boolean().nullish(),
    use_clue_feedback: z.boolean().nullish(),
    use_reranker: z.boolean().nullish(),
    reranker_candidates_num: z
      .number()
      .int()
      .min(1)
      .max(100)
      .nullish()
      .transform((v) => v ?? 16),
    reranker_max_tokens: z
      .number()
      .int()
      .min(16)
      .max(8192)
      .nullish()
      .transform((v) => v ?? 1024),
  })
  .superRefine((body, ctx) => {
    if (body.bm25_score_weight + body.text_vector_score_weight + body.title_vector_score_weight === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['bm25_score_weight'],
        message: 'at least one of bm25_score_weight, text_vector_score_weight and title_vector_score_weight must be above 0',
      });
    }
  });

const retrievalHighlightSchema = z
  .object({
    kbId: z.string().min(1).max(200),
    pageNo: z.number().int().min(1),
    subTextIndex: z.number().int().min(0).nullish(),
    passageText: z.string().max(20_000).nullish(),
    question: z.string().max(2000).nullish(),
    answer: z.string().max(20_000).nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.subTextIndex == null && !body.passageText?.trim()) {
      ctx.addIssue({ code: 'custom', path: ['subTextIndex'], message: 'subTextIndex or passageText is required' });
    }
  });

/** The user a personal search is for: OWN-USER-ID, else USER-EMAIL. */
export function userOf(identity: Identity): string | undefined {
  return identity.ownUserId ?? identity.userEmail;
}

export interface RetrievalHandlerDeps {
  retrieval: Retrieval;
  highlights: HighlightResolver;
}

export function retrievalHandlers(deps: RetrievalHandlerDeps): Handlers {
  return {
    'retrieval.search': async (ctx) => {
      const body = await ctx.parse(retrievalSchema);
      const user = userOf(ctx.identity);
      const scope: DocumentScope = {
        sharedIds: [...(body.knowledgeBaseIds ?? []), ...(body.folderIds ?? [])],
        targetFolders: body.targetFolders ?? [],
        hashtags: body.hashtags ?? [],
        hashtagsOperator: body.hashtags_operator ?? 'or',
        excludeHashtags: body.exclude_hashtags ?? [],
        excludeHashtagsOperator: body.exclude_hashtags_operator ?? 'or',
      };
      if (body.enablePersonalFolderSearch && user)
        scope.personal = { userId: user, ids: [...(body.personalFolderIds ?? []), ...(body.personalDocumentIds ?? [])] };
      const hits = await deps.retrieval.searchPages(body.question, {
        weights: { bm25: body.bm25_score_weight, text: body.text_vector_score_weight, title: body.title_vector_score_weight },
        scope,
        maxPages: body.maxDocumentClues,
        rerank: body.use_reranker ? { candidates: body.reranker_candidates_num, maxTokens: body.reranker_max_tokens } : undefined,
      });
      return {
        result: hits.map((h, i) => ({
          ranking: i + 1,
          title: h.node.name,
          text: h.passage.text,
          pageNo: h.passage.pageNo,
          kb_id: h.node.id,
          // Local extras of the item (docs/api.md#retrieval): what highlight needs to find this passage again.
          subTextIndex: h.passage.subTextIndex,
          clueId: h.clueId,
        })),
      };
    },

    'highlights.forClue': async (ctx) => {
      const highlight = await deps.highlights.forClue(ctx.params.clue_id);
      if (!highlight) throw notFound(`Clue not found: ${ctx.params.clue_id.slice(0, 200)}`);
      return highlight;
    },

    'highlights.forRetrieval': async (ctx) => {
      const body = await ctx.parse(retrievalHighlightSchema);
      if (!body.kbId.trim()) throw badRequest('kbId: is required', 'kbId');
      const highlight = await deps.highlights.forRetrieval({
        kbId: body.kbId,
        pageNo: body.pageNo,
        subTextIndex: body.subTextIndex ?? undefined,
        passageText: body.passageText ?? undefined,
      });
      if (!highlight) throw notFound(`No passage found on page ${body.pageNo} of ${body.kbId}`);
      return highlight;
    },
  };
}
