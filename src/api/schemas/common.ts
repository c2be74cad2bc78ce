import { z } from 'zod';

/** Epoch time as sent by the service; values below 1e11 are seconds (docs/api.md#timestamps), strings are parsed. */
export const epochMs = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const n = typeof value === 'number' ? value : /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(n)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'is not a time' });
    return z.NEVER;
  }
  return n < 1e11 ? Math.round(n * 1000) : n;
});

export const feedbackCountsSchema = z
  .object({ positiveCount: z.number().int().default(0), negativeCount: z.number().int().default(0) })
  .passthrough();
export type FeedbackCounts = z.infer<typeof feedbackCountsSchema>;

/** `null` from the service becomes `undefined`, so callers have one "absent" to test. */
export function nullish<T extends z.ZodTypeAny>(schema: T) {
  return schema.nullish().transform((v) => v ?? undefined);
}

/** A list the service may leave out or send as `null`: read as empty. */
export function listOf<T extends z.ZodTypeAny>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((v): z.output<T>[] => v ?? []);
}

/** Text the service may leave out or send as `null`: read as ''. */
export const textOrEmpty = z
  .string()
  .nullish()
  .transform((v) => v ?? '');

/** Text the service may leave out or send as `null`: read as `fallback` (e.g. 'unknown'). */
export function textOr(fallback: string) {
  return z
    .string()
    .nullish()
    .transform((v) => v ?? fallback);
}

interface UnwrapResultDef<T extends z.ZodTypeAny> extends z.ZodTypeDef {
  inner: T;
}

/**
 * `z.preprocess(unwrap, inner)` without ZodEffects: zod 3 builds an object with a getter and a bound function on
 * every effect it runs, ~4 µs per parse, more than the rest of a small response's validation (`npm run bench`).
 */
class ZodUnwrapResult<T extends z.ZodTypeAny> extends z.ZodType<z.output<T>, UnwrapResultDef<T>, unknown> {
  _parse(input: z.ParseInput): z.ParseReturnType<z.output<T>> {
    const body = input.data as { result?: unknown } | null | undefined;
    return this._def.inner._parse({ data: body?.result ?? body, path: input.path, parent: input.parent });
  }
}

/** Bodies that may arrive bare or wrapped in `{ result: … }` are read as the bare value. */
export function unwrapResult<T extends z.ZodTypeAny>(schema: T): z.ZodType<z.output<T>, UnwrapResultDef<T>, unknown> {
  return new ZodUnwrapResult<T>({ inner: schema });
}

/** Lists some services send bare: a bare array is read as `{ [key]: array }`. */
export function bareArrayAs<T extends z.ZodTypeAny>(key: string, schema: T) {
  return z.preprocess((body) => (Array.isArray(body) ? { [key]: body } : body), schema);
}
