// Optional request fields: a field left out and a field sent as null mean the same, "use the default".
import type { z } from 'zod';

/** Absent or null reads as `fallback`. */
export function orDefault<T extends z.ZodTypeAny>(schema: T, fallback: NonNullable<z.output<T>>) {
  return schema.nullish().transform((v): NonNullable<z.output<T>> => v ?? fallback);
}

/** Absent or null reads as `undefined`: one "not given" for the code that reads the body. */
export function optional<T extends z.ZodTypeAny>(schema: T) {
  return schema.nullish().transform((v): z.output<T> | undefined => v ?? undefined);
}
