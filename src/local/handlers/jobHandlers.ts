// Answer-generation jobs (RARE, 7 operations) and bulk processing (4 operations), in the shapes of
// docs/api.md#answer-generation-jobs-rare and docs/api.md#bulk-processing; the work itself runs in the background (src/local/jobs).
import { readFile, rm } from 'node:fs/promises';
import { Reply, type Handlers } from '../http/context';
import { badRequest } from '../http/errors';
import { MAX_BULK_BYTES, parseBulkCsv } from '../jobs/bulkInput';
import { pageParam } from '../jobs/bulkJobs';
import type { BulkType } from '../jobs/jobRecords';
import type { JobServices } from '../jobs/jobServices';
import { buildParamsSchema, generateParamsSchema } from '../jobs/rareParams';

const BULK_TYPES: readonly BulkType[] = ['ga', 'rag', 'rag_agent_v2'];
const CSV = 'text/csv; charset=utf-8';

const attachment = (name: string): Record<string, string> => ({ 'content-disposition': `attachment; filename="${name}"` });

export function jobHandlers(jobs: JobServices): Handlers {
  const { rare, bulk } = jobs;
  return {
    'rare.status': async () => rare.current(),
    'rare.build': async (ctx) => rare.startBuild(await ctx.parse(buildParamsSchema)),
    'rare.generate': async (ctx) => rare.startGenerate(await ctx.parse(generateParamsSchema)),
    'rare.cancel': async () => rare.cancel(),
    'rare.results': async () => rare.results(),

    'rare.deleteResult': async (ctx) => {
      await rare.deleteResult(ctx.params.result_id);
      return Reply.empty();
    },

    'rare.csv': async (ctx) => {
      const { text, id } = await rare.csv(ctx.query.get('path')?.trim() || undefined);
      return Reply.text(text, CSV, attachment(`rare-${id}.csv`));
    },

    'bulk.run': async (ctx) => {
      // Checked before the body is read: a wrong type needs no upload.
      const bulkType = (ctx.query.get('bulk_type')?.trim() || 'ga') as BulkType;
      if (!BULK_TYPES.includes(bulkType)) throw badRequest(`bulk_type: must be one of ${BULK_TYPES.join(', ')}`, 'bulk_type');
      const { files } = await ctx.multipart({ maxFiles: 1, maxFileBytes: MAX_BULK_BYTES });
      try {
        const file = files.find((f) => f.field === 'file');
        if (!file) throw badRequest('file: a file part named "file" (the CSV of questions) is required', 'file');
        return await bulk.run(parseBulkCsv(await readFile(file.tempPath)), bulkType, file.fileName);
      } finally {
        await Promise.all(files.map((f) => rm(f.tempPath, { force: true })));
      }
    },

    'bulk.results': async (ctx) => bulk.list(pageParam(ctx.query)),

    'bulk.download': async (ctx) => {
      const fileUrl = ctx.query.get('file_url')?.trim();
      if (!fileUrl) throw badRequest('file_url: is required', 'file_url');
      const { text, record } = await bulk.download(fileUrl);
      return Reply.text(text, CSV, attachment(`bulk-${record.id}.csv`));
    },

    'bulk.deleteResult': async (ctx) => {
      await bulk.deleteResult(ctx.params.result_id);
      return Reply.empty();
    },
  };
}
