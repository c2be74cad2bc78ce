// The 17 Q&A operations, exact to the shapes of docs/api.md#qa.
import { CANDIDATE_ORDERS } from '../../core/faqWire';
import { normalizeHashtag } from '../../core/hashtags';
import type { Handlers, RequestContext } from '../http/context';
import { badRequest } from '../http/errors';
import { dailyAnalytics, dailyCount } from '../faq/analytics';
import { detailItem } from '../faq/faqRecord';
import {
  addCandidatesSchema,
  feedbackSchema,
  filterSchema,
  idSchema,
  parseBody,
  registerSchema,
  searchSchema,
  selectSchema,
  updateSchema,
} from '../faq/faqSchemas';
import type { FaqService } from '../faq/faqService';
import { uploadFaqFile } from '../faq/faqUpload';
import { dateParam, enumParam, intParam, listParam, requiredRange, stringParam } from '../faq/params';
import { parseTermQuery } from '../faq/termQuery';

export interface FaqHandlerDeps {
  faq: FaqService;
  /** Where uploaded Q&A files (and ZIP entries) are unpacked; inside the data folder. */
  tempPath: () => string;
  /** Largest number of data rows per uploaded file (default MAX_FAQ_FILE_ROWS). */
  maxFaqFileRows?: number;
  /** Rows per commit of an uploaded file (tests). */
  faqUploadBatchRows?: number;
  /** Largest decompressed size of an uploaded XLSX's parts (default MAX_FAQ_XLSX_BYTES). */
  maxFaqXlsxBytes?: number;
}

const FORMATS = ['html', 'text'] as const;
const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

export function faqHandlers(deps: FaqHandlerDeps): Handlers {
  const { faq } = deps;

  return {
    // Local "embeddings" are the search index, updated with each write: nothing is ever pending.
    'faq.embeddingStatus': async () => {
      const total = faq.faqs.size;
      return { total, pending: 0, ready: total };
    },

    'faq.register': async (ctx) => {
      const body = await parseBody(ctx, registerSchema);
      return { result: await faq.register(body, ctx.identity), errors: '' };
    },

    'faq.update': async (ctx) => {
      const { id, similar_questions, ...changes } = await parseBody(ctx, updateSchema);
      return { result: await faq.update(id, { ...changes, similarQuestions: similar_questions }, ctx.identity), errors: '' };
    },

    'faq.delete': async (ctx) => {
      const { id } = await parseBody(ctx, idSchema);
      await faq.delete(id);
      return { result: { status: 'deleted' }, errors: '' };
    },

    'faq.get': async (ctx) => {
      const id = ctx.query.get('id')?.trim();
      if (!id) throw badRequest('id: is required', 'id');
      const format = enumParam(ctx.query, 'format', FORMATS, 'html');
      const record = faq.requireFaq(id);
      return { result: detailItem(record, faq.feedback.countsOf(id), format) };
    },

    'faq.list': async (ctx) => {
      const offset = intParam(ctx.query, 'offset', { def: 0, min: 0, max: MAX_OFFSET });
      const limit = intParam(ctx.query, 'limit', { def: 1000, min: 1, max: 1000 });
      return faq.list(offset, limit, enumParam(ctx.query, 'format', FORMATS, 'html'));
    },

    'faq.filter': async (ctx) => {
      const body = await parseBody(ctx, filterSchema);
      return faq.list(body.offset, body.limit, body.format, body);
    },

    'faq.search': async (ctx) => faq.search(await parseBody(ctx, searchSchema), ctx.identity),

    'faq.selectAnswer': async (ctx) => {
      const { hashId, id } = await parseBody(ctx, selectSchema);
      await faq.selectAnswer(hashId, id);
      return { result: 'Success' };
    },

    'faq.feedback': async (ctx) => {
      const { query, id, isPositive } = await parseBody(ctx, feedbackSchema);
      return { result: await faq.giveFeedback(query, id, isPositive, ctx.identity), errors: {} };
    },

    'faq.feedbackHistory': async (ctx) => {
      const offset = intParam(ctx.query, 'offset', { def: 0, min: 0, max: MAX_OFFSET });
      const limit = intParam(ctx.query, 'limit', { def: 100, min: 1, max: 100 });
      return faq.feedbackHistory(ctx.identity, offset, limit);
    },

    'faq.searchHistory': async (ctx) => {
      const q = ctx.query;
      const startDate = dateParam(q, 'startDate');
      const endDate = dateParam(q, 'endDate');
      if (startDate && endDate && endDate < startDate) throw badRequest('endDate: must not be before startDate', 'endDate');
      const history = faq.log.history({
        offset: intParam(q, 'offset', { def: 0, min: 0, max: MAX_OFFSET }),
        limit: intParam(q, 'limit', { def: 100, min: 1, max: 1000 }),
        startDate,
        endDate,
        sortOrder: enumParam(q, 'sortOrder', ['DESC', 'ASC'] as const, 'DESC'),
        searchTerm: stringParam(q, 'searchTerm'),
      });
      return { result: history, errors: {} };
    },

    'faq.candidates': async (ctx) => {
      const q = ctx.query;
      const page = faq.candidates.list({
        offset: intParam(q, 'offset', { def: 0, min: 0, max: MAX_OFFSET }),
        limit: intParam(q, 'limit', { def: 100, min: 1, max: 100 }),
        hashtags: listParam(q, 'hashtags').map(normalizeHashtag).filter(Boolean),
        terms: parseTermQuery(stringParam(q, 'searchTerm')),
        order: enumParam(q, 'order', CANDIDATE_ORDERS, 'FREQUENCY_DESC'),
        status: enumParam(q, 'status', ['ALL', 'ACTIVE', 'ARCHIVED'] as const, 'ACTIVE'),
      });
      return { result: page, errors: {} };
    },

    'faq.dailyCount': async (ctx) => {
      const { days } = requiredRange(await queryOrBody(ctx, ['startDate', 'endDate']));
      return { result: dailyCount(faq.log, days), errors: {} };
    },

    'faq.dailyAnalytics': async (ctx) => {
      const source = await queryOrBody(ctx, ['startDate', 'endDate', 'topN']);
      const topN = intParam(source, 'topN', { def: Number.NaN, min: 1, max: 20 });
      if (![1, 5, 10, 20].includes(topN)) throw badRequest('topN: must be 1, 5, 10 or 20', 'topN');
      const { days } = requiredRange(source);
      return { result: dailyAnalytics(faq.log, faq.faqs, days, topN), errors: {} };
    },

    'faq.addCandidates': async (ctx) => {
      const { queries } = await parseBody(ctx, addCandidatesSchema);
      return { result: { candidates: await faq.addCandidates(queries) }, errors: {} };
    },

    'faq.uploadFile': (ctx) =>
      uploadFaqFile(ctx, faq, {
        tempPath: deps.tempPath,
        maxRows: deps.maxFaqFileRows,
        batchRows: deps.faqUploadBatchRows,
        maxXlsxBytes: deps.maxFaqXlsxBytes,
      }),
  };
}

/** Daily count and analytics take their inputs from the query string or, as the service's sample shows, a JSON body. */
async function queryOrBody(ctx: RequestContext, names: string[]): Promise<Record<string, unknown>> {
  let body: unknown;
  if (names.some((n) => !ctx.query.has(n))) body = await ctx.body();
  const fromBody = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return Object.fromEntries(names.map((n) => [n, ctx.query.get(n) ?? fromBody[n]]));
}
