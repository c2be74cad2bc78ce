import type { z, ZodIssue } from 'zod';
import { ApiValidationError } from './errors';

/** Parses a response body, turning a mismatch into an ApiValidationError naming operation and field. */
export function parseResponse<S extends z.ZodTypeAny>(operation: string, schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = mostSpecific(result.error.issues);
  throw new ApiValidationError(operation, issue.path.join('.'), describeIssue(issue, body));
}

// Unions report one issue per failed branch; the deepest path is the most useful to a reader.
function mostSpecific(issues: ZodIssue[]): ZodIssue {
  let best = issues[0];
  for (const issue of issues) {
    const candidates = issue.code === 'invalid_union' ? issue.unionErrors.flatMap((e) => e.issues) : [issue];
    for (const c of candidates) {
      const inner = c.code === 'invalid_union' ? mostSpecific([c]) : c;
      if (inner.path.length > best.path.length || best.code === 'invalid_union') best = inner;
    }
  }
  return best;
}

function describeIssue(issue: ZodIssue, body: unknown): string {
  const actual = valueAt(body, issue.path);
  const got = actual === undefined ? 'missing' : `got ${typeName(actual)}`;
  if (issue.code === 'invalid_type') return `should be ${issue.expected} (${got})`;
  return `${issue.message} (${got})`;
}

function valueAt(body: unknown, path: Array<string | number>): unknown {
  let value = body;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
